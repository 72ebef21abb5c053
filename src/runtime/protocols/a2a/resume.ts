/**
 * A message that names a paused task (`message.taskId`) read as the answers to the tool calls the
 * run waits on, as REST continue takes them: a confirmation, user input or a client tool's
 * result. Pure: reads the message text and the run's checkpoint, never runs anything.
 */
import { heldCallsOf } from '../../engine/continue.js';
import type { ToolAnswer } from '../../api/runs/service.js';
import { isRecord } from '../json.js';
import { A2AProtocolError } from './v1-errors.js';

/** Replies that confirm a call; any other text rejects it (a pause never passes by accident). */
const AFFIRMATIVE = new Set(['yes', 'y', 'true', 'ok', 'confirm', 'confirmed', 'approve']);

/**
 * The answers in a message's text to every call a paused run's checkpoint holds. The text is a
 * JSON object (a data part) or plain text:
 * - confirmation: `{"confirmed": bool, "note"?: string}`, or text (`yes`, `ok`, `approve`, …
 *   confirm; anything else rejects);
 * - user input: the JSON object's fields by name, or the text when the call asks for one field;
 * - a client tool: the text is its result.
 *
 * @throws {A2AProtocolError} INVALID_PARAMS when user input is neither an object nor one field
 */
export function toolAnswersOf(checkpoint: unknown, text: string): ToolAnswer[] {
  const data = jsonObjectOf(text);
  return heldCallsOf(checkpoint).map((call): ToolAnswer => {
    const toolCallId = call.toolCallId;
    switch (call.kind) {
      case 'confirmation': {
        const confirmed =
          data !== null && typeof data['confirmed'] === 'boolean'
            ? data['confirmed']
            : AFFIRMATIVE.has(text.trim().toLowerCase());
        const note = data?.['note'];
        return { toolCallId, confirmed, note: typeof note === 'string' ? note : null };
      }
      case 'user_input': {
        if (data !== null) return { toolCallId, values: data };
        const fields = call.tool['user_input_schema'];
        if (Array.isArray(fields) && fields.length === 1) {
          return { toolCallId, values: { [(fields[0] as { name: string }).name]: text } };
        }
        throw new A2AProtocolError(
          'INVALID_PARAMS',
          `Tool ${call.toolName} waits for user input: send a JSON object of its fields`,
        );
      }
      case 'external_execution':
        return { toolCallId, content: text, error: false };
    }
  });
}

/**
 * What a paused run's checkpoint waits on, for the client that must answer it:
 * `{tool_call_id, tool_name, tool_args, waits_for: "confirmation"|"user_input"|"external_execution"}`
 * per call, with `user_input_schema` field names for user input.
 */
export function pendingCallsMetadata(checkpoint: unknown): Record<string, unknown>[] {
  return heldCallsOf(checkpoint).map((call) => ({
    tool_call_id: call.toolCallId,
    tool_name: call.toolName,
    tool_args: call.toolArgs,
    waits_for: call.kind,
    // A call held for user input always carries its schema (the engine writes it with the flag).
    ...(call.kind === 'user_input'
      ? {
          fields: (call.tool['user_input_schema'] as readonly { name: string }[]).map(
            (field) => field.name,
          ),
        }
      : {}),
  }));
}

function jsonObjectOf(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}
