/**
 * Traces and metrics behind a real gateway (`authorization: true`, `user_isolation: true`): real
 * JWTs, a real SQLite file, real HTTP. A run made through the gateway leaves a trace its owner
 * reads with `traces:read` (and another user cannot); `metrics:read` and `metrics:write` read and
 * refresh the daily aggregates; a token without the route's scope is refused (403).
 */
import t, { type Test } from 'tap';
import { bearer, send, type Answer } from '../fixtures/e2e.js';
import { startRuntimeStack } from '../fixtures/runtime-stack.js';
import { goodToken } from '../fixtures/tokens.js';

const RUNTIME = {
  os_id: 'e2e-traces',
  db: 'runtime.db',
  agents: [{ id: 'a1', name: 'Agent One', tools: ['add'] }],
};

type Json = Record<string, unknown>;

/** A request through the gateway with `token` (JSON body, or a run form). */
function as(url: string, token: string) {
  return (method: string, path: string, body?: unknown, formBody?: string): Promise<Answer> =>
    send(url, {
      method,
      path,
      headers: {
        ...bearer(token),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(formBody === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(formBody === undefined ? {} : { body: formBody }),
    });
}

/** A stack where alice has run a1 once through the gateway; her trace's id. */
async function withRun(t: Test) {
  const { gateway } = await startRuntimeStack(t, RUNTIME, ['user_isolation: true']);
  const runner = as(gateway.url, await goodToken({ sub: 'alice', scopes: ['agents:run'] }));
  const message = '/tool add {"a":2,"b":3}';
  const ran = await runner(
    'POST',
    '/agents/a1/runs',
    undefined,
    new URLSearchParams({ message, stream: 'false' }).toString(),
  );
  t.equal(ran.status, 200, 'the run went through the gateway');
  const reader = as(gateway.url, await goodToken({ sub: 'alice', scopes: ['traces:read'] }));
  const list = await reader('GET', '/traces');
  t.equal(list.status, 200);
  const data = (list.json as { data: Json[] }).data;
  t.equal(data.length, 1);
  t.match(data[0], {
    run_id: (ran.json as Json).run_id,
    user_id: 'alice',
    agent_id: 'a1',
    input: message,
    status: 'OK',
    total_spans: 4,
  });
  return { url: gateway.url, reader, traceId: (data[0] as Json).trace_id as string };
}

t.test(
  'traces:read reads the trace of a run made through the gateway, on every route',
  async (t) => {
    const { url, reader, traceId } = await withRun(t);
    const detail = await reader('GET', `/traces/${traceId}`);
    t.equal(detail.status, 200);
    t.match(detail.json, {
      trace_id: traceId,
      output: 'Tool add returned: 5',
      tree: [
        { type: 'AGENT', spans: [{ type: 'LLM' }, { type: 'TOOL', name: 'add' }, { type: 'LLM' }] },
      ],
    });
    const schema = await reader('GET', '/traces/filter-schema');
    t.equal(schema.status, 200);
    t.match(schema.json, { logical_operators: ['AND', 'OR'], fields: [{ key: 'trace_id' }] });
    const stats = await reader('GET', '/trace_session_stats');
    t.equal(stats.status, 200);
    t.match(stats.json, {
      data: [{ user_id: 'alice', total_traces: 1 }],
      meta: { total_count: 1 },
    });
    const found = await reader('POST', '/traces/search', {
      filter: { op: 'CONTAINS', key: 'name', value: 'agent one' },
    });
    t.equal(found.status, 200);
    t.match(found.json, { data: [{ trace_id: traceId, tree: [{ name: 'Agent One.run' }] }] });

    // Another user with the same scope sees none of it.
    const bob = as(url, await goodToken({ sub: 'bob', scopes: ['traces:read'] }));
    t.match((await bob('GET', '/traces')).json, { data: [], meta: { total_count: 0 } });
    const foreign = await bob('GET', `/traces/${traceId}`);
    t.same([foreign.status, foreign.json], [404, { detail: 'Trace not found' }]);
    t.match((await bob('POST', '/traces/search', {})).json, { data: [] });
    t.match((await bob('GET', '/trace_session_stats')).json, { data: [] });
  },
);

t.test('a token without traces:read is refused on every trace route', async (t) => {
  const { url, traceId } = await withRun(t);
  const other = as(
    url,
    await goodToken({ sub: 'alice', scopes: ['sessions:read', 'metrics:read'] }),
  );
  for (const [method, path] of [
    ['GET', '/traces'],
    ['GET', `/traces/${traceId}`],
    ['GET', '/traces/filter-schema'],
    ['GET', '/trace_session_stats'],
    ['POST', '/traces/search'],
  ] as const) {
    const res = await other(method, path, method === 'POST' ? {} : undefined);
    t.equal(res.status, 403, `${method} ${path}`);
  }
});

t.test('metrics:read reads and metrics:write refreshes the daily metrics', async (t) => {
  const { url } = await withRun(t);
  const reader = as(url, await goodToken({ sub: 'alice', scopes: ['metrics:read'] }));
  const writer = as(url, await goodToken({ sub: 'alice', scopes: ['metrics:write'] }));
  const before = await reader('GET', '/metrics');
  t.same([before.status, before.json], [200, { metrics: [], updated_at: null }]);
  const refreshed = await writer('POST', '/metrics/refresh');
  t.equal(refreshed.status, 200);
  t.match(refreshed.json, [
    {
      date: '2030-01-01',
      agent_runs_count: 1,
      agent_sessions_count: 1,
      users_count: 1,
      model_metrics: [{ model_id: 'offline-echo', count: 1 }],
    },
  ]);
  const after = await reader('GET', '/metrics?starting_date=2030-01-01&ending_date=2030-01-31');
  t.equal(after.status, 200);
  t.match(after.json, {
    metrics: [{ date: '2030-01-01' }],
    updated_at: '2030-01-01T00:00:00.000Z',
  });

  t.equal((await writer('GET', '/metrics')).status, 403, 'metrics:write does not read');
  t.equal((await reader('POST', '/metrics/refresh')).status, 403, 'metrics:read does not refresh');
});
