/**
 * Runs the agent or team an eval is about, once, through the run engine, and hands back what the
 * evaluations read: the answer text, the events and the model. An eval's runs are not persisted:
 * they get fresh run and session ids, no user and an empty session state, and no session or run
 * row is written (the eval run itself is the record). Never touches HTTP or the store.
 */
import type { AgentDefinition, TeamDefinition } from '../../catalogue/definitions.js';
import { runEntity, type EngineDeps, type RunEvent } from '../../engine/run.js';

/** What an eval can be run against. */
export type EvalSubject = AgentDefinition | TeamDefinition;

/** One finished run of an eval's subject. */
export interface SubjectRun {
  /** The run output's `content` as text (the error message of a failed run; "" for none). */
  readonly content: string;
  /** Every event of the run, nested member runs included, in order. */
  readonly events: readonly RunEvent[];
  /** The model the run reported (`model`, `model_provider` of its output), null when none. */
  readonly model: string | null;
  readonly modelProvider: string | null;
}

/** A run output's `content` as text: a string as is, nothing as "", anything else as JSON. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  // Structured content is judged as its JSON text, as Agno judges `str(content)`.
  return content == null ? '' : JSON.stringify(content);
}

/** A string, or null for anything else. */
export const stringOrNull = (value: unknown): string | null =>
  typeof value === 'string' ? value : null;

/** Runs `subject` on `input` to the end. */
export async function runSubject(
  subject: EvalSubject,
  input: string,
  deps: EngineDeps,
): Promise<SubjectRun> {
  const run = runEntity(
    subject,
    {
      runId: deps.newId(),
      sessionId: deps.newId(),
      userId: null,
      message: input,
      sessionState: {},
      cancel: { cancelled: false },
    },
    deps,
  );
  const events: RunEvent[] = [];
  let step = await run.next();
  while (!step.done) {
    events.push(step.value);
    step = await run.next();
  }
  const { output } = step.value;
  return {
    content: contentText(output['content']),
    events,
    model: stringOrNull(output['model']),
    modelProvider: stringOrNull(output['model_provider']),
  };
}
