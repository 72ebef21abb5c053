/**
 * `POST {prefix}/<kind>/<id>/v1/message:send|stream`: blocking and background
 * sends, streamed frames of every kind (content deltas, tool and reasoning status-updates, the
 * end of a completed, failed, paused or cancelled run), both bindings, run attribution, and what
 * happens when a run cannot be stored or its client leaves.
 */
import { once } from 'node:events';
import { request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import type { RunRecord } from '../../../../src/runtime/store/records.js';
import { openRuntimeStore, type RuntimeStore } from '../../../../src/runtime/store/store.js';
import {
  a2aFrames,
  failingStore,
  postJson,
  restMessage,
  rpcMessage,
  rpcResults,
} from '../../fixtures/a2a.js';
import {
  anonymousHeader,
  contextHeader,
  deferred,
  runtimeApp,
  sessionRecord,
} from '../../fixtures/runtime.js';

const SEND = '/a2a/agents/a2/v1/message:send';
const STREAM = '/a2a/agents/a2/v1/message:stream';

/** An agent message of the runtime, as every answer writes it. */
const agentMessage = (o: {
  messageId: string;
  contextId: string;
  taskId?: string;
  texts: string[];
  metadata?: Record<string, unknown>;
}) => ({
  kind: 'message',
  messageId: o.messageId,
  role: 'agent',
  parts: o.texts.map((text) => ({ kind: 'text', text })),
  contextId: o.contextId,
  ...(o.taskId === undefined ? {} : { taskId: o.taskId }),
  ...(o.metadata === undefined ? {} : { metadata: o.metadata }),
});

t.test('message:send runs each kind to the end and answers the Task', async (t) => {
  const rt = runtimeApp(t);
  const rows = [
    { path: '/a2a/agents/a1', content: 'Echo: hello', type: 'agent', id: 'a1' },
    { path: '/a2a/teams/t1', content: 'Echo: hello\n\nEcho: hello', type: 'team', id: 't1' },
    { path: '/a2a/workflows/w2', content: 'Echo: hello', type: 'workflow', id: 'w2' },
  ];
  for (const row of rows) {
    const res = await postJson(rt, `${row.path}/v1/message:send`, rpcMessage('hello', { id: 7 }));
    t.equal(res.statusCode, 200, `${row.type}: 200`);
    t.match(res.headers['content-type'], /^application\/json/);
    const body = res.json() as { id: number; jsonrpc: string; result: Record<string, unknown> };
    t.same(Object.keys(body), ['id', 'jsonrpc', 'result'], `${row.type}: the envelope`);
    const { id: taskId, contextId } = body.result as { id: string; contextId: string };
    const messageId = (body.result.history as { messageId: string }[])[0]?.messageId as string;
    t.same(
      body,
      {
        id: 7,
        jsonrpc: '2.0',
        result: {
          kind: 'task',
          id: taskId,
          contextId,
          status: { state: 'completed' },
          history: [agentMessage({ messageId, contextId, taskId, texts: [row.content] })],
        },
      },
      `${row.type}: the task`,
    );
    t.match(await rt.store.getRun(taskId), {
      status: 'COMPLETED',
      session_id: contextId,
      input: 'hello',
    });
    t.match(await rt.store.getSession(contextId), { session_type: row.type, component_id: row.id });
  }
});

t.test('contextId is the session: created with that id, then reused', async (t) => {
  const rt = runtimeApp(t);
  const first = await postJson(rt, SEND, rpcMessage('one', { message: { contextId: 'ctx-1' } }));
  const second = await postJson(rt, SEND, rpcMessage('two', { message: { contextId: 'ctx-1' } }));
  t.match(first.json(), { result: { contextId: 'ctx-1', status: { state: 'completed' } } });
  t.match(second.json(), { result: { contextId: 'ctx-1' } });
  t.same(
    (await rt.store.listRuns('ctx-1')).map((run) => run.input),
    ['one', 'two'],
  );
  await rt.store.putSession(sessionRecord({ session_id: 'other', component_id: 'a1' }));
  const foreign = await postJson(rt, SEND, rpcMessage('x', { message: { contextId: 'other' } }));
  t.equal(foreign.statusCode, 404, "another component's session");
  t.same(foreign.json(), { detail: 'Session not found' });
});

t.test('a run that ends in ERROR is a failed task whose message is the error', async (t) => {
  const rt = runtimeApp(t);
  const res = await postJson(rt, SEND, rpcMessage('/error model down'));
  t.equal(res.statusCode, 200);
  t.match(res.json(), {
    result: {
      status: { state: 'failed' },
      history: [{ parts: [{ kind: 'text', text: 'model down' }] }],
    },
  });
  const paused = await postJson(
    rt,
    '/a2a/agents/a1/v1/message:send',
    rpcMessage('/tool pick_color'),
  );
  t.match(
    paused.json(),
    { result: { status: { state: 'input-required' }, history: [{ parts: [] }] } },
    'a paused run waits on the client: input-required',
  );
});

t.test('blocking:false runs agents and teams in the background: 202, then poll', async (t) => {
  const settled = deferred<RunRecord>();
  const base = openRuntimeStore(':memory:');
  const store: RuntimeStore = {
    ...base,
    async updateRun(run) {
      const stored = await base.updateRun(run);
      if (run.status !== 'RUNNING') settled.resolve(run);
      return stored;
    },
  };
  const rt = runtimeApp(t, { store });
  const res = await postJson(
    rt,
    '/a2a/teams/t2/v1/message:send',
    rpcMessage('later', { configuration: { blocking: false } }),
  );
  t.equal(res.statusCode, 202);
  const task = (res.json() as { result: { id: string; contextId: string } }).result;
  t.same(res.json(), {
    id: 'req-1',
    jsonrpc: '2.0',
    result: { kind: 'task', id: task.id, contextId: task.contextId, status: { state: 'working' } },
  });
  t.match(await settled.promise, { run_id: task.id, status: 'COMPLETED' }, 'it ran on');
  const polled = await postJson(rt, '/a2a/teams/t2/v1/tasks:get', {
    jsonrpc: '2.0',
    id: 2,
    params: { id: task.id, contextId: task.contextId },
  });
  t.match(polled.json(), {
    id: 2,
    result: {
      id: task.id,
      status: { state: 'completed' },
      history: [{ parts: [{ text: 'Echo: later' }] }],
    },
  });
});

t.test('workflows ignore blocking:false', async (t) => {
  const rt = runtimeApp(t);
  const res = await postJson(
    rt,
    '/a2a/workflows/w2/v1/message:send',
    rpcMessage('now', { configuration: { blocking: false } }),
  );
  t.equal(res.statusCode, 200);
  t.match(res.json(), { result: { status: { state: 'completed' } } });
});

t.test('message:stream: the frames of an agent run', async (t) => {
  const rt = runtimeApp(t);
  const res = await postJson(
    rt,
    STREAM,
    rpcMessage('hi there', { id: 3, method: 'message/stream' }),
  );
  t.equal(res.statusCode, 200);
  t.equal(res.headers['content-type'], 'text/event-stream; charset=utf-8');
  const frames = a2aFrames(res.body);
  t.same(
    frames.map((frame) => frame.event),
    ['TaskStatusUpdateEvent', 'Message', 'Message', 'Message', 'TaskStatusUpdateEvent', 'Task'],
  );
  const results = rpcResults(res.body, 3);
  const { taskId, contextId } = results[0] as { taskId: string; contextId: string };
  const messageId = (results[1] as { messageId: string }).messageId;
  const ids = { taskId, contextId, messageId };
  const delta = (text: string) =>
    agentMessage({ ...ids, texts: [text], metadata: { agno_content_category: 'content' } });
  const run = (await rt.store.getRun(taskId)) as RunRecord;
  t.same(results, [
    { kind: 'status-update', taskId, contextId, status: { state: 'working' }, final: false },
    delta('Echo:'),
    delta(' hi'),
    delta(' there'),
    { kind: 'status-update', taskId, contextId, status: { state: 'completed' }, final: true },
    {
      kind: 'task',
      id: taskId,
      contextId,
      status: { state: 'completed' },
      history: [
        agentMessage({
          ...ids,
          texts: ['Echo: hi there'],
          metadata: { metrics: run.output.metrics },
        }),
      ],
    },
  ]);
  t.equal(run.status, 'COMPLETED');
});

t.test('message:stream: tool and reasoning events are status-updates', async (t) => {
  const rt = runtimeApp(t);
  const tool = rpcResults(
    (
      await postJson(
        rt,
        '/a2a/agents/a1/v1/message:stream',
        rpcMessage('/tool add {"a": 2, "b": 3}'),
      )
    ).body,
  );
  t.match(tool, [
    { kind: 'status-update', status: { state: 'working' } },
    {
      kind: 'status-update',
      metadata: {
        agno_event_type: 'tool_call_started',
        tool_name: 'add',
        tool_args: '{"a":2,"b":3}',
      },
    },
    {
      kind: 'status-update',
      metadata: { agno_event_type: 'tool_call_completed', tool_name: 'add' },
    },
    { kind: 'message' },
    { kind: 'message' },
    { kind: 'message' },
    { kind: 'message' },
    { kind: 'status-update', final: true, status: { state: 'completed' } },
    { kind: 'task', history: [{ parts: [{ text: 'Tool add returned: 5' }] }] },
  ]);
  const think = rpcResults((await postJson(rt, STREAM, rpcMessage('/think step by step'))).body);
  t.same(
    think.map(
      (item) => (item.metadata as { agno_event_type?: string } | undefined)?.agno_event_type,
    ),
    [
      undefined,
      'reasoning_started',
      'reasoning_completed',
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ],
  );
});

t.test('message:stream: a team and a workflow speak with their own voice', async (t) => {
  const rt = runtimeApp(t);
  const team = rpcResults(
    (await postJson(rt, '/a2a/teams/t1/v1/message:stream', rpcMessage('go'))).body,
  );
  t.same(
    team
      .filter((item) => item.kind === 'message')
      .map((item) => (item.parts as { text: string }[])[0]?.text),
    ['Echo:', ' go', '\n\nEcho:', ' go'],
    'the team’s deltas, not its members’',
  );
  t.match(team.at(-1), { kind: 'task', history: [{ parts: [{ text: 'Echo: go\n\nEcho: go' }] }] });
  const flow = rpcResults(
    (await postJson(rt, '/a2a/workflows/w2/v1/message:stream', rpcMessage('topic'))).body,
  );
  t.same(
    flow.map((item) =>
      item.kind === 'message'
        ? (item.parts as { text: string }[])[0]?.text
        : ((item.metadata as { agno_event_type?: string } | undefined)?.agno_event_type ??
          item.kind),
    ),
    [
      'status-update',
      'workflow_step_started',
      'Echo:',
      ' topic',
      'workflow_step_completed',
      'status-update',
      'task',
    ],
    'a workflow streams its step executors’ deltas',
  );
});

t.test('message:stream: a RunError ends failed (ours), the error its message', async (t) => {
  const rt = runtimeApp(t);
  const results = rpcResults((await postJson(rt, STREAM, rpcMessage('/error model down'))).body);
  t.match(results, [
    { kind: 'status-update', status: { state: 'working' }, final: false },
    { kind: 'status-update', status: { state: 'failed' }, final: true },
    { kind: 'task', status: { state: 'failed' }, history: [{ parts: [{ text: 'model down' }] }] },
  ]);
  t.equal(results.length, 3);
});

t.test('a failure before the run starts is a plain HTTP error, not a stream', async (t) => {
  const rt = runtimeApp(t);
  const res = await postJson(rt, STREAM, rpcMessage('x'), { 'x-user-id': 'sa:bot' });
  t.equal(res.statusCode, 403);
  t.same(res.json(), { detail: 'Client-supplied user_id may not claim a reserved principal' });
});

t.test('the method, when given, must be the route’s; requests are validated', async (t) => {
  const rt = runtimeApp(t);
  const rows = [
    {
      path: SEND,
      body: rpcMessage('x', { method: 'message/stream' }),
      detail:
        'Invalid A2A request: method "message/stream" is not served here (expected "message/send")',
    },
    {
      path: STREAM,
      body: rpcMessage('x', { method: 'tasks/get' }),
      detail:
        'Invalid A2A request: method "tasks/get" is not served here (expected "message/stream")',
    },
    { path: SEND, body: 'not json', detail: 'Invalid A2A request: the body is not JSON' },
    { path: STREAM, body: '', detail: 'Invalid A2A request: the body is not JSON' },
    {
      path: SEND,
      body: rpcMessage('x', { message: { role: 'agent' } }),
      detail: 'Only user messages are accepted',
    },
    {
      path: STREAM,
      body: restMessage('x', { message: { role: 'ROLE_AGENT' } }),
      detail: 'Only user messages are accepted',
    },
  ];
  for (const row of rows) {
    const res = await postJson(rt, row.path, row.body);
    t.equal(res.statusCode, 400, row.detail);
    t.same(res.json(), { detail: row.detail });
  }
  const plain = await rt.app.inject({
    method: 'POST',
    url: SEND,
    headers: { 'content-type': 'text/plain' },
    payload: JSON.stringify(rpcMessage('any content type')),
  });
  t.equal(plain.statusCode, 200, 'the body is read as JSON whatever its content type');
  const none = await rt.app.inject({ method: 'POST', url: SEND });
  t.same(none.json(), { detail: 'Invalid A2A request: the body is not JSON' }, 'no body');
  t.equal(
    (await rt.store.listSessions({ page: 1, limit: 10, sortBy: 'created_at', sortOrder: 'asc' }))
      .total,
    1,
    'no refused request stored anything',
  );
});

t.test('an unknown agent, team or workflow is 404, before the body is read', async (t) => {
  const rt = runtimeApp(t);
  const rows = [
    { path: '/a2a/agents/zz', detail: 'Agent not found' },
    { path: '/a2a/teams/a1', detail: 'Team not found' },
    { path: '/a2a/workflows/t1', detail: 'Workflow not found' },
  ];
  for (const row of rows) {
    for (const verb of ['send', 'stream']) {
      const res = await postJson(rt, `${row.path}/v1/message:${verb}`, 'not json');
      t.equal(res.statusCode, 404, `${row.path} ${verb}`);
      t.same(res.json(), { detail: row.detail });
    }
  }
});

t.test('HTTP+JSON bodies on the same paths answer in protobuf JSON', async (t) => {
  const rt = runtimeApp(t);
  const sent = await postJson(rt, SEND, restMessage('hello', { message: { contextId: 'ctx-r' } }));
  t.equal(sent.statusCode, 200);
  const task = (sent.json() as { task: { id: string; history: { messageId: string }[] } }).task;
  t.same(sent.json(), {
    task: {
      id: task.id,
      contextId: 'ctx-r',
      status: { state: 'TASK_STATE_COMPLETED' },
      history: [
        {
          messageId: task.history[0]?.messageId,
          contextId: 'ctx-r',
          taskId: task.id,
          role: 'ROLE_AGENT',
          content: [{ text: 'Echo: hello' }],
        },
      ],
    },
  });
  const background = await postJson(rt, SEND, restMessage('bg', { configuration: {} }));
  t.equal(background.statusCode, 202, 'a configuration without blocking: true is non-blocking');
  t.match(background.json(), { task: { status: { state: 'TASK_STATE_WORKING' } } });

  const streamed = await postJson(rt, STREAM, restMessage('hi'));
  const frames = a2aFrames(streamed.body);
  t.same(
    frames.map((frame) => [frame.event, Object.keys(frame.data)]),
    [
      ['TaskStatusUpdateEvent', ['statusUpdate']],
      ['Message', ['message']],
      ['Message', ['message']],
      ['TaskStatusUpdateEvent', ['statusUpdate']],
      ['Task', ['task']],
    ],
  );
  t.match(frames[1]?.data, { message: { role: 'ROLE_AGENT', content: [{ text: 'Echo:' }] } });
  t.match(frames[3]?.data, {
    statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' }, final: true },
  });
  t.match(frames[4]?.data, { task: { history: [{ content: [{ text: 'Echo: hi' }] }] } });
});

t.test(
  'run attribution: X-User-ID, then metadata.userId, for anonymous callers only',
  async (t) => {
    const rt = runtimeApp(t);
    const userOf = async (headers: Record<string, string>, metadata?: Record<string, unknown>) => {
      const res = await postJson(rt, SEND, rpcMessage('x', { message: { metadata } }), headers);
      const task = (res.json() as { result: { id: string; history: { metadata?: unknown }[] } })
        .result;
      return {
        user: (await rt.store.getRun(task.id))?.user_id,
        metadata: task.history[0]?.metadata,
      };
    };
    t.same(
      await userOf({ 'x-user-id': 'carol' }, { userId: 'dave' }),
      {
        user: 'carol',
        metadata: { userId: 'carol' },
      },
      'the header wins',
    );
    t.same((await userOf({}, { userId: 'dave' })).user, 'dave', 'then metadata.userId');
    t.same(
      (await userOf({ 'x-user-id': '' }, { userId: 'dave' })).user,
      'dave',
      'an empty header is none',
    );
    t.same(await userOf({}), { user: null, metadata: undefined }, 'no user: no metadata');
    const anonymous = contextHeader({ authenticated: false, principal_type: 'anonymous' });
    t.same((await userOf({ ...anonymous, 'x-user-id': 'erin' })).user, 'erin');
    const jwt = contextHeader({ user_id: 'alice' });
    t.same(
      (await userOf({ ...jwt, 'x-user-id': 'mallory' }, { userId: 'mallory' })).user,
      'alice',
      'an authenticated caller is who the gateway says',
    );
    t.same(
      (await userOf({ ...contextHeader({ user_id: null }), 'x-user-id': 'sa:bot' })).user,
      null,
      'nor may it name anyone, reserved or not',
    );
    for (const headers of [
      { 'x-user-id': 'sa:bot' },
      { ...anonymous, 'x-user-id': '__scheduler__' },
    ]) {
      const res = await postJson(rt, SEND, rpcMessage('x'), headers);
      t.equal(res.statusCode, 403);
      t.same(res.json(), { detail: 'Client-supplied user_id may not claim a reserved principal' });
    }
    const reservedMeta = await postJson(
      rt,
      SEND,
      rpcMessage('x', { message: { metadata: { userId: '__oauth__:x' } } }),
    );
    t.equal(reservedMeta.statusCode, 403, 'metadata.userId is checked too');
  },
);

t.test('a run whose end cannot be stored: a failed task of a new id (send)', async (t) => {
  const failing = failingStore(openRuntimeStore(':memory:'));
  const rt = runtimeApp(t, { store: failing.store });
  const res = await postJson(rt, SEND, rpcMessage('x', { message: { contextId: 'ctx-f' } }));
  t.equal(res.statusCode, 200, 'still 200');
  const runId = (await failing.failed).run_id;
  const task = (res.json() as { result: { id: string; history: { messageId: string }[] } }).result;
  t.not(task.id, runId, 'a new task id');
  t.same(res.json(), {
    id: 'req-1',
    jsonrpc: '2.0',
    result: {
      kind: 'task',
      id: task.id,
      contextId: 'ctx-f',
      status: { state: 'failed' },
      history: [
        agentMessage({
          messageId: task.history[0]?.messageId as string,
          contextId: 'ctx-f',
          texts: ['Error: disk full'],
        }),
      ],
    },
  });
});

t.test('a run whose end cannot be stored: the stream ends failed', async (t) => {
  const failing = failingStore(openRuntimeStore(':memory:'));
  const rt = runtimeApp(t, { store: failing.store });
  const results = rpcResults((await postJson(rt, STREAM, rpcMessage('x'))).body);
  const { taskId, contextId } = results[0] as { taskId: string; contextId: string };
  t.match(results.slice(-2), [
    { kind: 'status-update', taskId, contextId, status: { state: 'failed' }, final: true },
    {
      kind: 'task',
      id: taskId,
      status: { state: 'failed' },
      history: [{ parts: [{ text: 'Error: disk full' }] }],
    },
  ]);
});

t.test('a background run whose end cannot be stored fails quietly', async (t) => {
  const failing = failingStore(openRuntimeStore(':memory:'));
  const rt = runtimeApp(t, { store: failing.store });
  const res = await postJson(rt, SEND, rpcMessage('x', { configuration: { blocking: false } }));
  t.equal(res.statusCode, 202);
  const refused = await failing.failed;
  t.equal(refused.run_id, (res.json() as { result: { id: string } }).result.id);
  t.match(await rt.store.getRun(refused.run_id), { status: 'RUNNING' }, 'the last stored state');
  const health = await rt.app.inject({ url: '/health' });
  t.equal(health.statusCode, 200, 'the runtime goes on');
});

/** Reads `res` until the first complete SSE frame, then stops reading. */
function firstFrame(res: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\n\n');
      if (end === -1) return;
      res.off('data', onData);
      res.pause();
      resolve(rpcResults(text.slice(0, end + 2))[0] as Record<string, unknown>);
    };
    res.on('data', onData);
  });
}

t.test('a client that leaves mid-stream cancels the run', async (t) => {
  const sleeping = deferred();
  const wake = deferred();
  const settled = deferred<RunRecord>();
  const base = openRuntimeStore(':memory:');
  const store: RuntimeStore = {
    ...base,
    async updateRun(run) {
      const stored = await base.updateRun(run);
      if (run.status !== 'RUNNING') settled.resolve(run);
      return stored;
    },
  };
  const rt = runtimeApp(t, {
    store,
    sleep: async () => {
      sleeping.resolve();
      await wake.promise;
    },
  });
  await rt.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = rt.app.server.address() as AddressInfo;
  const serverSideClosed = new Promise<void>((resolve) =>
    rt.app.server.once('connection', (socket) => socket.once('close', () => resolve())),
  );
  const req = request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: STREAM,
    headers: anonymousHeader(),
    agent: false,
  });
  req.on('error', () => {}); // destroyed on purpose below
  req.end(JSON.stringify(rpcMessage('/slow 3 60000')));
  const [res] = (await once(req, 'response')) as [IncomingMessage];
  const first = await firstFrame(res);
  t.match(first, { kind: 'status-update', status: { state: 'working' } });
  await sleeping.promise;
  req.destroy();
  await serverSideClosed;
  wake.resolve();
  const final = await settled.promise;
  t.equal(final.run_id, first.taskId);
  t.equal(final.status, 'CANCELLED', 'stopped at its next delta, and stored');
});
