/**
 * The session write routes behind a real gateway with `user_isolation: true`: real JWTs (RS256),
 * a real SQLite file, real HTTP. `sessions:write` creates, renames and patches, `sessions:delete`
 * deletes, the gateway refuses a token without them (403), and two users never touch each
 * other's sessions.
 */
import t, { type Test } from 'tap';
import { bearer, send, type Answer } from '../fixtures/e2e.js';
import { startRuntimeStack } from '../fixtures/runtime-stack.js';
import { goodToken } from '../fixtures/tokens.js';

const RUNTIME = {
  os_id: 'e2e-sessions',
  db: 'runtime.db',
  agents: [{ id: 'a1', name: 'Agent One' }],
  teams: [{ id: 't1', name: 'Team', members: ['a1'] }],
};

const ALL = ['sessions:read', 'sessions:write', 'sessions:delete'];

/** A runtime on its own SQLite file behind a gateway with user isolation; both close with `t`. */
async function stack(t: Test): Promise<{ url: string }> {
  const { gateway } = await startRuntimeStack(t, RUNTIME, ['user_isolation: true']);
  return { url: gateway.url };
}

/** A JSON request through the gateway with `token`. */
function as(url: string, token: string) {
  return (method: string, path: string, body?: unknown): Promise<Answer> =>
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

t.test('sessions:write creates, renames and patches; sessions:delete deletes', async (t) => {
  const { url } = await stack(t);
  const writer = as(url, await goodToken({ sub: 'alice', scopes: ['sessions:write'] }));
  const reader = as(url, await goodToken({ sub: 'alice', scopes: ['sessions:read'] }));
  const deleter = as(url, await goodToken({ sub: 'alice', scopes: ['sessions:delete'] }));

  const created = await writer('POST', '/sessions', {
    session_id: 'plan',
    agent_id: 'a1',
    session_name: 'Plan',
    user_id: 'mallory',
  });
  t.equal(created.status, 201);
  t.match(created.json, {
    session_id: 'plan',
    agent_session_id: 'plan',
    agent_id: 'a1',
    session_name: 'Plan',
    user_id: 'alice',
    created_at: '2030-01-01T00:00:00Z',
    chat_history: [],
  });
  const team = await writer('POST', '/sessions?type=team', { team_id: 't1' });
  t.equal(team.status, 201);
  t.match(team.json, { session_type: 'team', team_id: 't1', user_id: 'alice' });

  const renamed = await writer('POST', '/sessions/plan/rename', { session_name: 'Trip' });
  t.equal(renamed.status, 200);
  t.match(renamed.json, { session_id: 'plan', session_name: 'Trip' });
  const patched = await writer('PATCH', '/sessions/plan', {
    metadata: { tag: 'x' },
    summary: { summary: 'A trip.', topics: ['travel'] },
  });
  t.equal(patched.status, 200);
  t.match(patched.json, {
    session_name: 'Trip',
    metadata: { tag: 'x' },
    session_summary: { summary: 'A trip.', topics: ['travel'] },
  });
  const read = await reader('GET', '/sessions/plan');
  t.match(read.json, { session_name: 'Trip', session_summary: { summary: 'A trip.' } });

  const one = await deleter('DELETE', '/sessions/plan');
  t.same([one.status, one.body], [204, '']);
  const bulk = await deleter('DELETE', '/sessions', {
    session_ids: [(team.json as { session_id: string }).session_id],
    session_types: ['team'],
  });
  t.equal(bulk.status, 204);
  const left = await reader('GET', '/sessions');
  t.same((left.json as { data: unknown[] }).data, [], 'both are gone');
});

t.test('the gateway refuses writes and deletes without their scopes (403)', async (t) => {
  const { url } = await stack(t);
  const owner = as(url, await goodToken({ sub: 'alice', scopes: ALL }));
  t.equal((await owner('POST', '/sessions', { session_id: 's', agent_id: 'a1' })).status, 201);
  const reader = as(url, await goodToken({ sub: 'alice', scopes: ['sessions:read'] }));
  const writer = as(url, await goodToken({ sub: 'alice', scopes: ['sessions:write'] }));
  const rows: [
    string,
    (m: string, p: string, b?: unknown) => Promise<Answer>,
    string,
    string,
    unknown,
    string,
  ][] = [
    ['create, read only', reader, 'POST', '/sessions', { agent_id: 'a1' }, 'sessions:write'],
    [
      'rename, read only',
      reader,
      'POST',
      '/sessions/s/rename',
      { session_name: 'x' },
      'sessions:write',
    ],
    ['patch, read only', reader, 'PATCH', '/sessions/s', { session_name: 'x' }, 'sessions:write'],
    ['delete, read only', reader, 'DELETE', '/sessions/s', undefined, 'sessions:delete'],
    ['delete, write only', writer, 'DELETE', '/sessions/s', undefined, 'sessions:delete'],
    [
      'bulk delete, write only',
      writer,
      'DELETE',
      '/sessions',
      { session_ids: ['s'], session_types: ['agent'] },
      'sessions:delete',
    ],
  ];
  for (const [name, client, method, path, body, scope] of rows) {
    const res = await client(method, path, body);
    t.equal(res.status, 403, `${name}: 403`);
    t.same(
      res.json,
      { detail: `Insufficient permissions. Required scope(s): ${scope}` },
      `${name}: names ${scope}`,
    );
  }
  t.match((await owner('GET', '/sessions/s')).json, { session_id: 's', session_name: null });
});

t.test('user_isolation: two users never touch each other’s sessions', async (t) => {
  const { url } = await stack(t);
  const alice = as(url, await goodToken({ sub: 'alice', scopes: [...ALL, 'agents:run'] }));
  const bob = as(url, await goodToken({ sub: 'bob', scopes: [...ALL, 'agents:run'] }));
  const admin = as(url, await goodToken({ sub: 'root', scopes: ['agent_os:admin'] }));
  for (const [client, id] of [
    [alice, 'alice-1'],
    [bob, 'bob-1'],
  ] as const) {
    const res = await client('POST', '/sessions', {
      session_id: id,
      agent_id: 'a1',
      session_name: id,
    });
    t.equal(res.status, 201, `${id} created`);
  }
  const run = await send(url, {
    method: 'POST',
    path: '/agents/a1/runs',
    headers: {
      ...bearer(await goodToken({ sub: 'bob', scopes: ['agents:run'] })),
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ message: 'hi', session_id: 'bob-1', stream: 'false' }).toString(),
  });
  t.equal(run.status, 200, 'bob runs in his session');
  const runId = (run.json as { run_id: string }).run_id;

  const notFound = { detail: "Session with id 'bob-1' not found" };
  const tries: [string, Answer, number, unknown][] = [
    ['GET', await alice('GET', '/sessions/bob-1'), 404, notFound],
    [
      'rename',
      await alice('POST', '/sessions/bob-1/rename', { session_name: 'mine' }),
      404,
      notFound,
    ],
    ['patch', await alice('PATCH', '/sessions/bob-1', { session_state: { x: 1 } }), 404, notFound],
    [
      'one of its runs',
      await alice('GET', `/sessions/bob-1/runs/${runId}`),
      404,
      { detail: 'Session with ID bob-1 not found' },
    ],
    [
      'create over it',
      await alice('POST', '/sessions', { session_id: 'bob-1', agent_id: 'a1' }),
      409,
      { detail: "Session with id 'bob-1' already exists" },
    ],
    ['delete it', await alice('DELETE', '/sessions/bob-1'), 204, undefined],
    [
      'bulk delete it with her own',
      await alice('DELETE', '/sessions', {
        session_ids: ['bob-1', 'alice-1'],
        session_types: ['agent', 'agent'],
      }),
      204,
      undefined,
    ],
  ];
  for (const [name, res, status, body] of tries) {
    t.equal(res.status, status, `alice: ${name}: ${status}`);
    t.same(res.json, body, `alice: ${name}: body`);
  }
  const bobs = await bob('GET', '/sessions/bob-1');
  t.equal(bobs.status, 200, 'bob’s session is still there');
  t.match(bobs.json, { session_name: 'bob-1', session_state: {}, user_id: 'bob' });
  const bobRun = await bob('GET', `/sessions/bob-1/runs/${runId}`);
  t.match(bobRun.json, { run_id: runId, run_input: 'hi', user_id: 'bob' });
  t.equal((await alice('GET', '/sessions/alice-1')).status, 404, 'alice deleted her own');

  const listed = await admin('GET', '/sessions');
  t.same(
    (listed.json as { data: { session_id: string }[] }).data.map((s) => s.session_id),
    ['bob-1'],
  );
  const renamed = await admin('POST', '/sessions/bob-1/rename', { session_name: 'by root' });
  t.match(renamed.json, { session_name: 'by root', user_id: 'bob' }, 'an admin acts on any');
  t.equal((await admin('DELETE', '/sessions/bob-1')).status, 204);
  t.equal((await bob('GET', '/sessions/bob-1')).status, 404);
});
