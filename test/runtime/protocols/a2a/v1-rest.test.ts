/**
 * HTTP+JSON 1.0 on the paths it shares with 0.3 and with JSON-RPC-on-a-path: told apart by the
 * `jsonrpc` member and the `A2A-Version` header, never by the body alone; 1.0 answers in
 * `application/a2a+json` with proto-JSON 1.0 shapes, errors as google.rpc.Status bodies.
 */
import t from 'tap';
import { a2aFrames, postJson, restMessage, rpcMessage } from '../../fixtures/a2a.js';
import { runtimeApp, type TestRuntime } from '../../fixtures/runtime.js';

const V1 = { 'a2a-version': '1.0' };
const ROOT = '/a2a/agents/a1/v1';

/** The exact HTTP+JSON 1.0 body the 1.3.0 client posts. */
const v1Body = (text: string, message: Record<string, unknown> = {}, configuration = {}) => ({
  message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text }], ...message },
  configuration,
});

const statusBody = (code: number, status: string, message: string, reason: string) => ({
  error: {
    code,
    status,
    message,
    details: [
      { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'a2a-protocol.org' },
    ],
  },
});

async function sendV1(
  rt: TestRuntime,
  text: string,
  message: Record<string, unknown> = {},
): Promise<{ id: string; contextId: string; status: { state: string } }> {
  const res = await postJson(rt, `${ROOT}/message:send`, v1Body(text, message), V1);
  if (res.statusCode !== 200) throw new Error(`send: ${res.statusCode} ${res.body}`);
  return (res.json() as { task: never }).task;
}

t.test(
  'message:send with A2A-Version 1.0 is HTTP+JSON 1.0: blocking, the text reaches the model',
  async (t) => {
    const rt = runtimeApp(t);
    const res = await postJson(rt, `${ROOT}/message:send`, v1Body('hello'), {
      ...V1,
      accept: 'application/a2a+json, application/json',
    });
    t.equal(res.statusCode, 200);
    t.match(res.headers['content-type'], /^application\/a2a\+json/);
    const { task } = res.json() as { task: { id: string; contextId: string } };
    t.match(task, {
      status: { state: 'TASK_STATE_COMPLETED' },
      history: [{ role: 'ROLE_AGENT', parts: [{ text: 'Echo: hello' }] }],
    });
    t.equal((await rt.store.getRun(task.id))?.input, 'hello');
    const named = await postJson(rt, `${ROOT}/message:send`, v1Body('hi'), {
      ...V1,
      'x-user-id': 'dave',
    });
    const namedId = (named.json() as { task: { id: string } }).task.id;
    t.equal(
      (await rt.store.getRun(namedId))?.user_id,
      'dave',
      'X-User-ID names an anonymous caller’s run',
    );

    const now = await postJson(
      rt,
      `${ROOT}/message:send`,
      v1Body('/slow 2 10', {}, { returnImmediately: true }),
      V1,
    );
    t.equal(now.statusCode, 200, 'returnImmediately: 200, not 202');
    t.match(now.json(), { task: { status: { state: 'TASK_STATE_WORKING' } } });

    const flow = await postJson(rt, '/a2a/workflows/w2/v1/message:send', v1Body('go'), V1);
    t.match(flow.json(), { task: { status: { state: 'TASK_STATE_COMPLETED' } } }, 'workflows too');
  },
);

t.test(
  'the same paths stay 0.3 without the 1.0 header, and JSON-RPC with a jsonrpc member',
  async (t) => {
    const rt = runtimeApp(t);
    for (const headers of [{}, { 'a2a-version': '0.3' }, { 'a2a-version': '' }] as Record<
      string,
      string
    >[]) {
      const res = await postJson(rt, `${ROOT}/message:send`, restMessage('hi'), headers);
      t.equal(res.statusCode, 200, JSON.stringify(headers));
      t.match(res.json(), { task: { status: { state: 'TASK_STATE_COMPLETED' } } });
      t.equal(
        (await rt.store.getRun((res.json() as { task: { id: string } }).task.id))?.input,
        'hi',
      );
    }
    const rpc = await postJson(rt, `${ROOT}/message:send`, rpcMessage('hi'), V1);
    t.match(rpc.json(), {
      jsonrpc: '2.0',
      result: { kind: 'task', status: { state: 'completed' } },
    });
    const v1Without = await postJson(rt, `${ROOT}/message:send`, v1Body('lost'));
    t.equal(
      v1Without.statusCode,
      202,
      'a 1.0 body without the header is read as 0.3, as the header says',
    );
  },
);

t.test(
  'message:stream (1.0): bare StreamResponses, task first, terminal status last',
  async (t) => {
    const rt = runtimeApp(t);
    const res = await postJson(rt, `${ROOT}/message:stream`, v1Body('a b'), {
      ...V1,
      accept: 'text/event-stream',
    });
    t.match(res.headers['content-type'], /^text\/event-stream/);
    const items = a2aFrames(res.body).map((f) => f.data);
    t.same(Object.keys(items[0] as object), ['task']);
    t.match(items[0], { task: { status: { state: 'TASK_STATE_SUBMITTED' } } });
    t.same(
      items.map((i) => Object.keys(i)[0]),
      [
        'task',
        'statusUpdate',
        'artifactUpdate',
        'artifactUpdate',
        'artifactUpdate',
        'statusUpdate',
      ],
    );
    t.match(items.at(-1), { statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } } });
  },
);

t.test('tasks: get, list, cancel, subscribe in 1.0 shapes', async (t) => {
  const rt = runtimeApp(t);
  const done = await sendV1(rt, 'x');
  const got = await rt.app.inject({ url: `${ROOT}/tasks/${done.id}`, headers: V1 });
  t.equal(got.statusCode, 200);
  t.match(got.headers['content-type'], /^application\/a2a\+json/);
  t.match(got.json(), { id: done.id, status: { state: 'TASK_STATE_COMPLETED' } });
  const old = await rt.app.inject({ url: `${ROOT}/tasks/${done.id}` });
  t.match(old.json(), { id: done.id, status: { state: 'TASK_STATE_COMPLETED' } }, '0.3 as today');

  const list = await rt.app.inject({
    url: `${ROOT}/tasks?contextId=${done.contextId}`,
    headers: V1,
  });
  t.match(list.json(), { tasks: [{ id: done.id }], pageSize: 1, totalSize: 1, nextPageToken: '' });

  const paused = await sendV1(rt, '/tool pick_color');
  t.equal(paused.status.state, 'TASK_STATE_INPUT_REQUIRED');
  const cancel = await rt.app.inject({
    method: 'POST',
    url: `${ROOT}/tasks/${paused.id}:cancel`,
    headers: { ...V1, 'content-type': 'application/json' },
  });
  t.equal(cancel.statusCode, 200);
  t.same(cancel.json(), {
    id: paused.id,
    contextId: paused.contextId,
    status: { state: 'TASK_STATE_CANCELED' },
  });

  const answered = await sendV1(rt, '/tool pick_color');
  const resumed = await sendV1(rt, 'green', { taskId: answered.id });
  t.match(
    resumed,
    { id: answered.id, status: { state: 'TASK_STATE_COMPLETED' } },
    'a pause answered',
  );
});

t.test('HTTP+JSON 1.0 errors: google.rpc.Status with the HTTP status', async (t) => {
  const rt = runtimeApp(t);
  const done = await sendV1(rt, 'x');
  const rows = [
    {
      name: 'unknown task',
      method: 'GET',
      url: `${ROOT}/tasks/nope`,
      status: 404,
      body: statusBody(404, 'NOT_FOUND', 'Task not found', 'TASK_NOT_FOUND'),
    },
    {
      name: 'cancel an ended task',
      method: 'POST',
      url: `${ROOT}/tasks/${done.id}:cancel`,
      status: 400,
      body: statusBody(
        400,
        'FAILED_PRECONDITION',
        `Task ${done.id} is completed and cannot be canceled`,
        'TASK_NOT_CANCELABLE',
      ),
    },
    {
      name: 'subscribe',
      method: 'POST',
      url: `${ROOT}/tasks/${done.id}:subscribe`,
      status: 400,
      body: statusBody(
        400,
        'FAILED_PRECONDITION',
        'Subscribing to a task is not supported',
        'UNSUPPORTED_OPERATION',
      ),
    },
    {
      name: 'list without a context',
      method: 'GET',
      url: `${ROOT}/tasks`,
      status: 400,
      body: statusBody(400, 'INVALID_ARGUMENT', 'ListTasks needs a contextId', 'INVALID_PARAMS'),
    },
    {
      name: 'a body of the wrong shape',
      method: 'POST',
      url: `${ROOT}/message:send`,
      payload: { message: { role: 'ROLE_USER' } },
      status: 400,
      body: statusBody(
        400,
        'INVALID_ARGUMENT',
        'Invalid A2A request: message.messageId: Invalid input: expected string, received undefined',
        'INVALID_PARAMS',
      ),
    },
    {
      name: 'not JSON',
      method: 'POST',
      url: `${ROOT}/message:stream`,
      payload: '{x',
      status: 400,
      body: statusBody(
        400,
        'INVALID_ARGUMENT',
        'Invalid A2A request: Invalid input: expected object, received null',
        'INVALID_PARAMS',
      ),
    },
    {
      name: 'a tenant',
      method: 'POST',
      url: `${ROOT}/message:send`,
      payload: { ...v1Body('x'), tenant: 't' },
      status: 400,
      body: statusBody(
        400,
        'INVALID_ARGUMENT',
        'Invalid params: no tenant is served here',
        'INVALID_PARAMS',
      ),
    },
    {
      name: 'a message to an unknown task',
      method: 'POST',
      url: `${ROOT}/message:send`,
      payload: v1Body('x', { taskId: 'nope' }),
      status: 404,
      body: statusBody(404, 'NOT_FOUND', 'Task not found', 'TASK_NOT_FOUND'),
    },
  ];
  for (const row of rows) {
    const res = await rt.app.inject({
      method: row.method as 'GET' | 'POST',
      url: row.url,
      headers: { ...V1, 'content-type': 'application/json' },
      ...(row.payload === undefined
        ? {}
        : { payload: typeof row.payload === 'string' ? row.payload : JSON.stringify(row.payload) }),
    });
    t.equal(res.statusCode, row.status, row.name);
    t.match(res.headers['content-type'], /^application\/a2a\+json/, row.name);
    t.same(res.json(), row.body, row.name);
  }
  const unsupported = statusBody(
    400,
    'FAILED_PRECONDITION',
    'A2A-Version not supported: this endpoint serves 1.0 and 0.3',
    'VERSION_NOT_SUPPORTED',
  );
  for (const [method, url] of [
    ['POST', `${ROOT}/message:send`],
    ['POST', `${ROOT}/message:stream`],
    ['GET', `${ROOT}/tasks/${done.id}`],
    ['GET', `${ROOT}/tasks`],
    ['POST', `${ROOT}/tasks/${done.id}:cancel`],
  ] as const) {
    const res = await rt.app.inject({
      method,
      url,
      headers: { 'a2a-version': '2.0', 'content-type': 'application/json' },
      ...(method === 'POST' ? { payload: JSON.stringify(v1Body('x')) } : {}),
    });
    t.equal(res.statusCode, 400, `${method} ${url} [A2A-Version 2.0]`);
    t.same(res.json(), unsupported);
  }
  const noHeader = await rt.app.inject({ url: `${ROOT}/tasks` });
  t.equal(noHeader.statusCode, 404, 'GET …/v1/tasks is 1.0 only');
  t.same(noHeader.json(), { detail: 'Not Found' });
  const other = await rt.app.inject({
    method: 'POST',
    url: `${ROOT}/tasks/${done.id}`,
    headers: V1,
  });
  t.equal(other.statusCode, 404, 'a task path without an action');
});
