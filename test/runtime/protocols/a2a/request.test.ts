/**
 * A2A request bodies: the JSON-RPC and HTTP+JSON message requests, their 400
 * details, the dynamic-dispatch target and the task requests.
 */
import t from 'tap';
import {
  dispatchTargetOf,
  parseJsonBody,
  parseMessageRequest,
  parseTaskRequest,
  transportOf,
} from '../../../../src/runtime/protocols/a2a/request.js';
import { HttpError } from '../../../../src/runtime/http/errors.js';

/** A JSON-RPC message/send body; `message` fields replace the defaults. */
const rpc = (message: Record<string, unknown> = {}, rest: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: 'r1',
  method: 'message/send',
  params: {
    message: {
      kind: 'message',
      messageId: 'm1',
      role: 'user',
      parts: [{ kind: 'text', text: 'hello' }],
      ...message,
    },
  },
  ...rest,
});

/** An HTTP+JSON (protobuf JSON) SendMessageRequest as RestTransport sends it. */
const restBody = (message: Record<string, unknown> = {}, rest: Record<string, unknown> = {}) => ({
  message: { messageId: 'm1', role: 'ROLE_USER', content: [{ text: 'hello' }], ...message },
  ...rest,
});

/** The detail of the HttpError `fn` throws (fails the test when it does not throw one). */
function detailOf(fn: () => unknown): { status: number; detail: unknown } {
  try {
    fn();
  } catch (error) {
    if (error instanceof HttpError) return { status: error.status, detail: error.detail };
    throw error;
  }
  throw new Error('did not throw');
}

t.test('a raw body that is not JSON is 400', async (t) => {
  t.same(parseJsonBody('{"a": 1}'), { a: 1 });
  for (const raw of ['nope', '', undefined, '{"a":']) {
    t.same(
      detailOf(() => parseJsonBody(raw)),
      { status: 400, detail: 'Invalid A2A request: the body is not JSON' },
      JSON.stringify(raw),
    );
  }
});

t.test('a body with a jsonrpc member is JSON-RPC; anything else is HTTP+JSON', async (t) => {
  t.equal(transportOf(rpc()), 'jsonrpc');
  t.equal(transportOf({ jsonrpc: null }), 'jsonrpc');
  t.equal(transportOf(restBody()), 'rest');
  t.equal(transportOf({ id: 1, params: {} }), 'rest');
  t.equal(transportOf([]), 'rest');
  t.equal(transportOf(null), 'rest');
});

t.test('a JSON-RPC message request', async (t) => {
  t.same(parseMessageRequest(rpc(), 'message/send'), {
    transport: 'jsonrpc',
    id: 'r1',
    text: 'hello',
    contextId: null,
    taskId: null,
    userId: null,
    blocking: true,
  });
  const parsed = parseMessageRequest(
    {
      jsonrpc: '2.0',
      id: 7,
      params: {
        message: {
          messageId: 'm',
          role: 'user',
          contextId: 'ctx',
          taskId: 'task-1',
          metadata: { userId: 'carol', other: 1 },
          parts: [
            { kind: 'text', text: 'one' },
            { kind: 'file', file: { uri: 'https://x/y.png', mimeType: 'image/png' } },
            { kind: 'data', data: { a: [1, 2] } },
            { kind: 'file', file: { bytes: 'AAAA', name: 'f.bin' } },
            { kind: 'text', text: 'two' },
          ],
        },
        configuration: { blocking: false, acceptedOutputModes: ['text'] },
        metadata: {},
      },
    },
    'message/stream',
  );
  t.same(parsed, {
    transport: 'jsonrpc',
    id: 7,
    text: 'one\n{"a":[1,2]}\ntwo',
    contextId: 'ctx',
    taskId: 'task-1',
    userId: 'carol',
    blocking: false,
  });
  t.equal(
    parseMessageRequest(rpc({ metadata: { userId: 5 } }), 'message/send').userId,
    null,
    'a userId that is not a string is ignored',
  );
  t.equal(parseMessageRequest(rpc({ parts: [] }), 'message/send').text, '', 'no parts, no text');
  for (const configuration of [null, {}, { blocking: null }, { blocking: true }]) {
    const body = rpc();
    t.equal(
      parseMessageRequest({ ...body, params: { ...body.params, configuration } }, 'message/send')
        .blocking,
      true,
      `blocking with configuration ${JSON.stringify(configuration)}`,
    );
  }
  const noMethod = { ...rpc(), method: undefined };
  t.equal(parseMessageRequest(noMethod, 'message/stream').id, 'r1', 'method is optional');
  const noVersion = { ...rpc(), jsonrpc: undefined };
  t.equal(
    parseMessageRequest(noVersion, 'message/send', 'jsonrpc').id,
    'r1',
    'dispatch bodies need no jsonrpc member',
  );
});

t.test('an HTTP+JSON message request', async (t) => {
  t.same(parseMessageRequest(restBody(), 'message/send'), {
    transport: 'rest',
    id: null,
    text: 'hello',
    contextId: null,
    taskId: null,
    userId: null,
    blocking: true,
  });
  t.same(
    parseMessageRequest(
      restBody({
        contextId: 'ctx',
        taskId: 't',
        metadata: { userId: 'dave' },
        content: [
          { text: 'one' },
          { file: { fileWithUri: 'https://x/a.mp3', mimeType: 'audio/mpeg' } },
          { file: { fileWithBytes: 'AAAA' } },
          { data: { data: { k: 'v' } } },
        ],
      }),
      'message/stream',
    ),
    {
      transport: 'rest',
      id: null,
      text: 'one\n{"k":"v"}',
      contextId: 'ctx',
      taskId: 't',
      userId: 'dave',
      blocking: true,
    },
  );
  t.equal(
    parseMessageRequest(restBody({ content: undefined }), 'message/send').text,
    '',
    'an empty content list is left out in protobuf JSON',
  );
  const blocking = (configuration: unknown) =>
    parseMessageRequest(restBody({}, { configuration }), 'message/send').blocking;
  t.equal(blocking(undefined), true, 'no configuration: blocking');
  t.equal(blocking({ blocking: true }), true);
  t.equal(blocking({}), false, 'protobuf JSON leaves blocking: false out');
  t.equal(blocking({ acceptedOutputModes: ['text'] }), false);
});

t.test('bad message requests are 400 with the reason', async (t) => {
  const rows: { name: string; body: unknown; transport?: 'jsonrpc'; detail: string }[] = [
    {
      name: 'JSON-RPC: not an object',
      body: [],
      transport: 'jsonrpc',
      detail: 'Invalid A2A request: Invalid input: expected object, received array',
    },
    {
      name: 'JSON-RPC: no id, no params',
      body: { jsonrpc: '2.0' },
      detail:
        'Invalid A2A request: id: must be a string or an integer; ' +
        'params: Invalid input: expected object, received undefined',
    },
    {
      name: 'JSON-RPC: a fractional id',
      body: { ...rpc(), id: 1.5 },
      detail: 'Invalid A2A request: id: must be a string or an integer',
    },
    {
      name: 'JSON-RPC: another version',
      body: { ...rpc(), jsonrpc: '1.0' },
      detail: 'Invalid A2A request: jsonrpc: Invalid input: expected "2.0"',
    },
    {
      name: 'JSON-RPC: another method',
      body: { ...rpc(), method: 'message/stream' },
      detail:
        'Invalid A2A request: method "message/stream" is not served here (expected "message/send")',
    },
    {
      name: 'JSON-RPC: no message',
      body: { ...rpc(), params: {} },
      detail:
        'Invalid A2A request: params.message: Invalid input: expected object, received undefined',
    },
    {
      name: 'JSON-RPC: message fields missing',
      body: { jsonrpc: '2.0', id: 1, params: { message: { kind: 'message' } } },
      detail:
        'Invalid A2A request: params.message.messageId: Invalid input: expected string, received undefined; ' +
        'params.message.role: Invalid option: expected one of "user"|"agent"; ' +
        'params.message.parts: Invalid input: expected array, received undefined',
    },
    {
      name: 'JSON-RPC: another kind',
      body: rpc({ kind: 'task' }),
      detail: 'Invalid A2A request: params.message.kind: Invalid input: expected "message"',
    },
    {
      name: 'JSON-RPC: a role that does not exist',
      body: rpc({ role: 'system' }),
      detail:
        'Invalid A2A request: params.message.role: Invalid option: expected one of "user"|"agent"',
    },
    {
      name: 'JSON-RPC: an unknown part kind',
      body: rpc({ parts: [{ kind: 'image', url: 'x' }] }),
      detail:
        "Invalid A2A request: params.message.parts.0.kind: Invalid discriminator value. Expected 'text' | 'file' | 'data'",
    },
    {
      name: 'JSON-RPC: a text part without text',
      body: rpc({ parts: [{ kind: 'text' }] }),
      detail:
        'Invalid A2A request: params.message.parts.0.text: Invalid input: expected string, received undefined',
    },
    {
      name: 'JSON-RPC: a file part without uri or bytes',
      body: rpc({ parts: [{ kind: 'file', file: { mimeType: 'image/png' } }] }),
      detail: 'Invalid A2A request: params.message.parts.0.file: must hold a uri or bytes string',
    },
    {
      name: 'JSON-RPC: a data part that is not an object',
      body: rpc({ parts: [{ kind: 'data', data: 'x' }] }),
      detail:
        'Invalid A2A request: params.message.parts.0.data: Invalid input: expected record, received string',
    },
    {
      name: 'JSON-RPC: metadata that is not an object',
      body: rpc({ metadata: 'x' }),
      detail:
        'Invalid A2A request: params.message.metadata: Invalid input: expected record, received string',
    },
    {
      name: 'JSON-RPC: blocking that is not a boolean',
      body: { ...rpc(), params: { ...rpc().params, configuration: { blocking: 'no' } } },
      detail:
        'Invalid A2A request: params.configuration.blocking: Invalid input: expected boolean, received string',
    },
    {
      name: 'HTTP+JSON: no message',
      body: {},
      detail: 'Invalid A2A request: message: Invalid input: expected object, received undefined',
    },
    {
      name: 'HTTP+JSON: a JSON-RPC body without jsonrpc',
      body: { id: 1, params: rpc().params },
      detail: 'Invalid A2A request: message: Invalid input: expected object, received undefined',
    },
    {
      name: 'HTTP+JSON: role unspecified',
      body: restBody({ role: undefined }),
      detail:
        'Invalid A2A request: message.role: Invalid option: expected one of "ROLE_USER"|"ROLE_AGENT"',
    },
    {
      name: 'HTTP+JSON: a part of no known shape',
      body: restBody({ content: [{ image: 'x' }] }),
      detail:
        'Invalid A2A request: message.content.0: must be {text}, {file: {fileWithUri|fileWithBytes, mimeType}} or {data: {data}}',
    },
    {
      name: 'HTTP+JSON: blocking that is not a boolean',
      body: restBody({}, { configuration: { blocking: 1 } }),
      detail:
        'Invalid A2A request: configuration.blocking: Invalid input: expected boolean, received number',
    },
  ];
  for (const row of rows) {
    t.same(
      detailOf(() => parseMessageRequest(row.body, 'message/send', row.transport)),
      { status: 400, detail: row.detail },
      row.name,
    );
  }
});

t.test('only user messages are accepted, in both bindings', async (t) => {
  for (const body of [rpc({ role: 'agent' }), restBody({ role: 'ROLE_AGENT' })]) {
    t.same(
      detailOf(() => parseMessageRequest(body, 'message/send')),
      {
        status: 400,
        detail: 'Only user messages are accepted',
      },
    );
  }
});

t.test('the dispatch target: params.message.agentId first, then X-Agent-ID', async (t) => {
  const withAgent = (agentId: unknown) => rpc({ agentId });
  t.equal(dispatchTargetOf(withAgent('a1'), 't1'), 'a1', 'the body wins');
  t.equal(dispatchTargetOf(withAgent('a1'), undefined), 'a1');
  t.equal(dispatchTargetOf(rpc(), 't1'), 't1', 'the header when the body names none');
  t.equal(dispatchTargetOf(withAgent(''), 't1'), 't1', 'an empty agentId names none');
  t.equal(dispatchTargetOf(withAgent(5), 't1'), 't1', 'nor does one that is not a string');
  t.equal(dispatchTargetOf(rpc(), ''), null, 'an empty header names none');
  t.equal(dispatchTargetOf(rpc(), undefined), null);
  for (const body of [null, [], { params: 'x' }, { params: { message: 'x' } }]) {
    t.equal(dispatchTargetOf(body, undefined), null, JSON.stringify(body));
  }
});

t.test('task requests: params.id is required; contextId is returned as given', async (t) => {
  t.same(parseTaskRequest({ jsonrpc: '2.0', id: 3, params: { id: 'r', contextId: 's' } }), {
    id: 3,
    taskId: 'r',
    contextId: 's',
  });
  t.same(parseTaskRequest({ id: 'x', params: { id: 'r' } }), {
    id: 'x',
    taskId: 'r',
    contextId: null,
  });
  t.same(
    parseTaskRequest({ id: { no: 1 }, params: { id: 'r', contextId: '' } }),
    { id: null, taskId: 'r', contextId: null },
    'an id that is neither string nor number is echoed as null; an empty contextId is none',
  );
  for (const body of [{}, { params: null }, { params: { id: '' } }, { params: { id: 5 } }]) {
    t.same(
      detailOf(() => parseTaskRequest(body)),
      { status: 400, detail: 'Task ID (params.id) is required' },
      JSON.stringify(body),
    );
  }
  for (const body of [null, [], 'x']) {
    t.same(
      detailOf(() => parseTaskRequest(body)),
      { status: 400, detail: 'Invalid A2A request: the body must be a JSON object' },
      JSON.stringify(body),
    );
  }
});
