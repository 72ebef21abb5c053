/**
 * The HTTP shapes of stored sessions and runs: `SessionSchema`, the session
 * detail, and `RunSchema` / `TeamRunSchema` / `WorkflowRunSchema`. Pure: builds objects from
 * records, never reads the store or the request.
 */
import { isoOfSeconds } from '../../engine/time.js';
import type { RunRecord, SessionRecord, SessionType } from '../../store/records.js';

const idField = (type: SessionType): 'agent_id' | 'team_id' | 'workflow_id' =>
  type === 'agent' ? 'agent_id' : type === 'team' ? 'team_id' : 'workflow_id';

/** `session_summary`: Agno's `SessionSummary.to_dict()` (a null `topics` is left out). */
function summarySchema(s: SessionRecord): Record<string, unknown> | null {
  const summary = s.session_summary;
  if (summary === null) return null;
  return {
    summary: summary.summary,
    ...(summary.topics === null ? {} : { topics: summary.topics }),
    updated_at: isoOfSeconds(summary.updated_at),
  };
}

/** `SessionSchema`. */
export function sessionSchema(s: SessionRecord): Record<string, unknown> {
  return {
    session_id: s.session_id,
    session_name: s.session_name,
    session_state: s.session_state,
    created_at: isoOfSeconds(s.created_at),
    updated_at: isoOfSeconds(s.updated_at),
    session_type: s.session_type,
    user_id: s.user_id,
    agent_id: s.session_type === 'agent' ? s.component_id : null,
    team_id: s.session_type === 'team' ? s.component_id : null,
    workflow_id: s.session_type === 'workflow' ? s.component_id : null,
    session_summary: summarySchema(s),
    metrics: null,
    total_tokens: null,
    metadata: s.metadata,
  };
}

/**
 * The detail schema every single-session route answers (GET, POST, rename, PATCH):
 * `SessionSchema` plus `<type>_session_id` and the chat history of `runs`.
 */
export function sessionDetail(
  s: SessionRecord,
  runs: readonly RunRecord[],
): Record<string, unknown> {
  return {
    ...sessionSchema(s),
    [`${s.session_type}_session_id`]: s.session_id,
    chat_history: runs.flatMap((r) => [
      { role: 'user', content: r.input, created_at: r.created_at },
      ...(typeof r.output.content === 'string'
        ? [{ role: 'assistant', content: r.output.content, created_at: r.updated_at }]
        : []),
    ]),
  };
}

/** `RunSchema` / `TeamRunSchema` / `WorkflowRunSchema` of a stored run. */
export function runSchema(r: RunRecord): Record<string, unknown> {
  const out = r.output;
  return {
    run_id: r.run_id,
    parent_run_id: r.parent_run_id,
    [idField(r.session_type)]: r.component_id,
    user_id: r.user_id,
    status: r.status,
    run_input: r.input,
    content: out.content ?? null,
    run_response_format: typeof out.content === 'object' && out.content !== null ? 'json' : 'text',
    metrics: out.metrics ?? null,
    events: out.events ?? [],
    created_at: isoOfSeconds(r.created_at),
  };
}
