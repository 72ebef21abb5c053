/**
 * The trace rows the runtime keeps: one trace per run start or continue, with
 * its spans as a flat list linked by parent id. Plain data; no SQL and no HTTP shapes here.
 */

/** What a span stands for. */
export type SpanType = 'AGENT' | 'TEAM' | 'WORKFLOW' | 'LLM' | 'TOOL';

/** A span's (and a trace's) outcome. */
export type SpanStatus = 'OK' | 'ERROR';

/** One span of a trace. */
export interface SpanRecord {
  readonly span_id: string;
  readonly trace_id: string;
  /** `null` for the root span. */
  readonly parent_span_id: string | null;
  readonly name: string;
  readonly type: SpanType;
  readonly status: SpanStatus;
  /** Epoch milliseconds. */
  readonly start_ms: number;
  /** Epoch milliseconds, at least `start_ms`. */
  readonly end_ms: number;
  readonly input: string | null;
  readonly output: string | null;
  readonly error: string | null;
  /** `"Step"` for a workflow step's span; `null` otherwise. */
  readonly step_type: string | null;
  readonly metadata: Readonly<Record<string, unknown>> | null;
}

/** One trace: the root span's outcome and the ids it is filtered by, with every span. */
export interface TraceRecord {
  readonly trace_id: string;
  /** The root span's name. */
  readonly name: string;
  readonly status: SpanStatus;
  /** Epoch milliseconds. */
  readonly start_ms: number;
  /** Epoch milliseconds. */
  readonly end_ms: number;
  readonly error_count: number;
  readonly input: string | null;
  readonly output: string | null;
  readonly error: string | null;
  readonly run_id: string;
  readonly session_id: string | null;
  readonly user_id: string | null;
  readonly agent_id: string | null;
  readonly team_id: string | null;
  readonly workflow_id: string | null;
  /** Root first, then in the order they started. */
  readonly spans: readonly SpanRecord[];
}
