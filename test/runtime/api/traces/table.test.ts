/**
 * The trace store on the query layer, on a real SQLite file and on PostgreSQL: a trace and its
 * spans are written in one transaction (a failing span leaves no trace), thousands of spans in bulk
 * keep their order, the compiled filter's terms (NULL as a value, folded search, prefixes, NOT),
 * and a closed store answers the trace routes with a 500, never a 200 with nothing.
 */
import t from 'tap';
import { compileFilter } from '../../../../src/runtime/api/traces/filter.js';
import type { SpanRecord, TraceRecord } from '../../../../src/runtime/api/traces/records.js';
import { call, runtimeApp } from '../../fixtures/runtime.js';
import { eachStore } from '../../fixtures/stores.js';

const span = (span_id: string, fields: Partial<SpanRecord> = {}): SpanRecord => ({
  span_id,
  trace_id: 't-1',
  parent_span_id: null,
  name: span_id,
  type: 'AGENT',
  status: 'OK',
  start_ms: 1000,
  end_ms: 1500,
  input: null,
  output: null,
  error: null,
  step_type: null,
  metadata: null,
  ...fields,
});

const trace = (fields: Partial<TraceRecord> = {}): TraceRecord => ({
  trace_id: 't-1',
  name: 'Agent One',
  status: 'OK',
  start_ms: 1000,
  end_ms: 1500,
  error_count: 0,
  input: 'hello',
  output: 'Echo: hello',
  error: null,
  run_id: 'r-1',
  session_id: 's-1',
  user_id: null,
  agent_id: 'a1',
  team_id: null,
  workflow_id: null,
  spans: [span('root', { metadata: { model: 'm' } }), span('child', { parent_span_id: 'root' })],
  ...fields,
});

eachStore(
  t,
  'a trace and its spans round-trip; a failing span stores nothing',
  async (t, stores, kind) => {
    const store = await stores.open();
    const { spans, ...stored } = trace();
    await store.traces.put(trace());
    t.same(await store.traces.get('t-1'), { ...stored, total_spans: 2 }, 'the trace');
    t.same(await store.traces.spans('t-1'), spans, 'its spans, root first, JSON null kept');
    t.same(await store.traces.span('child'), spans[1]);
    t.equal(await store.traces.span('nope'), null);
    t.equal(await store.traces.get('nope'), null);
    t.equal(await store.traces.countForRun('r-1'), 1);

    const clash = trace({
      trace_id: 't-2',
      spans: [span('new', { trace_id: 't-2' }), span('root')],
    });
    await t.rejects(store.traces.put(clash), {
      code: kind === 'sqlite' ? /^SQLITE_CONSTRAINT/ : '23505',
    });
    t.equal(await store.traces.get('t-2'), null, 'the trace rolled back with its spans');
    t.equal(await store.traces.span('new'), null);
    t.equal(await store.traces.countForRun('r-1'), 1);
  },
);

eachStore(t, '3,000 spans go in bulk and come back in their order', async (t, stores) => {
  const store = await stores.open();
  const spans = Array.from({ length: 3000 }, (_, i) =>
    span(`s${String(2999 - i).padStart(4, '0')}`, { start_ms: 1000 + i }),
  );
  await store.traces.put(trace({ spans }));
  t.same(
    (await store.traces.spans('t-1')).map((s) => s.span_id),
    spans.map((s) => s.span_id),
  );
  t.equal((await store.traces.get('t-1'))?.total_spans, 3000);
});

eachStore(
  t,
  'filter terms: NULL as a value, NOT, folded search, prefixes, ranges',
  async (t, stores) => {
    const store = await stores.open();
    await store.traces.put(
      trace({ trace_id: 'a', name: 'ÉCOLE run', user_id: 'alice', spans: [] }),
    );
    await store.traces.put(trace({ trace_id: 'b', name: 'école', start_ms: 2000, spans: [] }));
    await store.traces.put(trace({ trace_id: 'c', name: 'Other', start_ms: 3000, spans: [] }));
    const ids = async (filter: unknown) =>
      (await store.traces.list(compileFilter(filter), 1, 10)).rows.map((row) => row.trace_id);
    const rows: [name: string, filter: unknown, expected: string[]][] = [
      ['no filter: newest first', null, ['c', 'b', 'a']],
      ['EQ null: the ownerless', { op: 'EQ', key: 'user_id', value: null }, ['c', 'b']],
      ['NEQ a value keeps NULLs', { op: 'NEQ', key: 'user_id', value: 'alice' }, ['c', 'b']],
      [
        'NOT of EQ keeps NULLs',
        { op: 'NOT', condition: { op: 'EQ', key: 'user_id', value: 'alice' } },
        ['c', 'b'],
      ],
      ['CONTAINS folds beyond ASCII', { op: 'CONTAINS', key: 'name', value: 'éCo' }, ['b', 'a']],
      ['STARTSWITH is case-sensitive', { op: 'STARTSWITH', key: 'name', value: 'É' }, ['a']],
      [
        'OR of a range',
        {
          op: 'OR',
          conditions: [
            { op: 'GT', key: 'start_time', value: '1970-01-01T00:00:02Z' },
            { op: 'LTE', key: 'start_time', value: '1970-01-01T00:00:01Z' },
          ],
        },
        ['c', 'a'],
      ],
      ['IN', { op: 'IN', key: 'trace_id', value: ['a', 'c', 'x'] }, ['c', 'a']],
    ];
    for (const [name, filter, expected] of rows) t.same(await ids(filter), expected, name);
  },
);

eachStore(t, 'a closed store: the trace routes answer 500, never a 200', async (t, stores) => {
  const rt = runtimeApp(t, { store: await stores.open() });
  await rt.store.close();
  const rows: [name: string, method: 'GET' | 'POST', url: string][] = [
    ['GET /traces', 'GET', '/traces'],
    ['GET /traces/{id}', 'GET', '/traces/t-1'],
    ['GET /trace_session_stats', 'GET', '/trace_session_stats'],
    ['POST /traces/search', 'POST', '/traces/search'],
    ['POST /traces/search by session', 'POST', '/traces/search'],
  ];
  for (const [name, method, url] of rows) {
    const json = name.endsWith('by session') ? { group_by: 'session' } : undefined;
    t.same(
      await call(rt, method, url, json === undefined ? {} : { json }),
      { status: 500, body: { detail: 'Internal runtime error' } },
      name,
    );
  }
});
