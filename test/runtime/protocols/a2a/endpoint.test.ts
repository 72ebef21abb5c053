/**
 * `POST {prefix}/{kind}/{id}/v1`: the JSON-RPC endpoint for 1.0 and 0.3 methods, with the
 * exact bodies 1.0 and 0.3 clients send; results in each version's shapes; A2A-native errors in
 * a 200 (1.0 with a google.rpc ErrorInfo); the shapes the gateway refuses, refused here too;
 * 1.0 streams; paused runs answered by a message naming the task; cancel mid-stream.
 */
import t from 'tap';
import type { RunRecord } from '../../../../src/runtime/store/records.js';
import { a2aFrames, postJson } from '../../fixtures/a2a.js';
import {
  contextHeader,
  deferred,
  runtimeApp,
  SETTINGS,
  type TestRuntime,
} from '../../fixtures/runtime.js';

const V1 = { 'a2a-version': '1.0' };
const URL_A1 = '/a2a/agents/a1/v1';

/** A JSON-RPC request. */
const rpc = (method: string, params: unknown, id: unknown = 1) => ({
  jsonrpc: '2.0',
  method,
  params,
  id,
});

/** The 1.0 SendMessage params as the 1.3.0 client sends them. */
const v1Send = (text: string, message: Record<string, unknown> = {}, configuration = {}) => ({
  message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text }], ...message },
  configuration,
});

/** The 0.3 message/send params as the 0.3 clients send them. */
const legacySend = (text: string) => ({
  message: {
    kind: 'message',
    messageId: 'm-1',
    role: 'user',
    parts: [{ kind: 'text', text }],
  },
  configuration: { blocking: true, acceptedOutputModes: [] },
});

const errorInfo = (reason: string) => [
  { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'a2a-protocol.org' },
];

/** Sends SendMessage (1.0) and returns the task. */
async function sendV1(
  rt: TestRuntime,
  text: string,
  message: Record<string, unknown> = {},
  url = URL_A1,
): Promise<{ id: string; contextId: string; status: { state: string }; history?: unknown[] }> {
  const res = await postJson(rt, url, rpc('SendMessage', v1Send(text, message)), V1);
  if (res.statusCode !== 200) throw new Error(`send: ${res.statusCode} ${res.body}`);
  const body = res.json() as { result?: { task: never }; error?: unknown };
  if (body.result === undefined) throw new Error(`send: ${res.body}`);
  return body.result.task;
}

t.test(
  'SendMessage (1.0): {task} in proto-JSON 1.0, blocking when returnImmediately is absent',
  async (t) => {
    const rt = runtimeApp(t);
    const res = await postJson(rt, URL_A1, rpc('SendMessage', v1Send('hello')), {
      ...V1,
      accept: 'application/json',
    });
    t.equal(res.statusCode, 200);
    t.match(res.headers['content-type'], /^application\/json/);
    const body = res.json() as { result: { task: { id: string; contextId: string } } };
    const { id, contextId } = body.result.task;
    t.same(body, {
      jsonrpc: '2.0',
      id: 1,
      result: {
        task: {
          id,
          contextId,
          status: { state: 'TASK_STATE_COMPLETED' },
          history: [
            {
              messageId: (body.result.task as unknown as { history: { messageId: string }[] })
                .history[0]?.messageId,
              contextId,
              taskId: id,
              role: 'ROLE_AGENT',
              parts: [{ text: 'Echo: hello' }],
            },
          ],
        },
      },
    });
    t.equal(
      (await rt.store.getRun(id))?.input,
      'hello',
      'the text the client sent reached the model',
    );

    const data = await postJson(
      rt,
      URL_A1,
      rpc('SendMessage', {
        message: {
          messageId: 'm-2',
          role: 'ROLE_USER',
          contextId,
          metadata: { userId: 'carol' },
          parts: [
            { text: 'one' },
            { data: { k: 1 } },
            { url: 'https://x/y.png', mediaType: 'image/png' },
          ],
        },
      }),
      V1,
    );
    const task = (data.json() as { result: { task: { id: string; contextId: string } } }).result
      .task;
    t.equal(task.contextId, contextId, 'the same context: the same session');
    t.equal((await rt.store.getRun(task.id))?.input, 'one\n{"k":1}', 'text and data parts, joined');
    t.equal(
      (await rt.store.getRun(task.id))?.user_id,
      'carol',
      'metadata.userId for an anonymous caller',
    );

    const later = await postJson(
      rt,
      URL_A1,
      rpc('SendMessage', v1Send('/slow 2 10', {}, { returnImmediately: true }), 'bg'),
      { ...V1, 'x-user-id': 'dave' },
    );
    t.equal(later.statusCode, 200, 'returnImmediately is answered 200, never 202');
    t.match(later.json(), {
      jsonrpc: '2.0',
      id: 'bg',
      result: { task: { status: { state: 'TASK_STATE_WORKING' } } },
    });
  },
);

t.test('message/send (0.3) on the same endpoint answers the kind-tagged 0.3 task', async (t) => {
  const rt = runtimeApp(t);
  const res = await postJson(rt, URL_A1, rpc('message/send', legacySend('hello'), 7), {
    'a2a-version': '0.3',
  });
  t.equal(res.statusCode, 200);
  t.match(res.json(), {
    jsonrpc: '2.0',
    id: 7,
    result: {
      kind: 'task',
      status: { state: 'completed' },
      history: [{ kind: 'message', role: 'agent', parts: [{ kind: 'text', text: 'Echo: hello' }] }],
    },
  });
  const task = (res.json() as { result: { id: string } }).result;
  for (const [method, version, state] of [
    ['tasks/get', {}, 'completed'],
    ['GetTask', V1, 'TASK_STATE_COMPLETED'],
  ] as const) {
    const got = await postJson(rt, URL_A1, rpc(method, { id: task.id }, 8), version);
    t.match(
      got.json(),
      { jsonrpc: '2.0', id: 8, result: { id: task.id, status: { state } } },
      method,
    );
  }
  const background = await postJson(
    rt,
    URL_A1,
    rpc('message/send', { ...legacySend('/slow 2 10'), configuration: { blocking: false } }),
  );
  t.equal(background.statusCode, 200, 'a background run is answered 200 here');
  t.match(background.json(), { result: { kind: 'task', status: { state: 'working' } } });
});

t.test(
  'CancelTask / tasks/cancel: a paused task is canceled; an ended one is not cancelable',
  async (t) => {
    const rt = runtimeApp(t);
    for (const [method, headers, canceled] of [
      ['CancelTask', V1, { id: '', status: { state: 'TASK_STATE_CANCELED' } }],
      ['tasks/cancel', {}, { kind: 'task', id: '', status: { state: 'canceled' } }],
    ] as const) {
      const paused = await sendV1(rt, '/tool pick_color');
      t.equal(paused.status.state, 'TASK_STATE_INPUT_REQUIRED', 'a paused run waits for input');
      const res = await postJson(rt, URL_A1, rpc(method, { id: paused.id }, 3), headers);
      t.same(res.json(), {
        jsonrpc: '2.0',
        id: 3,
        result: { ...canceled, id: paused.id, contextId: paused.contextId },
      });
      t.equal((await rt.store.getRun(paused.id))?.status, 'CANCELLED', method);
      const again = await postJson(rt, URL_A1, rpc(method, { id: paused.id }, 4), headers);
      t.same(again.json(), {
        jsonrpc: '2.0',
        id: 4,
        error: {
          code: -32002,
          message: `Task ${paused.id} is cancelled and cannot be canceled`,
          ...(method === 'CancelTask' ? { data: errorInfo('TASK_NOT_CANCELABLE') } : {}),
        },
      });
    }
  },
);

t.test('ListTasks: the caller’s tasks of a context', async (t) => {
  const rt = runtimeApp(t);
  const first = await sendV1(rt, 'one');
  const second = await sendV1(rt, 'two', { contextId: first.contextId });
  const res = await postJson(rt, URL_A1, rpc('ListTasks', { contextId: first.contextId }), V1);
  t.match(res.json(), {
    result: {
      tasks: [{ id: first.id }, { id: second.id }],
      nextPageToken: '',
      pageSize: 2,
      totalSize: 2,
    },
  });
  const alice = contextHeader({ user_id: 'alice', scoped_user_id: 'alice' });
  for (const [name, contextId, headers] of [
    ['an unknown context', 'nope', V1],
    ['another component’s context', first.contextId, V1],
    ['another user’s context', first.contextId, { ...V1, ...alice }],
  ] as const) {
    const url = name === 'another component’s context' ? '/a2a/agents/a2/v1' : URL_A1;
    const other = await postJson(rt, url, rpc('ListTasks', { contextId }), headers);
    t.same((other.json() as { result: { tasks: [] } }).result.tasks, [], name);
  }
});

t.test('refusals: JSON-RPC error objects in a 200, with ErrorInfo for 1.0', async (t) => {
  const rt = runtimeApp(t);
  const done = await sendV1(rt, 'x');
  const rows: {
    name: string;
    body: unknown;
    headers?: Record<string, string>;
    url?: string;
    error: Record<string, unknown>;
    id?: unknown;
  }[] = [
    {
      name: 'not JSON',
      body: '{nope',
      error: { code: -32700, message: 'Parse error: the body is not JSON' },
      id: null,
    },
    {
      name: 'a batch',
      body: [rpc('GetTask', { id: 'x' })],
      error: { code: -32600, message: 'Batch requests are not supported' },
      id: null,
    },
    {
      name: 'a JSON string',
      body: '"x"',
      error: { code: -32600, message: 'Invalid request: the body must be a JSON object' },
      id: null,
    },
    {
      name: 'null',
      body: 'null',
      error: { code: -32600, message: 'Invalid request: the body must be a JSON object' },
      id: null,
    },
    {
      name: 'an object id',
      body: { ...rpc('GetTask', {}), id: {} },
      error: { code: -32600, message: 'Invalid request: id must be a string, an integer or null' },
      id: null,
    },
    {
      name: 'no id',
      body: { jsonrpc: '2.0', method: 'GetTask', params: {} },
      error: { code: -32600, message: 'Invalid request: id must be a string, an integer or null' },
      id: null,
    },
    {
      name: 'a fractional id',
      body: { ...rpc('GetTask', {}), id: 1.5 },
      error: { code: -32600, message: 'Invalid request: id must be a string, an integer or null' },
      id: null,
    },
    {
      name: 'jsonrpc 1.0',
      body: { ...rpc('GetTask', {}), jsonrpc: '1.0' },
      error: { code: -32600, message: 'Invalid request: jsonrpc must be "2.0"' },
    },
    {
      name: 'no jsonrpc',
      body: { method: 'GetTask', params: {}, id: 1 },
      error: { code: -32600, message: 'Invalid request: jsonrpc must be "2.0"' },
    },
    {
      name: 'a method that is not a string',
      body: rpc(5 as unknown as string, {}),
      error: { code: -32600, message: 'Invalid request: method must be a string' },
    },
    {
      name: 'an unknown method',
      body: rpc('tasks/list', {}),
      error: { code: -32601, message: 'Method not found: tasks/list' },
    },
    {
      name: 'params an array',
      body: rpc('GetTask', []),
      headers: V1,
      error: {
        code: -32602,
        message: 'Invalid params: params must be an object',
        data: errorInfo('INVALID_PARAMS'),
      },
    },
    {
      name: 'params a string',
      body: rpc('GetTask', 'x'),
      error: { code: -32602, message: 'Invalid params: params must be an object' },
    },
    {
      name: 'a tenant',
      body: rpc('GetTask', { id: done.id, tenant: 't1' }),
      headers: V1,
      error: {
        code: -32602,
        message: 'Invalid params: no tenant is served here',
        data: errorInfo('INVALID_PARAMS'),
      },
    },
    {
      name: 'an unsupported A2A-Version',
      body: rpc('GetTask', { id: done.id }),
      headers: { 'a2a-version': '2.0' },
      error: {
        code: -32009,
        message: 'A2A-Version not supported: this endpoint serves 1.0 and 0.3',
        data: errorInfo('VERSION_NOT_SUPPORTED'),
      },
    },
    {
      name: 'an unknown task (1.0)',
      body: rpc('GetTask', { id: 'nope' }),
      headers: V1,
      error: { code: -32001, message: 'Task not found', data: errorInfo('TASK_NOT_FOUND') },
    },
    {
      name: 'an unknown task (0.3)',
      body: rpc('tasks/get', { id: 'nope' }),
      error: { code: -32001, message: 'Task not found' },
    },
    {
      name: 'another agent’s task',
      body: rpc('GetTask', { id: done.id }),
      url: '/a2a/agents/a2/v1',
      headers: V1,
      error: { code: -32001, message: 'Task not found', data: errorInfo('TASK_NOT_FOUND') },
    },
    {
      name: 'another user’s task',
      body: rpc('GetTask', { id: done.id }),
      headers: { ...V1, ...contextHeader({ user_id: 'alice', scoped_user_id: 'alice' }) },
      error: { code: -32001, message: 'Task not found', data: errorInfo('TASK_NOT_FOUND') },
    },
    {
      name: 'no task id',
      body: rpc('GetTask', {}),
      headers: V1,
      error: {
        code: -32602,
        message: 'Task ID (params.id) is required',
        data: errorInfo('INVALID_PARAMS'),
      },
    },
    {
      name: 'ListTasks without a context',
      body: rpc('ListTasks', {}),
      headers: V1,
      error: {
        code: -32602,
        message: 'ListTasks needs a contextId',
        data: errorInfo('INVALID_PARAMS'),
      },
    },
    {
      name: 'a workflow’s tasks',
      body: rpc('GetTask', { id: done.id }),
      url: '/a2a/workflows/w1/v1',
      headers: V1,
      error: {
        code: -32004,
        message: 'Workflows keep no tasks',
        data: errorInfo('UNSUPPORTED_OPERATION'),
      },
    },
    {
      name: 'SubscribeToTask',
      body: rpc('SubscribeToTask', { id: done.id }),
      headers: V1,
      error: {
        code: -32004,
        message: 'Subscribing to a task is not supported',
        data: errorInfo('UNSUPPORTED_OPERATION'),
      },
    },
    {
      name: 'tasks/resubscribe',
      body: rpc('tasks/resubscribe', { id: done.id }),
      error: { code: -32004, message: 'Subscribing to a task is not supported' },
    },
    {
      name: 'GetExtendedAgentCard',
      body: rpc('GetExtendedAgentCard', {}),
      headers: V1,
      error: {
        code: -32004,
        message: 'There is no extended agent card',
        data: errorInfo('UNSUPPORTED_OPERATION'),
      },
    },
    {
      name: 'agent/getAuthenticatedExtendedCard',
      body: rpc('agent/getAuthenticatedExtendedCard', undefined),
      error: { code: -32004, message: 'There is no extended agent card' },
    },
    ...[
      'CreateTaskPushNotificationConfig',
      'GetTaskPushNotificationConfig',
      'ListTaskPushNotificationConfigs',
      'DeleteTaskPushNotificationConfig',
    ].map((method) => ({
      name: method,
      body: rpc(method, { taskId: done.id }),
      headers: V1,
      error: {
        code: -32003,
        message: 'Push notifications are not supported',
        data: errorInfo('PUSH_NOTIFICATION_NOT_SUPPORTED'),
      },
    })),
    ...['set', 'get', 'list', 'delete'].map((verb) => ({
      name: `tasks/pushNotificationConfig/${verb}`,
      body: rpc(`tasks/pushNotificationConfig/${verb}`, { id: done.id }),
      error: { code: -32003, message: 'Push notifications are not supported' },
    })),
    {
      name: 'SendMessage of the wrong shape',
      body: rpc('SendMessage', { message: { role: 'ROLE_USER', parts: [{}] } }),
      headers: V1,
      error: {
        code: -32602,
        message:
          'Invalid A2A request: message.messageId: Invalid input: expected string, received undefined; message.parts.0: a part holds exactly one of text, data, url or raw',
        data: errorInfo('INVALID_PARAMS'),
      },
    },
    {
      name: 'SendMessage from the agent',
      body: rpc('SendMessage', { message: { messageId: 'm', role: 'ROLE_AGENT', parts: [] } }),
      headers: V1,
      error: {
        code: -32602,
        message: 'Only user messages are accepted',
        data: errorInfo('INVALID_PARAMS'),
      },
    },
    {
      name: 'message/send of the wrong shape',
      body: rpc('message/send', { message: {} }),
      error: {
        code: -32602,
        message:
          'Invalid A2A request: params.message.messageId: Invalid input: expected string, received undefined; params.message.role: Invalid option: expected one of "user"|"agent"; params.message.parts: Invalid input: expected array, received undefined',
      },
    },
    {
      name: 'a reserved client user id',
      body: rpc('SendMessage', v1Send('x')),
      headers: { ...V1, 'x-user-id': 'sa:ops' },
      error: {
        code: -32602,
        message: 'Client-supplied user_id may not claim a reserved principal',
        data: errorInfo('INVALID_PARAMS'),
      },
    },
    {
      name: 'a message to an ended task',
      body: rpc('SendMessage', v1Send('x', { taskId: done.id })),
      headers: V1,
      error: {
        code: -32004,
        message: `Task ${done.id} is completed: only a task waiting for input takes a message`,
        data: errorInfo('UNSUPPORTED_OPERATION'),
      },
    },
    {
      name: 'a message to an unknown task',
      body: rpc('SendMessage', v1Send('x', { taskId: 'nope' })),
      headers: V1,
      error: { code: -32001, message: 'Task not found', data: errorInfo('TASK_NOT_FOUND') },
    },
    {
      name: 'a stream of the wrong shape',
      body: rpc('SendStreamingMessage', { message: 5 }),
      headers: V1,
      error: {
        code: -32602,
        message: 'Invalid A2A request: message: Invalid input: expected object, received number',
        data: errorInfo('INVALID_PARAMS'),
      },
    },
  ];
  for (const row of rows) {
    const res = await postJson(rt, row.url ?? URL_A1, row.body, row.headers ?? {});
    t.equal(res.statusCode, 200, row.name);
    t.match(res.headers['content-type'], /^application\/json/, row.name);
    t.same(
      res.json(),
      { jsonrpc: '2.0', id: 'id' in row ? row.id : 1, error: row.error },
      row.name,
    );
  }
  const empty = await rt.app.inject({
    method: 'POST',
    url: URL_A1,
    headers: { 'a2a-version': '9' },
  });
  t.same(
    empty.json(),
    {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: the body is not JSON' },
    },
    'no body at all, under a version not served: the envelope error first',
  );
  const unknown = await postJson(rt, '/a2a/agents/zz/v1', rpc('GetTask', { id: 'x' }), V1);
  t.equal(unknown.statusCode, 404, 'an unknown agent is the plain 404');
  t.same(unknown.json(), { detail: 'Agent not found' });
});

t.test(
  'SendStreamingMessage (1.0): task, artifact updates on one artifact, terminal status',
  async (t) => {
    const rt = runtimeApp(t);
    const res = await postJson(rt, URL_A1, rpc('SendStreamingMessage', v1Send('a b'), 2), {
      ...V1,
      accept: 'text/event-stream',
    });
    t.equal(res.statusCode, 200);
    t.match(res.headers['content-type'], /^text\/event-stream/);
    const frames = a2aFrames(res.body);
    for (const frame of frames) {
      t.equal(frame.data['jsonrpc'], '2.0');
      t.equal(frame.data['id'], 2, 'every frame is a full response to the request');
    }
    const results = frames.map((f) => f.data['result'] as Record<string, Record<string, unknown>>);
    const task = results[0]?.['task'] as { id: string; contextId: string };
    t.same(results[0], {
      task: { id: task.id, contextId: task.contextId, status: { state: 'TASK_STATE_SUBMITTED' } },
    });
    const { id: taskId, contextId } = task;
    const artifactId = (results[2]?.['artifactUpdate']?.['artifact'] as { artifactId: string })
      .artifactId;
    t.same(results.slice(1), [
      { statusUpdate: { taskId, contextId, status: { state: 'TASK_STATE_WORKING' } } },
      {
        artifactUpdate: {
          taskId,
          contextId,
          artifact: { artifactId, parts: [{ text: 'Echo:' }] },
          append: false,
        },
      },
      {
        artifactUpdate: {
          taskId,
          contextId,
          artifact: { artifactId, parts: [{ text: ' a' }] },
          append: true,
        },
      },
      {
        artifactUpdate: {
          taskId,
          contextId,
          artifact: { artifactId, parts: [{ text: ' b' }] },
          append: true,
        },
      },
      {
        statusUpdate: {
          taskId,
          contextId,
          status: { state: 'TASK_STATE_COMPLETED' },
        },
      },
    ]);
    t.same(
      frames.map((f) => f.event),
      [
        'Task',
        'TaskStatusUpdateEvent',
        'TaskArtifactUpdateEvent',
        'TaskArtifactUpdateEvent',
        'TaskArtifactUpdateEvent',
        'TaskStatusUpdateEvent',
      ],
    );
  },
);

t.test(
  '1.0 streams: tool and reasoning steps are status updates; failures and pauses carry their message',
  async (t) => {
    const rt = runtimeApp(t);
    const stream = async (
      text: string,
      method = 'SendStreamingMessage',
      params: unknown = v1Send(text),
    ) => {
      const res = await postJson(rt, URL_A1, rpc(method, params), V1);
      return a2aFrames(res.body).map(
        (f) => f.data['result'] as Record<string, Record<string, unknown>>,
      );
    };
    const tool = await stream('/tool add {"a": 2, "b": 3}');
    t.match(tool[2], {
      statusUpdate: {
        status: { state: 'TASK_STATE_WORKING' },
        metadata: {
          agno_event_type: 'tool_call_started',
          tool_name: 'add',
          tool_args: '{"a":2,"b":3}',
        },
      },
    });
    t.match(tool[3], { statusUpdate: { metadata: { agno_event_type: 'tool_call_completed' } } });
    t.match(tool.at(-1), { statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } } });

    const think = await stream('/think a b');
    t.same(
      think.map(
        (r) =>
          (r['statusUpdate']?.['metadata'] as { agno_event_type?: string } | undefined)
            ?.agno_event_type,
      ),
      [
        undefined,
        undefined,
        'reasoning_started',
        'reasoning_completed',
        undefined,
        undefined,
        undefined,
        undefined,
      ],
      'reasoning steps are working status updates',
    );

    const failed = await stream('/error model down');
    t.match(failed.at(-1), {
      statusUpdate: {
        status: {
          state: 'TASK_STATE_FAILED',
          message: { role: 'ROLE_AGENT', parts: [{ text: 'model down' }] },
        },
      },
    });

    const paused = await stream('/tool pick_color');
    t.match(paused.at(-1), {
      statusUpdate: {
        status: { state: 'TASK_STATE_INPUT_REQUIRED' },
        metadata: {
          agno_event_type: 'run_paused',
          pending: [{ tool_name: 'pick_color', tool_args: {}, waits_for: 'external_execution' }],
        },
      },
    });
    const taskId = (paused[0]?.['task'] as { id: string }).id;

    const answered = await stream('', 'message/stream', {
      message: {
        kind: 'message',
        messageId: 'm-3',
        role: 'user',
        taskId,
        parts: [{ kind: 'text', text: 'red' }],
      },
    });
    t.match(
      answered.at(-1),
      { kind: 'task', id: taskId, status: { state: 'completed' } },
      'a 0.3 stream answers the pause too',
    );
    t.match(
      answered.at(-1),
      { history: [{ parts: [{ text: 'Tool pick_color returned: red' }] }] },
      'the message text is the client tool’s result',
    );
  },
);

t.test(
  'a paused task is answered by a message naming it: confirmation, user input, a client tool',
  async (t) => {
    const rt = runtimeApp(t, {
      settings: {
        ...SETTINGS,
        agents: [
          ...SETTINGS.agents,
          {
            id: 'g1',
            name: 'Guarded',
            tools: [
              { name: 'echo', requires_confirmation: true },
              {
                name: 'set_state',
                requires_user_input: true,
                user_input_schema: [{ name: 'value' }],
              },
              {
                name: 'add',
                requires_user_input: true,
                user_input_schema: [{ name: 'a' }, { name: 'b' }],
              },
            ],
          },
        ],
      },
    });
    const url = '/a2a/agents/g1/v1';
    const rows = [
      {
        name: 'confirmed by text',
        call: '/tool echo {"text": "hi"}',
        answer: 'yes',
        result: /^Tool echo returned: /,
      },
      {
        name: 'confirmed by data',
        call: '/tool echo {"text": "hi"}',
        answer: '{"confirmed": true, "note": "fine"}',
        result: /^Tool echo returned: /,
      },
      {
        name: 'anything else rejects',
        call: '/tool echo {"text": "hi"}',
        answer: 'hmm',
        result: /^Tool echo was rejected/,
      },
      {
        name: 'one field from text',
        call: '/tool set_state {"key": "k"}',
        answer: 'blue',
        result: /^Tool set_state returned: /,
      },
      {
        name: 'fields from data',
        call: '/tool add {}',
        answer: '{"a": 2, "b": 5}',
        result: /^Tool add returned: 7/,
      },
    ];
    for (const row of rows) {
      const paused = await sendV1(rt, row.call, {}, url);
      t.equal(paused.status.state, 'TASK_STATE_INPUT_REQUIRED', row.name);
      const answered = await sendV1(rt, row.answer, { taskId: paused.id }, url);
      t.equal(answered.id, paused.id, `${row.name}: the same task goes on`);
      t.equal(answered.status.state, 'TASK_STATE_COMPLETED', row.name);
      t.match(answered.history, [{ parts: [{ text: row.result }] }], row.name);
    }
    const streamed = await postJson(
      rt,
      url,
      rpc('SendStreamingMessage', v1Send('/tool set_state {"key": "k"}')),
      V1,
    );
    t.match(a2aFrames(streamed.body).at(-1)?.data, {
      result: {
        statusUpdate: {
          metadata: {
            pending: [{ tool_name: 'set_state', waits_for: 'user_input', fields: ['value'] }],
          },
        },
      },
    });
    const paused = await sendV1(rt, '/tool add {}', {}, url);
    const res = await postJson(rt, url, rpc('SendMessage', v1Send('7', { taskId: paused.id })), V1);
    t.same(res.json(), {
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: -32602,
        message: 'Tool add waits for user input: send a JSON object of its fields',
        data: errorInfo('INVALID_PARAMS'),
      },
    });
  },
);

t.test('CancelTask mid-stream stops the run; the stream ends canceled', async (t) => {
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
    URL_A1,
    rpc('SendStreamingMessage', v1Send('/slow 50 10', { contextId: 'ctx-live' }), 's'),
    V1,
  );
  await sleeping.promise;
  const [live] = (await rt.store.listRuns('ctx-live')) as [RunRecord];
  t.equal(live.status, 'RUNNING');
  const cancel = await postJson(rt, URL_A1, rpc('CancelTask', { id: live.run_id }, 'c'), V1);
  t.same(cancel.json(), {
    jsonrpc: '2.0',
    id: 'c',
    result: { id: live.run_id, contextId: 'ctx-live', status: { state: 'TASK_STATE_CANCELED' } },
  });
  wake.resolve();
  const res = await streaming;
  const results = a2aFrames(res.body).map(
    (f) => f.data['result'] as Record<string, Record<string, unknown>>,
  );
  t.match(results.at(-1), {
    statusUpdate: {
      status: {
        state: 'TASK_STATE_CANCELED',
        message: { parts: [{}, { text: `Run was cancelled: Run ${live.run_id} was cancelled` }] },
      },
      metadata: { agno_event_type: 'run_cancelled' },
    },
  });
  t.equal((await rt.store.getRun(live.run_id))?.status, 'CANCELLED');
});
