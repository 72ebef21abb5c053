/**
 * Resuming a paused run once its approval is resolved (the resume is ours):
 * a rejection rejects every held call; an approval confirms the calls that wait for
 * confirmation and fills user input from `resolution_data` (field name → value). When some held
 * call cannot be answered that way (a client-executed tool, missing input) the run stays paused
 * for the client to continue. Goes through the run service; never writes HTTP.
 */
import type { Caller } from '../../http/caller.js';
import type { Catalogue } from '../../catalogue/definitions.js';
import { heldCallsOf, type HeldCall } from '../../engine/continue.js';
import type { ToolAnswer } from '../../engine/request.js';
import { unsettledReason } from '../../engine/tool-gates.js';
import type { Entity, RunService } from '../runs/service.js';
import type { ApprovalRecord } from './table.js';
import type { RuntimeStore } from '../../store/store.js';

/** One answer per held call for a resolution; null when some call stays unanswered. */
export function answersForResolution(
  held: readonly HeldCall[],
  status: 'approved' | 'rejected',
  resolutionData: Readonly<Record<string, unknown>> | null,
): ToolAnswer[] | null {
  const answers = held.map((call): ToolAnswer => {
    const toolCallId = call.toolCallId;
    if (status === 'rejected') return { toolCallId, confirmed: false, note: null };
    if (call.kind === 'user_input') return { toolCallId, values: { ...resolutionData } };
    return { toolCallId, confirmed: true, note: null };
  });
  // An approval does not execute a client's tool, nor invent input it was not given.
  const settled = held.every(
    (call, index) =>
      (status === 'rejected' || call.kind !== 'external_execution') &&
      unsettledReason(call, answers[index]) === null,
  );
  return settled ? answers : null;
}

/** The entity a run of `approval` belongs to, if it is still served. */
function entityOf(
  catalogue: Catalogue,
  approval: ApprovalRecord,
  componentId: string,
): Entity | undefined {
  const kinds = { agent: catalogue.agents, team: catalogue.teams, workflow: catalogue.workflows };
  return (kinds[approval.source_type] as ReadonlyMap<string, Entity>).get(componentId);
}

/**
 * Resumes the run of a just-resolved `approval` and waits for it to end (or pause again). Does
 * nothing when the run is no longer paused, its entity is gone, or the resolution cannot answer
 * its calls.
 */
export async function resumeResolvedRun(
  o: { readonly store: RuntimeStore; readonly runs: RunService; readonly catalogue: Catalogue },
  approval: ApprovalRecord,
  caller: Caller,
): Promise<void> {
  const run = o.store.getRun(approval.run_id);
  if (run?.status !== 'PAUSED') return;
  const entity = entityOf(o.catalogue, approval, run.component_id);
  if (entity === undefined) return;
  const answers = answersForResolution(
    heldCallsOf(run.checkpoint),
    approval.status as 'approved' | 'rejected',
    approval.resolution_data,
  );
  if (answers === null) return;
  const active = await o.runs.continue(
    { entity, caller, runId: run.run_id, sessionId: run.session_id },
    answers,
  );
  let step = await active.events.next();
  while (!step.done) step = await active.events.next();
}
