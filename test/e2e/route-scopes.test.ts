/**
 * Issue #7's acceptance for the built-in family routes that the runtime served before it (config,
 * registry, components, agents, teams, workflows, sessions): through a real gateway with RBAC on,
 * a token holding exactly the route's scope gets the runtime's real answer, and a token without
 * it gets 403. The other groups have the same pair of tests in their own e2e files.
 */
import t, { type Test } from 'tap';
import { bearer, send, type Answer } from '../fixtures/e2e.js';
import { startRuntimeStack } from '../fixtures/runtime-stack.js';
import { goodToken } from '../fixtures/tokens.js';

const RUNTIME = {
  os_id: 'e2e-scopes',
  db: 'runtime.db',
  agents: [
    {
      id: 'a1',
      name: 'Agent One',
      tools: [{ name: 'pick_color', description: 'Asks the user.', external_execution: true }],
    },
  ],
  teams: [{ id: 't1', name: 'Team', members: ['a1'] }],
  workflows: [{ id: 'w1', name: 'Flow', steps: [{ name: 'first', agent: 'a1' }] }],
};

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_BODY = { 'content-type': 'application/json' };
const PICK = '/tool pick_color {}';

type Body = { readonly json: unknown } | { readonly form: Record<string, string> };

/** One request as a client sends it. */
interface Call {
  readonly method: string;
  readonly path: string;
  readonly body?: Body;
}

/** Sends `call` through the gateway with `token`. */
function call(url: string, token: string, c: Call): Promise<Answer> {
  const body = c.body;
  return send(url, {
    method: c.method,
    path: c.path,
    headers: {
      ...bearer(token),
      ...(body === undefined ? {} : 'json' in body ? JSON_BODY : FORM),
    },
    ...(body === undefined
      ? {}
      : {
          body:
            'json' in body ? JSON.stringify(body.json) : new URLSearchParams(body.form).toString(),
        }),
  });
}

const parse = (answer: Answer): unknown => (answer.body === '' ? null : JSON.parse(answer.body));

/** The runtime behind the gateway, and a caller holding the admin scope for set-up. */
async function stack(t: Test) {
  const { gateway } = await startRuntimeStack(t, RUNTIME);
  const admin = await goodToken({ sub: 'root', scopes: ['agent_os:admin'] });
  return {
    url: gateway.url,
    admin: (c: Call) => call(gateway.url, admin, c).then(parse),
  };
}

/**
 * A route with its scope: with exactly that scope the runtime answers `status` with a body
 * matching `body`; with no scope the gateway answers 403 naming the scope.
 */
async function checkRoute(
  t: Test,
  url: string,
  scope: string,
  c: Call,
  expected: { readonly status: number; readonly body?: unknown },
): Promise<void> {
  const denied = await call(url, await goodToken({ sub: 'user-9', scopes: [] }), c);
  t.equal(denied.status, 403, `${c.method} ${c.path} without ${scope}: 403`);
  t.match(parse(denied), { detail: new RegExp(scope) }, 'the 403 names the scope');
  const allowed = await call(url, await goodToken({ sub: 'user-9', scopes: [scope] }), c);
  t.equal(
    allowed.status,
    expected.status,
    `${c.method} ${c.path} with exactly ${scope}: ${allowed.body}`,
  );
  if (expected.body !== undefined) t.match(parse(allowed), expected.body, 'the runtime answered');
}

/** Starts a run that pauses on the client tool; its ids and paused output. */
async function pausedRun(
  admin: (c: Call) => Promise<unknown>,
  path: string,
): Promise<{ runId: string; sessionId: string; output: Record<string, unknown> }> {
  const output = (await admin({
    method: 'POST',
    path: `${path}/runs`,
    body: { form: { message: PICK, stream: 'false' } },
  })) as Record<string, unknown>;
  return { runId: output['run_id'] as string, sessionId: output['session_id'] as string, output };
}

t.test('config and registry', async (t) => {
  const { url } = await stack(t);
  await checkRoute(
    t,
    url,
    'config:read',
    { method: 'GET', path: '/config' },
    {
      status: 200,
      body: { os_id: 'e2e-scopes', agents: [{ id: 'a1' }] },
    },
  );
  await checkRoute(
    t,
    url,
    'config:read',
    { method: 'GET', path: '/models' },
    {
      status: 200,
      body: [{ id: 'offline-echo', provider: 'offline' }],
    },
  );
  await checkRoute(
    t,
    url,
    'config:write',
    { method: 'POST', path: '/databases/all/migrate' },
    {
      status: 200,
      body: { message: 'All databases migrated successfully to latest version' },
    },
  );
  await checkRoute(
    t,
    url,
    'config:write',
    { method: 'POST', path: '/databases/runtime-db/migrate' },
    { status: 200, body: { message: 'Database migrated successfully to latest version' } },
  );
  await checkRoute(
    t,
    url,
    'registry:read',
    { method: 'GET', path: '/registry' },
    {
      status: 200,
      body: { data: Array, meta: { page: 1 } },
    },
  );
});

t.test('components', async (t) => {
  const { url, admin } = await stack(t);
  const create = (name: string) =>
    admin({
      method: 'POST',
      path: '/components',
      body: { json: { name, component_type: 'agent', config: { instructions: 'Hi.' } } },
    });
  await create('keep');
  await create('drop');
  await admin({
    method: 'POST',
    path: '/components/drop/configs',
    body: { json: { config: {}, set_current: false } },
  });

  await checkRoute(
    t,
    url,
    'components:write',
    {
      method: 'POST',
      path: '/components',
      body: { json: { name: 'made', component_type: 'agent', config: {} } },
    },
    { status: 201, body: { component_id: 'made', current_version: 1 } },
  );
  await checkRoute(
    t,
    url,
    'components:read',
    { method: 'GET', path: '/components' },
    {
      status: 200,
      body: { data: Array, meta: { total_count: 3 } },
    },
  );
  await checkRoute(
    t,
    url,
    'components:read',
    { method: 'GET', path: '/components/keep' },
    {
      status: 200,
      body: { component_id: 'keep', name: 'keep' },
    },
  );
  await checkRoute(
    t,
    url,
    'components:read',
    { method: 'GET', path: '/components/keep/configs' },
    {
      status: 200,
      body: [{ version: 1 }],
    },
  );
  await checkRoute(
    t,
    url,
    'components:read',
    { method: 'GET', path: '/components/keep/configs/1' },
    { status: 200, body: { version: 1, config: { instructions: 'Hi.' } } },
  );
  await checkRoute(
    t,
    url,
    'components:read',
    { method: 'GET', path: '/components/keep/configs/current' },
    { status: 200, body: { component_id: 'keep', version: 1 } },
  );
  await checkRoute(
    t,
    url,
    'components:write',
    { method: 'POST', path: '/components/keep/configs', body: { json: { config: {} } } },
    { status: 201, body: { version: 2 } },
  );
  await checkRoute(
    t,
    url,
    'components:write',
    {
      method: 'PATCH',
      path: '/components/keep/configs/2',
      body: { json: { stage: 'published', notes: 'ready' } },
    },
    { status: 200, body: { version: 2, stage: 'published', notes: 'ready' } },
  );
  await checkRoute(
    t,
    url,
    'components:write',
    { method: 'POST', path: '/components/keep/configs/2/set-current' },
    { status: 200, body: { component_id: 'keep', current_version: 2 } },
  );
  await checkRoute(
    t,
    url,
    'components:write',
    { method: 'PATCH', path: '/components/keep', body: { json: { description: 'kept' } } },
    { status: 200, body: { component_id: 'keep', description: 'kept' } },
  );
  await checkRoute(
    t,
    url,
    'components:delete',
    { method: 'DELETE', path: '/components/drop/configs/2' },
    { status: 204 },
  );
  await checkRoute(
    t,
    url,
    'components:delete',
    { method: 'DELETE', path: '/components/drop' },
    {
      status: 204,
    },
  );
  t.match(await admin({ method: 'GET', path: '/components/drop' }), {
    detail: 'Component drop not found',
  });
});

for (const family of [
  { path: 'agents', kind: 'agent', id: 'a1', idField: 'id' },
  { path: 'teams', kind: 'team', id: 't1', idField: 'id' },
  { path: 'workflows', kind: 'workflow', id: 'w1', idField: 'id' },
] as const) {
  t.test(`${family.path}: read, write, delete`, async (t) => {
    const { url } = await stack(t);
    // A listing is filtered, not refused: no scope lists nothing.
    const empty = await call(url, await goodToken({ scopes: [] }), {
      method: 'GET',
      path: `/${family.path}`,
    });
    t.equal(empty.status, 200);
    t.same(parse(empty), [], 'no scope: an empty listing');
    const listed = await call(url, await goodToken({ scopes: [`${family.path}:read`] }), {
      method: 'GET',
      path: `/${family.path}`,
    });
    t.equal(listed.status, 200);
    t.match(parse(listed), [{ id: family.id }], `${family.path}:read lists them`);

    await checkRoute(
      t,
      url,
      `${family.path}:read`,
      { method: 'GET', path: `/${family.path}/${family.id}` },
      { status: 200, body: { id: family.id } },
    );
    const config =
      family.kind === 'agent'
        ? {}
        : family.kind === 'team'
          ? { members: ['a1'] }
          : {
              steps: [{ name: 'only', agent: 'a1' }],
            };
    await checkRoute(
      t,
      url,
      `${family.path}:write`,
      { method: 'POST', path: `/${family.path}`, body: { json: { name: 'fresh', config } } },
      { status: 201, body: { component_id: 'fresh', component_type: family.kind } },
    );
    await checkRoute(
      t,
      url,
      `${family.path}:write`,
      { method: 'PATCH', path: `/${family.path}/fresh`, body: { json: { description: 'new' } } },
      { status: 200, body: { component_id: 'fresh', description: 'new' } },
    );
    await checkRoute(
      t,
      url,
      `${family.path}:delete`,
      { method: 'DELETE', path: `/${family.path}/fresh` },
      { status: 204 },
    );
  });
}

t.test('agents, teams and workflows: run, continue, cancel', async (t) => {
  const { url, admin } = await stack(t);
  for (const family of ['agents', 'teams', 'workflows'] as const) {
    const id = { agents: 'a1', teams: 't1', workflows: 'w1' }[family];
    const scope = `${family}:run`;
    await checkRoute(
      t,
      url,
      scope,
      {
        method: 'POST',
        path: `/${family}/${id}/runs`,
        body: { form: { message: 'hello', stream: 'false' } },
      },
      { status: 200, body: { status: 'COMPLETED', content: /hello/ } },
    );

    const paused = await pausedRun(admin, `/${family}/${id}`);
    t.equal(paused.output['status'], 'PAUSED', `${family} paused`);
    const answers: Record<string, string> =
      family === 'agents'
        ? {
            tools: JSON.stringify(
              (paused.output['tools'] as object[]).map((tool) => ({ ...tool, result: 'teal' })),
            ),
          }
        : family === 'teams'
          ? {
              requirements: JSON.stringify(
                (paused.output['requirements'] as object[]).map((r) => ({
                  ...r,
                  external_execution_result: 'teal',
                })),
              ),
            }
          : {
              step_requirements: JSON.stringify(
                (paused.output['step_executor_runs'] as { tools: object[] }[])[0]?.tools.map(
                  (tool) => ({ tool_execution: tool, external_execution_result: 'teal' }),
                ),
              ),
            };
    await checkRoute(
      t,
      url,
      scope,
      {
        method: 'POST',
        path: `/${family}/${id}/runs/${paused.runId}/continue`,
        body: { form: { ...answers, session_id: paused.sessionId, stream: 'false' } },
      },
      { status: 200, body: { run_id: paused.runId, status: 'COMPLETED' } },
    );

    const again = await pausedRun(admin, `/${family}/${id}`);
    await checkRoute(
      t,
      url,
      scope,
      {
        method: 'POST',
        path: `/${family}/${id}/runs/${again.runId}/cancel?session_id=${again.sessionId}`,
      },
      { status: 200 },
    );
    t.match(
      await admin({
        method: 'GET',
        path: `/${family}/${id}/runs/${again.runId}?session_id=${again.sessionId}`,
      }),
      { status: 'CANCELLED' },
      `the ${family} run was cancelled`,
    );
  }
});

t.test('sessions', async (t) => {
  const { url, admin } = await stack(t);
  for (const id of ['s1', 's2', 's3']) {
    await admin({
      method: 'POST',
      path: '/sessions',
      body: { json: { session_id: id, agent_id: 'a1' } },
    });
  }
  await checkRoute(
    t,
    url,
    'sessions:write',
    {
      method: 'POST',
      path: '/sessions',
      body: { json: { session_id: 's4', session_name: 'n', agent_id: 'a1' } },
    },
    { status: 201, body: { session_id: 's4', session_name: 'n' } },
  );
  await checkRoute(
    t,
    url,
    'sessions:read',
    { method: 'GET', path: '/sessions' },
    {
      status: 200,
      body: { data: Array, meta: { total_count: 4 } },
    },
  );
  await checkRoute(
    t,
    url,
    'sessions:read',
    { method: 'GET', path: '/sessions/s1' },
    {
      status: 200,
      body: { session_id: 's1' },
    },
  );
  await checkRoute(
    t,
    url,
    'sessions:write',
    { method: 'POST', path: '/sessions/s1/rename', body: { json: { session_name: 'renamed' } } },
    { status: 200, body: { session_id: 's1', session_name: 'renamed' } },
  );
  await checkRoute(
    t,
    url,
    'sessions:write',
    { method: 'PATCH', path: '/sessions/s1', body: { json: { metadata: { k: 'v' } } } },
    { status: 200, body: { session_id: 's1', metadata: { k: 'v' } } },
  );
  await checkRoute(
    t,
    url,
    'sessions:delete',
    { method: 'DELETE', path: '/sessions/s2' },
    {
      status: 204,
    },
  );
  await checkRoute(
    t,
    url,
    'sessions:delete',
    {
      method: 'DELETE',
      path: '/sessions',
      body: { json: { session_ids: ['s3'], session_types: ['agent'] } },
    },
    { status: 204 },
  );
  t.match(await admin({ method: 'GET', path: '/sessions' }), { meta: { total_count: 2 } });
});
