/**
 * Message dicts of a run output: a model message plus its id and time, with
 * nulls and empty collections left out. Pure.
 */
import type { ModelMessage } from '../model/model.js';
import { omitNulls } from './events.js';

/** A message as the run recorded it. */
export interface RecordedMessage {
  readonly id: string;
  /** Epoch seconds. */
  readonly createdAt: number;
  readonly message: ModelMessage;
}

/** The `Message` dict of a recorded message. */
export function messageDict({ id, createdAt, message }: RecordedMessage): Record<string, unknown> {
  const base = {
    id,
    role: message.role,
    content: message.content,
    from_history: false,
    stop_after_tool_call: false,
  };
  switch (message.role) {
    case 'system':
    case 'user':
      return { ...base, created_at: createdAt };
    case 'assistant':
      return omitNulls({
        ...base,
        tool_calls:
          message.toolCalls.length === 0
            ? null
            : message.toolCalls.map((call) => ({
                id: call.id,
                type: 'function',
                function: { name: call.name, arguments: JSON.stringify(call.args) },
              })),
        reasoning_content: message.reasoning,
        created_at: createdAt,
      });
    case 'tool':
      return {
        ...base,
        tool_call_id: message.toolCallId,
        tool_name: message.toolName,
        tool_args: message.toolArgs,
        tool_call_error: message.toolCallError,
        created_at: createdAt,
      };
  }
}
