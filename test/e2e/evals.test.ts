/**
 * The eval-run routes behind a real gateway: real RS256 JWTs, a real SQLite file,
 * real HTTP. Each route answers a token holding exactly its scope with its real body, and the
 * gateway refuses a token without that scope (403) before the runtime sees the request.
 */
import t, { type Test } from 'tap';
import { bearer, send, type Answer } from '../fixtures/e2e.js';
import { startRuntimeStack } from '../fixtures/runtime-stack.js';
import { goodToken } from '../fixtures/tokens.js';

const RUNTIME = {
  os_id: 'e2e-evals',
  db: 'runtime.db',
  agents: [{ id: 'a1', name: 'Agent One', tools: ['add'] }],
  teams: [{ id: 't1', name: 'Team', members: ['a1'] }],
};

type Client = (method: string, path: string, body?: unknown) => Promise<Answer>;

/** A JSON request through the gateway with `token`. */
function as(url: string, token: string): Client {
  return (method, path, body) =>
    send(url, {
      method,
      path,
      headers: {
        ...bearer(token),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
}

/** The runtime behind a gateway; a client per scope (exactly that one) and one with none. */
async function stack(t: Test) {
  const { gateway } = await startRuntimeStack(t, RUNTIME);
  const client = async (scopes: string[]) =>
    as(gateway.url, await goodToken({ sub: 'alice', scopes }));
  return {
    reader: await client(['evals:read']),
    writer: await client(['evals:write']),
    deleter: await client(['evals:delete']),
    nobody: await client([]),
    other: await client(['traces:read', 'sessions:write', 'agents:run']),
  };
}

const ACCURACY = {
  agent_id: 'a1',
  eval_type: 'accuracy',
  input: 'The answer is 4',
  expected_output: 'answer is 4',
  name: 'Sum',
};

t.test('each eval route answers exactly its scope with the real body', async (t) => {
  const { reader, writer, deleter } = await stack(t);

  const created = await writer('POST', '/eval-runs', ACCURACY);
  t.equal(created.status, 200, 'POST /eval-runs with evals:write');
  const run = created.json as { id: string };
  t.match(run, {
    agent_id: 'a1',
    team_id: null,
    name: 'Sum',
    eval_type: 'accuracy',
    model_id: 'offline-echo',
    model_provider: 'offline',
    evaluated_component_name: 'Agent One',
    eval_data: {
      results: [{ output: 'Echo: The answer is 4', score: 10 }],
      avg_score: 10,
    },
    created_at: '2030-01-01T00:00:00Z',
  });
  const reliability = await writer('POST', '/eval-runs', {
    team_id: 't1',
    eval_type: 'reliability',
    input: '/tool add {"a":1,"b":2}',
    expected_tool_calls: ['add'],
    allow_additional_tool_calls: true,
  });
  t.equal(reliability.status, 200);
  t.match(reliability.json, {
    team_id: 't1',
    eval_data: {
      eval_status: 'PASSED',
      passed_tool_calls: ['add'],
      additional_tool_calls: ['delegate_task_to_member'],
    },
  });

  const list = await reader('GET', '/eval-runs?eval_types=accuracy');
  t.equal(list.status, 200, 'GET /eval-runs with evals:read');
  t.same(list.json, {
    data: [created.json],
    meta: { page: 1, limit: 20, total_pages: 1, total_count: 1, search_time_ms: 0 },
  });
  const one = await reader('GET', `/eval-runs/${run.id}`);
  t.equal(one.status, 200, 'GET /eval-runs/{id} with evals:read');
  t.same(one.json, created.json);

  const renamed = await writer('PATCH', `/eval-runs/${run.id}`, { name: 'Renamed' });
  t.equal(renamed.status, 200, 'PATCH /eval-runs/{id} with evals:write');
  t.match(renamed.json, { id: run.id, name: 'Renamed' });

  const deleted = await deleter('DELETE', '/eval-runs', { eval_run_ids: [run.id] });
  t.equal(deleted.status, 204, 'DELETE /eval-runs with evals:delete');
  const gone = await reader('GET', `/eval-runs/${run.id}`);
  t.same([gone.status, gone.json], [404, { detail: `Eval run with id '${run.id}' not found` }]);
});

t.test('the gateway refuses each eval route without its scope (403)', async (t) => {
  const { reader, writer, deleter, nobody, other } = await stack(t);
  const created = await writer('POST', '/eval-runs', ACCURACY);
  const id = (created.json as { id: string }).id;
  const rows: [
    name: string,
    client: Client,
    method: string,
    path: string,
    body: unknown,
    scope: string,
  ][] = [
    ['list, no scopes', nobody, 'GET', '/eval-runs', undefined, 'evals:read'],
    ['list, write only', writer, 'GET', '/eval-runs', undefined, 'evals:read'],
    ['read one, other scopes', other, 'GET', `/eval-runs/${id}`, undefined, 'evals:read'],
    ['run, read only', reader, 'POST', '/eval-runs', ACCURACY, 'evals:write'],
    ['run, no scopes', nobody, 'POST', '/eval-runs', ACCURACY, 'evals:write'],
    ['rename, delete only', deleter, 'PATCH', `/eval-runs/${id}`, { name: 'x' }, 'evals:write'],
    [
      'bulk delete, write only',
      writer,
      'DELETE',
      '/eval-runs',
      { eval_run_ids: [id] },
      'evals:delete',
    ],
    [
      'bulk delete, read only',
      reader,
      'DELETE',
      '/eval-runs',
      { eval_run_ids: [id] },
      'evals:delete',
    ],
  ];
  for (const [name, client, method, path, body, scope] of rows) {
    const res = await client(method, path, body);
    t.equal(res.status, 403, `${name}: 403`);
    t.same(res.json, { detail: `Insufficient permissions. Required scope(s): ${scope}` }, name);
  }
  const still = await reader('GET', '/eval-runs');
  t.same(
    (still.json as { data: { id: string; name: string }[] }).data.map((d) => [d.id, d.name]),
    [[id, 'Sum']],
    'nothing was run, renamed or deleted',
  );
});
