/**
 * Records the trace of every run the run service hands out: wraps the engine's event stream,
 * feeds each event to a trace builder as it passes, and stores the trace when the run returns
 * (or throws). Passes every event and the result through unchanged; never writes HTTP.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../../../shared/clock.js';
import type { RunEvent } from '../../engine/events.js';
import type { RunResult } from '../../engine/request.js';
import type {
  AgentDefinition,
  TeamDefinition,
  WorkflowDefinition,
} from '../../catalogue/definitions.js';
import type { RunRecord } from '../../store/records.js';
import type { TraceStore } from './table.js';
import { createTraceBuilder } from './builder.js';

/** A trace id: 32 hex digits, stable for the run id and how many traces it had before. */
export function traceIdOf(runId: string, ordinal: number): string {
  return createHash('sha256').update(`${runId}#${ordinal}`).digest('hex').slice(0, 32);
}

/** The run's events, unchanged; its trace is stored once they end. */
export async function* recordTrace(
  source: AsyncGenerator<RunEvent, RunResult, void>,
  entity: AgentDefinition | TeamDefinition | WorkflowDefinition,
  run: RunRecord,
  traces: TraceStore,
  clock: Clock,
): AsyncGenerator<RunEvent, RunResult, void> {
  const builder = createTraceBuilder(
    {
      kind: entity.kind,
      entityId: entity.id,
      entityName: entity.name,
      runId: run.run_id,
      sessionId: run.session_id,
      userId: run.user_id,
      input: run.input,
    },
    clock,
  );
  // Counted when the trace is stored, so a continue that follows gets the next ordinal.
  const traceId = async (): Promise<string> =>
    traceIdOf(run.run_id, await traces.countForRun(run.run_id));
  let step: IteratorResult<RunEvent, RunResult>;
  try {
    step = await source.next();
    while (!step.done) {
      builder.observe(step.value);
      yield step.value;
      step = await source.next();
    }
  } catch (error) {
    await traces.put(builder.fail(String(error), await traceId()));
    throw error;
  }
  await traces.put(builder.finish(step.value, await traceId()));
  return step.value;
}
