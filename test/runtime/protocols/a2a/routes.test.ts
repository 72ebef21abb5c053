/**
 * The A2A routes: agent cards under the configured prefix, tasks:get and
 * tasks:cancel (a live run cancelled mid-stream), their HTTP+JSON forms, user isolation, and the
 * deprecated dynamic dispatch.
 */
import t from 'tap';
import type { RunRecord } from '../../../../src/runtime/store/records.js';
import { postJson, restMessage, rpcMessage, rpcResults } from '../../fixtures/a2a.js';
import {
  contextHeader,
  deferred,
  runRecord,
  runtimeApp,
  sessionRecord,
  SETTINGS,
  type TestRuntime,
} from '../../fixtures/runtime.js';

/** tasks:get / tasks:cancel bodies. */
const taskBody = (params: Record<string, unknown>, id: string | number = 'q-1') => ({
  jsonrpc: '2.0',
  id,
  method: 'tasks/get',
  params,
});

/** Sends a message and returns the task's id and contextId. */
async function sent(
  rt: TestRuntime,
  path: string,
  headers: Record<string, string> = {},
  message: Record<string, unknown> = {},
): Promise<{ id: string; contextId: string }> {
  const res = await postJson(
    rt,
    `${path}/v1/message:send`,
    rpcMessage('hello', { message }),
    headers,
  );
  if (res.statusCode !== 200) throw new Error(`send: ${res.statusCode} ${res.body}`);
  return (res.json() as { result: { id: string; contextId: string } }).result;
}

t.test('agent cards of each kind, on the public origin and the prefix', async (t) => {
  const rt = runtimeApp(t);
  const rows = [
    { path: '/a2a/agents/a1', name: 'Agent One', streaming: true },
    { path: '/a2a/teams/t1', name: 'Team One', streaming: true },
    { path: '/a2a/workflows/w1', name: 'Flow One', streaming: false },
  ];
  for (const row of rows) {
    for (const card of ['.well-known/agent-card.json', 'v1/card']) {
      const res = await rt.app.inject({
        url: `${row.path}/${card}`,
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'gw.example:8443' },
      });
      t.equal(res.statusCode, 200, `${row.path}/${card}`);
      t.match(res.json(), {
        name: row.name,
        url: `https://gw.example:8443${row.path}/v1`,
        preferredTransport: 'JSONRPC',
        protocolVersion: '0.3.0',
        supportedInterfaces: [
          {
            url: `https://gw.example:8443${row.path}/v1`,
            protocolBinding: 'JSONRPC',
            protocolVersion: '1.0',
          },
        ],
        additionalInterfaces: [
          { transport: 'JSONRPC', url: `https://gw.example:8443${row.path}/v1` },
          { transport: 'HTTP+JSON', url: `https://gw.example:8443${row.path}` },
        ],
        capabilities: { streaming: row.streaming },
      });
    }
  }
  const direct = await rt.app.inject({ url: '/a2a/agents/a2/.well-known/agent-card.json' });
  t.equal(
    (direct.json() as { url: string }).url,
    'http://localhost:80/a2a/agents/a2/v1',
    'without the gateway: the Host header',
  );
  for (const [path, detail] of [
    ['/a2a/agents/zz/.well-known/agent-card.json', 'Agent not found'],
    ['/a2a/teams/a1/.well-known/agent-card.json', 'Team not found'],
    ['/a2a/workflows/a1/v1/card', 'Workflow not found'],
  ] as const) {
    const res = await rt.app.inject({ url: path });
    t.equal(res.statusCode, 404, path);
    t.same(res.json(), { detail });
  }
});

t.test('a2a_prefix moves every A2A route', async (t) => {
  const rt = runtimeApp(t, { settings: { ...SETTINGS, a2a_prefix: '/api/a2a' } });
  const card = await rt.app.inject({ url: '/api/a2a/agents/a1/.well-known/agent-card.json' });
  t.equal((card.json() as { url: string }).url, 'http://localhost:80/api/a2a/agents/a1/v1');
  const send = await postJson(rt, '/api/a2a/agents/a1/v1/message:send', rpcMessage('x'));
  t.equal(send.statusCode, 200);
  const dispatch = await postJson(
    rt,
    '/api/a2a/message/send',
    rpcMessage('x', { message: { agentId: 'a1' } }),
  );
  t.equal(dispatch.statusCode, 200);
  const old = await rt.app.inject({ url: '/a2a/agents/a1/.well-known/agent-card.json' });
  t.equal(old.statusCode, 404, 'nothing under the default prefix');
  t.same(old.json(), { detail: 'Not Found' });
});

t.test('tasks:get answers the task of a run, as sent', async (t) => {
  const rt = runtimeApp(t);
  for (const path of ['/a2a/agents/a1', '/a2a/teams/t2']) {
    const task = await sent(rt, path);
    const res = await postJson(
      rt,
      `${path}/v1/tasks:get`,
      taskBody({ id: task.id, contextId: task.contextId }, 9),
    );
    t.equal(res.statusCode, 200, path);
    const messageId = (res.json() as { result: { history: { messageId: string }[] } }).result
      .history[0]?.messageId;
    t.same(res.json(), {
      id: 9,
      jsonrpc: '2.0',
      result: {
        kind: 'task',
        id: task.id,
        contextId: task.contextId,
        status: { state: 'completed' },
        history: [
          {
            kind: 'message',
            messageId,
            role: 'agent',
            parts: [{ kind: 'text', text: 'Echo: hello' }],
            contextId: task.contextId,
            taskId: task.id,
          },
        ],
      },
    });
  }
  await rt.store.putSession(sessionRecord({ session_id: 's-1', component_id: 'a1' }));
  const states = ['PENDING', 'RUNNING', 'PAUSED', 'ERROR', 'CANCELLED'] as const;
  const expected = ['submitted', 'working', 'input-required', 'failed', 'canceled'];
  for (const [i, status] of states.entries()) {
    await rt.store.putRun(runRecord({ run_id: `r-${status}`, status }));
    const res = await postJson(
      rt,
      '/a2a/agents/a1/v1/tasks:get',
      taskBody({ id: `r-${status}`, contextId: 's-1' }),
    );
    t.match(res.json(), { result: { status: { state: expected[i] } } }, status);
  }
});

t.test('tasks:get refusals', async (t) => {
  const rt = runtimeApp(t);
  const task = await sent(rt, '/a2a/agents/a1');
  const rows = [
    {
      path: '/a2a/agents/a1',
      body: taskBody({ contextId: task.contextId }),
      status: 400,
      detail: 'Task ID (params.id) is required',
    },
    {
      path: '/a2a/agents/a1',
      body: taskBody({ id: task.id }),
      status: 400,
      detail: 'contextId is required to poll a task',
    },
    {
      path: '/a2a/agents/a1',
      body: taskBody({ id: 'nope', contextId: task.contextId }),
      status: 404,
      detail: 'Task not found',
    },
    {
      path: '/a2a/agents/a1',
      body: taskBody({ id: task.id, contextId: 'other' }),
      status: 404,
      detail: 'Run not found',
    },
    {
      path: '/a2a/agents/a2',
      body: taskBody({ id: task.id, contextId: task.contextId }),
      status: 404,
      detail: 'Run not found',
    },
    {
      path: '/a2a/teams/t1',
      body: taskBody({ id: task.id, contextId: task.contextId }),
      status: 404,
      detail: 'Run not found',
    },
    {
      path: '/a2a/agents/zz',
      body: taskBody({ id: task.id, contextId: task.contextId }),
      status: 404,
      detail: 'Agent not found',
    },
    {
      path: '/a2a/agents/a1',
      body: 'x',
      status: 400,
      detail: 'Invalid A2A request: the body is not JSON',
    },
    {
      path: '/a2a/agents/a1',
      body: [],
      status: 400,
      detail: 'Invalid A2A request: the body must be a JSON object',
    },
  ];
  for (const row of rows) {
    const res = await postJson(rt, `${row.path}/v1/tasks:get`, row.body);
    t.equal(res.statusCode, row.status, row.detail);
    t.same(res.json(), { detail: row.detail });
  }
});

t.test('workflows have no tasks routes', async (t) => {
  const rt = runtimeApp(t);
  for (const path of ['v1/tasks:get', 'v1/tasks:cancel', 'v1/tasks/x:cancel']) {
    const res = await postJson(
      rt,
      `/a2a/workflows/w1/${path}`,
      taskBody({ id: 'x', contextId: 'y' }),
    );
    t.equal(res.statusCode, 404, path);
    t.same(res.json(), { detail: 'Not Found' });
  }
  const get = await rt.app.inject({ url: '/a2a/workflows/w1/v1/tasks/x' });
  t.equal(get.statusCode, 404);
});

t.test('tasks:cancel stops a live run; its stream ends canceled', async (t) => {
  const sleeping = deferred();
  const wake = deferred();
  let calls = 0;
  const rt = runtimeApp(t, {
    // The first wait between deltas holds the run live until the cancel is in.
    sleep: async () => {
      if (++calls > 1) return;
      sleeping.resolve();
      await wake.promise;
    },
  });
  const streaming = postJson(
    rt,
    '/a2a/agents/a2/v1/message:stream',
    rpcMessage('/slow 50 10', { message: { contextId: 'ctx-live' } }),
  );
  await sleeping.promise;
  const [live] = (await rt.store.listRuns('ctx-live')) as [RunRecord];
  t.equal(live.status, 'RUNNING');
  const cancel = await postJson(
    rt,
    '/a2a/agents/a2/v1/tasks:cancel',
    taskBody({ id: live.run_id, contextId: 'ctx-live' }, 4),
  );
  t.equal(cancel.statusCode, 200);
  t.same(cancel.json(), {
    id: 4,
    jsonrpc: '2.0',
    result: { kind: 'task', id: live.run_id, contextId: 'ctx-live', status: { state: 'canceled' } },
  });
  wake.resolve();
  const results = rpcResults((await streaming).body);
  const reason = `Run ${live.run_id} was cancelled`;
  t.match(results.slice(-2), [
    {
      kind: 'status-update',
      status: { state: 'canceled' },
      final: true,
      metadata: { agno_event_type: 'run_cancelled', reason },
    },
    {
      kind: 'task',
      id: live.run_id,
      status: { state: 'canceled' },
      history: [
        {
          parts: [
            { kind: 'text', text: '1' },
            { kind: 'text', text: `Run was cancelled: ${reason}` },
          ],
          metadata: { agno_event_type: 'run_cancelled' },
        },
      ],
    },
  ]);
  t.same(
    results.filter((item) => item.kind === 'message').length,
    1,
    'one delta before the cancel',
  );
  const polled = await postJson(
    rt,
    '/a2a/agents/a2/v1/tasks:get',
    taskBody({ id: live.run_id, contextId: 'ctx-live' }),
  );
  t.match(polled.json(), { result: { status: { state: 'canceled' } } });
  t.match(await rt.store.getRun(live.run_id), { status: 'CANCELLED' });
});

t.test('tasks:cancel: always canceled once past validation', async (t) => {
  const rt = runtimeApp(t);
  const task = await sent(rt, '/a2a/teams/t2');
  const done = await postJson(rt, '/a2a/teams/t2/v1/tasks:cancel', taskBody({ id: task.id }));
  t.same(
    done.json(),
    {
      id: 'q-1',
      jsonrpc: '2.0',
      result: {
        kind: 'task',
        id: task.id,
        contextId: task.contextId,
        status: { state: 'canceled' },
      },
    },
    'a finished run: its session named from the store',
  );
  t.match(
    await rt.store.getRun(task.id),
    { status: 'COMPLETED' },
    'a finished run stays as it was',
  );
  const unknown = await postJson(rt, '/a2a/agents/a1/v1/tasks:cancel', taskBody({ id: 'later' }));
  t.same(
    unknown.json(),
    {
      id: 'q-1',
      jsonrpc: '2.0',
      result: { kind: 'task', id: 'later', contextId: null, status: { state: 'canceled' } },
    },
    'an unknown run: the intent is recorded',
  );
  const refusals = [
    { body: taskBody({}), detail: 'Task ID (params.id) is required', status: 400 },
    { body: taskBody({ id: task.id, contextId: 'other' }), detail: 'Run not found', status: 404 },
  ];
  for (const row of refusals) {
    const res = await postJson(rt, '/a2a/teams/t2/v1/tasks:cancel', row.body);
    t.equal(res.statusCode, row.status);
    t.same(res.json(), { detail: row.detail });
  }
});

t.test('user isolation: a confined caller sees and cancels only its own tasks', async (t) => {
  const rt = runtimeApp(t);
  const alice = contextHeader({ user_id: 'alice', scoped_user_id: 'alice' });
  const bob = contextHeader({ user_id: 'bob', scoped_user_id: 'bob' });
  const task = await sent(rt, '/a2a/agents/a1', alice);
  t.equal((await rt.store.getRun(task.id))?.user_id, 'alice');
  const get = (headers: Record<string, string>) =>
    postJson(
      rt,
      '/a2a/agents/a1/v1/tasks:get',
      taskBody({ id: task.id, contextId: task.contextId }),
      headers,
    );
  t.equal((await get(alice)).statusCode, 200, 'the owner');
  const peek = await get(bob);
  t.equal(peek.statusCode, 404);
  t.same(peek.json(), { detail: 'Run not found' });
  const restPeek = await rt.app.inject({ url: `/a2a/agents/a1/v1/tasks/${task.id}`, headers: bob });
  t.equal(restPeek.statusCode, 404);
  t.same(restPeek.json(), { detail: 'Run not found' });

  const cancel = (headers: Record<string, string>, params: Record<string, unknown>) =>
    postJson(rt, '/a2a/agents/a1/v1/tasks:cancel', taskBody(params), headers);
  const noContext = await cancel(bob, { id: task.id });
  t.equal(noContext.statusCode, 400);
  t.same(noContext.json(), { detail: 'contextId is required to cancel a task' });
  const notOwned = await cancel(bob, { id: task.id, contextId: task.contextId });
  t.equal(notOwned.statusCode, 404);
  t.same(notOwned.json(), { detail: 'Run not found' });
  const restCancel = await postJson(rt, `/a2a/agents/a1/v1/tasks/${task.id}:cancel`, '', bob);
  t.equal(restCancel.statusCode, 404);
  t.same(restCancel.json(), { detail: 'Run not found' });
  t.equal((await cancel(alice, { id: task.id, contextId: task.contextId })).statusCode, 200);

  const hijack = await postJson(
    rt,
    '/a2a/agents/a1/v1/message:send',
    rpcMessage('x', { message: { contextId: task.contextId } }),
    bob,
  );
  t.equal(hijack.statusCode, 404, "running in another user's context");
  t.same(hijack.json(), { detail: 'Session not found' });
  const admin = contextHeader({ user_id: 'root', is_admin: true });
  t.equal((await get(admin)).statusCode, 200, 'an unconfined caller sees every task');
});

t.test('HTTP+JSON task routes: GET /v1/tasks/{id}, POST /v1/tasks/{id}:cancel', async (t) => {
  const rt = runtimeApp(t);
  const task = await sent(rt, '/a2a/agents/a1');
  const got = await rt.app.inject({ url: `/a2a/agents/a1/v1/tasks/${task.id}?historyLength=5` });
  t.equal(got.statusCode, 200);
  t.match(got.json(), {
    id: task.id,
    contextId: task.contextId,
    status: { state: 'TASK_STATE_COMPLETED' },
    history: [{ role: 'ROLE_AGENT', content: [{ text: 'Echo: hello' }], taskId: task.id }],
  });
  const cancelled = await rt.app.inject({
    method: 'POST',
    url: `/a2a/agents/a1/v1/tasks/${task.id}:cancel`,
  });
  t.equal(cancelled.statusCode, 200);
  t.same(cancelled.json(), {
    id: task.id,
    contextId: task.contextId,
    status: { state: 'TASK_STATE_CANCELLED' },
  });
  const rows = [
    { method: 'GET', url: '/a2a/agents/a1/v1/tasks/nope', detail: 'Task not found' },
    { method: 'POST', url: '/a2a/agents/a1/v1/tasks/nope:cancel', detail: 'Task not found' },
    { method: 'POST', url: `/a2a/agents/a1/v1/tasks/${task.id}:subscribe`, detail: 'Not Found' },
    { method: 'POST', url: `/a2a/agents/a1/v1/tasks/${task.id}`, detail: 'Not Found' },
    { method: 'POST', url: '/a2a/agents/a1/v1/tasks/:cancel', detail: 'Not Found' },
    { method: 'GET', url: `/a2a/teams/t1/v1/tasks/${task.id}`, detail: 'Run not found' },
    { method: 'GET', url: `/a2a/teams/zz/v1/tasks/${task.id}`, detail: 'Team not found' },
  ] as const;
  for (const row of rows) {
    const res = await rt.app.inject({ method: row.method, url: row.url });
    t.equal(res.statusCode, 404, `${row.method} ${row.url}`);
    t.same(res.json(), { detail: row.detail });
  }
});

t.test(
  'dynamic dispatch: the target from agentId, else X-Agent-ID; agents, teams, workflows',
  async (t) => {
    const rt = runtimeApp(t);
    const rows: {
      name: string;
      message: Record<string, unknown>;
      headers: Record<string, string>;
      type: string;
      id: string;
    }[] = [
      {
        name: 'agent by agentId',
        message: { agentId: 'a2' },
        headers: {},
        type: 'agent',
        id: 'a2',
      },
      {
        name: 'team by header',
        message: {},
        headers: { 'x-agent-id': 't2' },
        type: 'team',
        id: 't2',
      },
      { name: 'workflow', message: { agentId: 'w2' }, headers: {}, type: 'workflow', id: 'w2' },
      {
        name: 'agentId beats the header',
        message: { agentId: 'a2' },
        headers: { 'x-agent-id': 't2' },
        type: 'agent',
        id: 'a2',
      },
    ];
    for (const row of rows) {
      const res = await postJson(
        rt,
        '/a2a/message/send',
        rpcMessage('hi', { message: row.message }),
        row.headers,
      );
      t.equal(res.statusCode, 200, row.name);
      const task = (res.json() as { result: { id: string; contextId: string } }).result;
      t.match(
        res.json(),
        { id: 'req-1', jsonrpc: '2.0', result: { status: { state: 'completed' } } },
        row.name,
      );
      t.match(
        await rt.store.getSession(task.contextId),
        { session_type: row.type, component_id: row.id },
        row.name,
      );
    }
    const both = {
      ...SETTINGS,
      teams: [...SETTINGS.teams, { id: 'a1', name: 'Shadow', members: ['a2'] }],
    };
    const shadow = runtimeApp(t, { settings: both });
    const first = await postJson(
      shadow,
      '/a2a/message/send',
      rpcMessage('x', { message: { agentId: 'a1' } }),
    );
    const chosen = (first.json() as { result: { contextId: string } }).result.contextId;
    t.equal(
      (await shadow.store.getSession(chosen))?.session_type,
      'agent',
      'agents are looked up first',
    );

    const stream = await postJson(
      rt,
      '/a2a/message/stream',
      rpcMessage('hi', { message: { agentId: 't2' } }),
    );
    t.equal(stream.statusCode, 200);
    t.match(rpcResults(stream.body).at(-1), {
      kind: 'task',
      history: [{ parts: [{ text: 'Echo: hi' }] }],
    });
    const ignored = await postJson(
      rt,
      '/a2a/message/send',
      rpcMessage('x', { message: { agentId: 'a2' }, configuration: { blocking: false } }),
    );
    t.equal(ignored.statusCode, 200, 'blocking:false is ignored: always blocking');
    t.match(ignored.json(), { result: { status: { state: 'completed' } } });
  },
);

t.test('dynamic dispatch refusals', async (t) => {
  const rt = runtimeApp(t);
  const rows: {
    name: string;
    body: unknown;
    headers: Record<string, string>;
    status: number;
    detail: string;
  }[] = [
    {
      name: 'no target',
      body: rpcMessage('x'),
      headers: {},
      status: 400,
      detail:
        "Entity ID required. Provide it via 'agentId' in params.message or 'X-Agent-ID' header.",
    },
    {
      name: 'an unknown target',
      body: rpcMessage('x', { message: { agentId: 'ghost' } }),
      headers: {},
      status: 404,
      detail: "Agent, Team, or Workflow with ID 'ghost' not found",
    },
    {
      name: 'an unknown header target',
      body: rpcMessage('x'),
      headers: { 'x-agent-id': 'nobody' },
      status: 404,
      detail: "Agent, Team, or Workflow with ID 'nobody' not found",
    },
    {
      name: 'not JSON',
      body: '{',
      headers: {},
      status: 400,
      detail: 'Invalid A2A request: the body is not JSON',
    },
    {
      name: 'an HTTP+JSON body is not read as one here',
      body: restMessage('x'),
      headers: { 'x-agent-id': 'a1' },
      status: 400,
      detail:
        'Invalid A2A request: id: must be a string or an integer; params: Invalid input: expected object, received undefined',
    },
    {
      name: 'the other method',
      body: rpcMessage('x', { method: 'message/stream', message: { agentId: 'a1' } }),
      headers: {},
      status: 400,
      detail:
        'Invalid A2A request: method "message/stream" is not served here (expected "message/send")',
    },
  ];
  for (const row of rows) {
    const res = await postJson(rt, '/a2a/message/send', row.body, row.headers);
    t.equal(res.statusCode, row.status, row.name);
    t.same(res.json(), { detail: row.detail }, row.name);
  }
  const get = await rt.app.inject({ url: '/a2a/message/send' });
  t.equal(get.statusCode, 405, 'a known path with another method');
  t.same(get.json(), { detail: 'Method Not Allowed' });
});
