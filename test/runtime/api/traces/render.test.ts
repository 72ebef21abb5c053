/**
 * Trace body shapes: durations as Agno formats them, and a trace whose spans
 * are missing still has a (empty) tree.
 */
import t from 'tap';
import { formatDuration, traceDetail } from '../../../../src/runtime/api/traces/render.js';

t.test(
  'durations: milliseconds under a second, else seconds with up to two decimals',
  async (t) => {
    for (const [ms, text] of [
      [0, '0ms'],
      [123, '123ms'],
      [999, '999ms'],
      [1000, '1s'],
      [1500, '1.5s'],
      [1234, '1.23s'],
      [61_000, '61s'],
    ] as const) {
      t.equal(formatDuration(ms), text, `${ms}`);
    }
  },
);

t.test('a trace without spans has an empty tree', async (t) => {
  const detail = traceDetail(
    {
      trace_id: 'x',
      name: 'A.run',
      status: 'OK',
      start_ms: 0,
      end_ms: 2500,
      total_spans: 0,
      error_count: 0,
      input: null,
      output: null,
      error: null,
      run_id: 'r',
      session_id: null,
      user_id: null,
      agent_id: null,
      team_id: null,
      workflow_id: null,
    },
    [],
  );
  t.same(detail, {
    trace_id: 'x',
    name: 'A.run',
    status: 'OK',
    duration: '2.5s',
    start_time: '1970-01-01T00:00:00.000Z',
    end_time: '1970-01-01T00:00:02.500Z',
    total_spans: 0,
    error_count: 0,
    run_id: 'r',
    created_at: '1970-01-01T00:00:00.000Z',
    tree: [],
  });
});
