/**
 * The bundled runtime behind a real gateway: real JWTs (RS256), a real SQLite file, real HTTP.
 */
import t, { type Test } from 'tap';
import { startRuntime } from '../../src/runtime/start.js';
import { signIdentityContext } from '../../src/shared/identity-context.js';
import { encodedContext } from '../runtime/fixtures/runtime.js';
import { bearer, readStream, send } from '../fixtures/e2e.js';
import { startRuntimeStack, runtimeIn } from '../fixtures/runtime-stack.js';
import { createTestClock, goodToken } from '../fixtures/tokens.js';

const RUNTIME = {
  os_id: 'e2e',
  db: 'runtime.db',
  agents: [
    {
      id: 'a1',
      name: 'Agent One',
      tools: [
        'add',
        { name: 'pick_color', description: 'Asks the user.', external_execution: true },
      ],
    },
    { id: 'a2', name: 'Agent Two' },
  ],
  teams: [{ id: 't1', name: 'Team', members: ['a1', 'a2'] }],
  workflows: [
    {
      id: 'w1',
      name: 'Flow',
      steps: [
        { name: 'first', agent: 'a1' },
        { name: 'second', agent: 'a2' },
      ],
    },
  ],
};

const stack = (t: Test, authYaml: string[] = []) => startRuntimeStack(t, RUNTIME, authYaml);

/** The runtime's answer to a context whose signature is absent or wrong. */
const BAD = 'Missing or invalid identity signature';

/** SSE frame names in order. */
const eventNames = (body: string): string[] =>
  [...body.matchAll(/^event: (\S+)$/gm)].map((m) => m[1] as string);

const form = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

t.test('streamed agent, team and workflow runs through the gateway', async (t) => {
  const { gateway } = await stack(t);
  const token = await goodToken({ scopes: ['agents:run', 'teams:run', 'workflows:run'] });
  const agent = await send(gateway.url, {
    method: 'POST',
    path: '/agents/a1/runs',
    headers: { ...bearer(token), ...FORM },
    body: form({ message: 'hello there' }),
  });
  t.equal(agent.status, 200);
  t.match(agent.headers['content-type'], /^text\/event-stream/);
  const names = eventNames(agent.body);
  t.equal(names[0], 'RunStarted');
  t.equal(names.at(-1), 'RunCompleted');
  t.ok(names.includes('RunContent'));
  t.match(agent.body, /"content":"Echo: hello there"/);

  const team = await send(gateway.url, {
    method: 'POST',
    path: '/teams/t1/runs',
    headers: { ...bearer(token), ...FORM },
    body: form({ message: 'go' }),
  });
  t.equal(team.status, 200);
  t.equal(eventNames(team.body)[0], 'TeamRunStarted');
  t.equal(eventNames(team.body).at(-1), 'TeamRunCompleted');

  const flow = await send(gateway.url, {
    method: 'POST',
    path: '/workflows/w1/runs',
    headers: { ...bearer(token), ...FORM },
    body: form({ message: 'topic' }),
  });
  t.equal(flow.status, 200);
  const flowNames = eventNames(flow.body);
  t.equal(flowNames[0], 'WorkflowStarted');
  t.equal(flowNames.filter((n) => n === 'StepCompleted').length, 2);
  t.equal(flowNames.at(-1), 'WorkflowCompleted');
});

t.test('a non-streamed run answers the run output; a missing message is 422', async (t) => {
  const { gateway } = await stack(t);
  const token = await goodToken({ scopes: ['agents:a1:run'] });
  const run = await send(gateway.url, {
    method: 'POST',
    path: '/agents/a1/runs',
    headers: { ...bearer(token), ...FORM },
    body: form({ message: '/tool add {"a": 2, "b": 3}', stream: 'false' }),
  });
  t.equal(run.status, 200);
  t.match(run.json, { agent_id: 'a1', status: 'COMPLETED', content: 'Tool add returned: 5' });
  const missing = await send(gateway.url, {
    method: 'POST',
    path: '/agents/a1/runs',
    headers: { ...bearer(token), ...FORM },
    body: form({ stream: 'false' }),
  });
  t.equal(missing.status, 422);
  t.same(missing.json, {
    detail: [{ type: 'missing', loc: ['body', 'message'], msg: 'Field required', input: null }],
  });
  const other = await send(gateway.url, {
    method: 'POST',
    path: '/agents/a2/runs',
    headers: { ...bearer(token), ...FORM },
    body: form({ message: 'x' }),
  });
  t.equal(other.status, 403, 'agents:a1:run does not run a2');
});

t.test('listings are filtered by the per-resource scopes the gateway passes', async (t) => {
  const { gateway } = await stack(t);
  const one = await send(gateway.url, {
    path: '/agents',
    headers: bearer(await goodToken({ scopes: ['agents:a2:read'] })),
  });
  t.same(
    (one.json as { id: string }[]).map((a) => a.id),
    ['a2'],
  );
  const none = await send(gateway.url, {
    path: '/agents',
    headers: bearer(await goodToken({ scopes: [] })),
  });
  t.same(none.json, []);
  const all = await send(gateway.url, {
    path: '/agents',
    headers: bearer(await goodToken({ scopes: ['agents:read'] })),
  });
  t.same(
    (all.json as { id: string }[]).map((a) => a.id),
    ['a1', 'a2'],
  );
  const unknown = await send(gateway.url, {
    path: '/agents/zz',
    headers: bearer(await goodToken({ scopes: ['agents:read'] })),
  });
  t.equal(unknown.status, 404);
  t.same(unknown.json, { detail: 'Agent not found' });
});

t.test(
  'user_isolation: two users never see each other’s sessions; an admin sees both',
  async (t) => {
    const { gateway } = await stack(t, ['user_isolation: true']);
    const scopes = ['agents:run', 'sessions:read'];
    const alice = await goodToken({ sub: 'alice', scopes });
    const bob = await goodToken({ sub: 'bob', scopes });
    const admin = await goodToken({ sub: 'root', scopes: ['agent_os:admin'] });
    const start = async (token: string) =>
      (
        await send(gateway.url, {
          method: 'POST',
          path: '/agents/a1/runs',
          headers: { ...bearer(token), ...FORM },
          body: form({ message: 'mine', stream: 'false' }),
        })
      ).json as { session_id: string };
    const aliceRun = await start(alice);
    const bobRun = await start(bob);
    const list = async (token: string) =>
      (
        (await send(gateway.url, { path: '/sessions', headers: bearer(token) })).json as {
          data: { session_id: string; user_id: string }[];
        }
      ).data;
    t.same(
      (await list(alice)).map((s) => s.user_id),
      ['alice'],
    );
    t.same(
      (await list(bob)).map((s) => s.user_id),
      ['bob'],
    );
    t.same((await list(admin)).map((s) => s.user_id).sort(), ['alice', 'bob']);
    const peek = await send(gateway.url, {
      path: `/sessions/${bobRun.session_id}`,
      headers: bearer(alice),
    });
    t.equal(peek.status, 404);
    t.same(peek.json, { detail: `Session with id '${bobRun.session_id}' not found` });
    const peekRuns = await send(gateway.url, {
      path: `/sessions/${bobRun.session_id}/runs`,
      headers: bearer(alice),
    });
    t.equal(peekRuns.status, 404);
    const own = await send(gateway.url, {
      path: `/sessions/${aliceRun.session_id}/runs`,
      headers: bearer(alice),
    });
    t.same(
      (own.json as { run_input: string }[]).map((r) => r.run_input),
      ['mine'],
    );
    // Writing into another user's session is refused too.
    const hijack = await send(gateway.url, {
      method: 'POST',
      path: '/agents/a1/runs',
      headers: { ...bearer(alice), ...FORM },
      body: form({ message: 'x', session_id: bobRun.session_id, stream: 'false' }),
    });
    t.equal(hijack.status, 404);
  },
);

t.test('restarting the runtime keeps sessions and runs', async (t) => {
  const dir = t.testdir({});
  // Called directly, without a gateway: the development switch (no identity secret).
  const first = await startRuntime({
    settings: RUNTIME,
    dir,
    host: '127.0.0.1',
    port: 0,
    clock: createTestClock(),
    identitySecret: null,
  });
  const run = await send(first.url, {
    method: 'POST',
    path: '/agents/a2/runs',
    headers: FORM,
    body: form({ message: 'remember me', stream: 'false' }),
  });
  const sessionId = (run.json as { session_id: string }).session_id;
  await first.close();
  const second = await runtimeIn(t, RUNTIME, dir, null);
  const session = await send(second.url, { path: `/sessions/${sessionId}` });
  t.equal(session.status, 200);
  t.match(session.json, { session_id: sessionId, agent_id: 'a2', session_name: 'remember me' });
  const runs = await send(second.url, { path: `/sessions/${sessionId}/runs` });
  t.match(runs.json, [
    { run_input: 'remember me', status: 'COMPLETED', content: 'Echo: remember me' },
  ]);
});

t.test(
  'without a gateway or an identity secret the caller is anonymous; a reserved client user id is refused',
  async (t) => {
    const dir = t.testdir({});
    const runtime = await runtimeIn(t, RUNTIME, dir, null);
    const reserved = await send(runtime.url, {
      method: 'POST',
      path: '/agents/a1/runs',
      headers: FORM,
      body: form({ message: 'x', user_id: 'sa:bot' }),
    });
    t.equal(reserved.status, 403);
    t.same(reserved.json, { detail: 'Client-supplied user_id may not claim a reserved principal' });
    const named = await send(runtime.url, {
      method: 'POST',
      path: '/agents/a1/runs',
      headers: FORM,
      body: form({ message: 'x', user_id: 'carol', stream: 'false' }),
    });
    t.match(named.json, { user_id: 'carol' });
    t.same((await send(runtime.url, { path: '/nope' })).json, { detail: 'Not Found' });
    t.match((await send(runtime.url, { path: '/health' })).json, { status: 'ok' });
    t.same((await send(runtime.url, { path: '/' })).json, {
      name: 'AgentOS API',
      id: 'e2e',
      version: '1.0.0',
    });
  },
);

t.test(
  "straight to the runtime's port, a forged, unsigned, badly signed or absent context is 401",
  async (t) => {
    const { gateway, runtime } = await stack(t);
    // Another user's memory, which only an unconfined (admin) caller may list.
    const admin = await goodToken({ sub: 'root', scopes: ['agent_os:admin'] });
    const created = await send(gateway.url, {
      method: 'POST',
      path: '/memories',
      headers: { ...bearer(admin), 'content-type': 'application/json' },
      body: JSON.stringify({ memory: 'bob likes tea', user_id: 'bob' }),
    });
    t.equal(created.status, 200, 'written through the gateway');
    const forged = encodedContext({
      user_id: 'mallory',
      scopes: ['agent_os:admin'],
      is_admin: true,
    });
    const signedElsewhere = signIdentityContext(forged, 'not-the-gateway-secret');
    const rows: { name: string; headers: Record<string, string>; detail: string }[] = [
      {
        name: 'a forged admin context, unsigned',
        headers: { 'x-auth-context': forged },
        detail: BAD,
      },
      {
        name: 'signed with another secret',
        headers: { 'x-auth-context': forged, 'x-auth-signature': signedElsewhere },
        detail: BAD,
      },
      { name: 'no context at all', headers: {}, detail: 'Missing identity context' },
    ];
    for (const row of rows) {
      const read = await send(runtime.url, { path: '/memories', headers: row.headers });
      t.equal(read.status, 401, `${row.name}: read`);
      t.same(read.json, { detail: row.detail }, `${row.name}: read`);
      const write = await send(runtime.url, {
        method: 'POST',
        path: '/memories',
        headers: { ...row.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ memory: `from ${row.name}`, user_id: 'bob' }),
      });
      t.equal(write.status, 401, `${row.name}: write`);
      t.same(write.json, { detail: row.detail }, `${row.name}: write`);
    }
    const viaGateway = await send(gateway.url, { path: '/memories', headers: bearer(admin) });
    t.equal(viaGateway.status, 200, 'the same read through the gateway');
    t.match(viaGateway.json, { data: [{ memory: 'bob likes tea' }] });
    t.equal((viaGateway.json as { data: unknown[] }).data.length, 1, 'no refused write landed');
    t.equal((await send(runtime.url, { path: '/health' })).status, 200, '/health needs none');
  },
);

t.test('pause on a client tool, continue with its result, through the gateway', async (t) => {
  const { gateway } = await stack(t, ['user_isolation: true']);
  const alice = await goodToken({ sub: 'alice', scopes: ['agents:run'] });
  const bob = await goodToken({ sub: 'bob', scopes: ['agents:run'] });
  const started = await send(gateway.url, {
    method: 'POST',
    path: '/agents/a1/runs',
    headers: { ...bearer(alice), ...FORM },
    body: form({ message: '/tool pick_color {}' }),
  });
  t.equal(started.status, 200);
  t.equal(eventNames(started.body).at(-1), 'RunPaused');
  const pausedFrame = started.body.split('\n\n').find((f) => f.startsWith('event: RunPaused'));
  const paused = JSON.parse((pausedFrame as string).split('\ndata: ')[1] as string) as {
    run_id: string;
    session_id: string;
    tools: Record<string, unknown>[];
  };
  const answer = form({
    tools: JSON.stringify(paused.tools.map((tool) => ({ ...tool, result: 'purple' }))),
    session_id: paused.session_id,
  });
  const path = `/agents/a1/runs/${paused.run_id}/continue`;
  const stolen = await send(gateway.url, {
    method: 'POST',
    path,
    headers: { ...bearer(bob), ...FORM },
    body: answer,
  });
  t.equal(stolen.status, 404, "another user's run is not found");
  t.same(stolen.json, { detail: 'Run not found' });
  const continued = await send(gateway.url, {
    method: 'POST',
    path,
    headers: { ...bearer(alice), ...FORM },
    body: answer,
  });
  t.equal(continued.status, 200);
  const names = eventNames(continued.body);
  t.equal(names[0], 'RunContinued');
  t.equal(names.at(-1), 'RunCompleted');
  t.match(continued.body, /"content":"Tool pick_color returned: purple"/);
});

t.test('cancel a streaming run through the gateway', async (t) => {
  const { gateway } = await stack(t);
  const token = await goodToken({ sub: 'alice', scopes: ['agents:run'] });
  const url = new URL('/agents/a2/runs', gateway.url);
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...bearer(token), ...FORM },
    body: form({ message: '/slow 500 20' }),
  });
  t.equal(response.status, 200);
  const stream = await readStream<{ run_id: string; session_id: string }>(response);
  const first = stream.first;
  const cancel = await send(gateway.url, {
    method: 'POST',
    path: `/agents/a2/runs/${first.run_id}/cancel?session_id=${first.session_id}`,
    headers: bearer(token),
  });
  t.equal(cancel.status, 200);
  t.same(cancel.json, {});
  const text = await stream.rest();
  t.same(eventNames(text).slice(-2), ['RunCancelled', 'RunCompleted']);
  const runs = await send(gateway.url, {
    path: `/agents/a2/runs/${first.run_id}?session_id=${first.session_id}`,
    headers: bearer(await goodToken({ sub: 'alice', scopes: ['agents:run', 'agents:read'] })),
  });
  t.equal(runs.status, 200);
  t.match(runs.json, { status: 'CANCELLED' });
});

t.test(
  'a service account is confined to its own sessions and runs with isolation off',
  async (t) => {
    const { gateway } = await stack(t, [
      'user_isolation: false',
      'service_accounts: { enabled: true, store: "sqlite:sa.db" }',
    ]);
    const admin = await goodToken({ sub: 'root', scopes: ['agent_os:admin'] });
    const minted = await send(gateway.url, {
      method: 'POST',
      path: '/service-accounts',
      headers: { ...bearer(admin), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'ci-bot' }),
    });
    t.equal(minted.status, 201);
    const bot = (minted.json as { token: string }).token;
    const alice = await goodToken({ sub: 'alice', scopes: ['agents:run', 'sessions:read'] });
    const run = async (token: string) =>
      (
        await send(gateway.url, {
          method: 'POST',
          path: '/agents/a2/runs',
          headers: { ...bearer(token), ...FORM },
          body: form({ message: 'hello', stream: 'false' }),
        })
      ).json as { session_id: string; run_id: string; user_id: string };
    const aliceRun = await run(alice);
    const botRun = await run(bot);
    t.equal(botRun.user_id, 'sa:ci-bot', 'the run is attributed to the account');
    const list = async (token: string) =>
      (
        (await send(gateway.url, { path: '/sessions', headers: bearer(token) })).json as {
          data: { user_id: string }[];
        }
      ).data.map((s) => s.user_id);
    t.same(await list(bot), ['sa:ci-bot'], 'the account sees only its own sessions');
    t.same(
      (await list(alice)).sort(),
      ['alice', 'sa:ci-bot'],
      'a user without isolation sees every session',
    );
    const peek = await send(gateway.url, {
      path: `/sessions/${aliceRun.session_id}`,
      headers: bearer(bot),
    });
    t.equal(peek.status, 404, "another user's session is not found");
    const cancel = await send(gateway.url, {
      method: 'POST',
      path: `/agents/a2/runs/${aliceRun.run_id}/cancel?session_id=${aliceRun.session_id}`,
      headers: bearer(bot),
    });
    t.equal(cancel.status, 404, "cancelling another user's run is not found");
    t.same(cancel.json, { detail: 'Run not found' });
  },
);
