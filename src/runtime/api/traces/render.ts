/**
 * The trace bodies the routes send: TraceSummary, TraceDetail with its span
 * tree, TraceNode and TraceSessionStats, null fields dropped as Agno does. Pure.
 */
import type { StoredTrace, TraceSessionStatsRecord } from './table.js';
import type { SpanRecord } from './records.js';

/** `"123ms"` under a second, else seconds with up to two decimals (`"1.5s"`, `"2.25s"`). */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms}ms` : `${Number((ms / 1000).toFixed(2))}s`;
}

/** Epoch ms as ISO 8601 UTC with `Z`. */
export const isoOf = (ms: number): string => new Date(ms).toISOString();

/** A span's (or trace's) duration, start and end. */
const timesOf = ({ start_ms, end_ms }: { start_ms: number; end_ms: number }) => ({
  duration: formatDuration(end_ms - start_ms),
  start_time: isoOf(start_ms),
  end_time: isoOf(end_ms),
});

function dropNulls(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v != null));
}

/** `TraceSummary`. */
export function traceSummary(trace: StoredTrace): Record<string, unknown> {
  return dropNulls({
    trace_id: trace.trace_id,
    name: trace.name,
    status: trace.status,
    ...timesOf(trace),
    total_spans: trace.total_spans,
    error_count: trace.error_count,
    input: trace.input,
    run_id: trace.run_id,
    session_id: trace.session_id,
    user_id: trace.user_id,
    agent_id: trace.agent_id,
    team_id: trace.team_id,
    workflow_id: trace.workflow_id,
    created_at: isoOf(trace.start_ms),
  });
}

/** `TraceNode` of one span; `children` undefined for a lone span. */
export function traceNode(
  span: SpanRecord,
  children?: Record<string, unknown>[],
): Record<string, unknown> {
  return dropNulls({
    id: span.span_id,
    name: span.name,
    type: span.type,
    ...timesOf(span),
    status: span.status,
    input: span.input,
    output: span.output,
    error: span.error,
    spans: children !== undefined && children.length > 0 ? children : null,
    step_type: span.step_type,
    metadata: span.metadata,
  });
}

/** `TraceDetail`: the summary, the root's output and error, and the span tree. */
export function traceDetail(
  trace: StoredTrace,
  spans: readonly SpanRecord[],
): Record<string, unknown> {
  const children = new Map<string | null, SpanRecord[]>();
  for (const span of spans) {
    const siblings = children.get(span.parent_span_id) ?? [];
    siblings.push(span);
    children.set(span.parent_span_id, siblings);
  }
  const nodeOf = (span: SpanRecord): Record<string, unknown> =>
    traceNode(span, (children.get(span.span_id) ?? []).map(nodeOf));
  return {
    ...traceSummary(trace),
    ...dropNulls({ output: trace.output, error: trace.error }),
    tree: (children.get(null) ?? []).map(nodeOf),
  };
}

/** `TraceSessionStats`. */
export function sessionStats(stats: TraceSessionStatsRecord): Record<string, unknown> {
  return dropNulls({
    session_id: stats.session_id,
    user_id: stats.user_id,
    agent_id: stats.agent_id,
    team_id: stats.team_id,
    workflow_id: stats.workflow_id,
    total_traces: stats.total_traces,
    first_trace_at: isoOf(stats.first_trace_ms),
    last_trace_at: isoOf(stats.last_trace_ms),
  });
}
