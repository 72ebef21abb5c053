/**
 * A run's A2A stream in 1.0 form (both bindings): first the task, then the answer's text as
 * `artifactUpdate` events on one artifact (the first `append: false`, later ones `append: true`),
 * tool, reasoning, memory and workflow steps as `statusUpdate` events with the metadata the 0.3
 * stream carries, and last the terminal `statusUpdate` (no `final` member in 1.0: the stream
 * closes after it). Pure: converts the 0.3 stream items of {@link createStreamMapper}.
 */
import type { StatusUpdate, StreamItem } from './stream.js';
import type { AgentMessage, RunTaskState } from './task.js';
import { protoMessage, V1_STATE } from './rest.js';

/**
 * Converts one run's 0.3 stream items to 1.0 StreamResponses, in order; `artifactId` names the
 * one artifact the answer's text goes to.
 */
export function createV1StreamMapper(o: {
  readonly taskId: string;
  readonly contextId: string;
  readonly artifactId: string;
}) {
  const { taskId, contextId } = o;
  let appended = false;
  /** The terminal status-update, held until the Task tells what its message says. */
  let terminal: StatusUpdate | null = null;

  const statusUpdate = (
    state: RunTaskState,
    metadata: Readonly<Record<string, unknown>> | undefined,
    message: AgentMessage | undefined,
  ): Record<string, unknown> => ({
    statusUpdate: {
      taskId,
      contextId,
      status: {
        state: V1_STATE[state],
        ...(message === undefined ? {} : { message: protoMessage(message, '1.0') }),
      },
      ...(metadata === undefined ? {} : { metadata }),
    },
  });

  return {
    /** The first item: the task, submitted. */
    start() {
      return { task: { id: taskId, contextId, status: { state: V1_STATE.submitted } } };
    },

    /** The 1.0 items for one 0.3 item (none for the closing Task, already told by its status). */
    map(item: StreamItem): Record<string, unknown>[] {
      switch (item.kind) {
        case 'status-update':
          if (item.final) {
            terminal = item;
            return [];
          }
          return [statusUpdate(item.status.state, item.metadata, undefined)];
        case 'message': {
          if (item.metadata?.['agno_content_category'] !== 'content') {
            // A reasoning step: a working status carrying the step as its message.
            return [statusUpdate('working', item.metadata, item)];
          }
          const append = appended;
          appended = true;
          return [
            {
              artifactUpdate: {
                taskId,
                contextId,
                artifact: {
                  artifactId: o.artifactId,
                  parts: item.parts.map((part) => ({ text: part.text })),
                },
                append,
              },
            },
          ];
        }
        case 'task': {
          // The closing Task: its terminal status-update goes out now, with the task's message
          // when it says more than the artifact did (an error, a cancellation, a pause).
          const state = item.status.state;
          const message = state === 'completed' ? undefined : item.history?.[0];
          return [statusUpdate(state, terminal?.metadata, message)];
        }
      }
    },
  };
}
