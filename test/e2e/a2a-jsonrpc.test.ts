/**
 * A2A JSON-RPC authorized per method, through a real gateway (RS256 JWTs, real HTTP) in front of
 * a recording upstream: on `POST /a2a/<family>/<id>/v1` the method's own scope for the path's id
 * is the whole requirement (`required_scopes`, the 403 detail); every refusal is answered before
 * anything is forwarded; the per-operation paths refuse a JSON-RPC method that disagrees with
 * them; RBAC off reads nothing; metrics and the access log carry the method.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import t from 'tap';
import { A2A_METHODS } from '../../src/policy/a2a-methods.js';
import {
  assertForwarded,
  assertRefused,
  bearer,
  startPair,
  yamlOf,
  type Pair,
  type SendOptions,
} from '../fixtures/e2e.js';
import { RSA_KEY } from '../fixtures/keys.js';
import { captureTelemetry, parseMetrics, valueOf } from '../fixtures/observability.js';
import { goodToken, TEST_SERVICE_ID } from '../fixtures/tokens.js';

const MAX_BODY = 512;
const FORBIDDEN = 'Bearer realm="scopegate", error="insufficient_scope"';

function config(auth: Record<string, unknown> = {}, prefix = '/a2a'): string {
  return yamlOf({
    service_id: TEST_SERVICE_ID,
    a2a: { prefix, max_dispatch_body_bytes: MAX_BODY },
    auth: {
      verification_keys: [RSA_KEY.publicPem],
      algorithm: 'RS256',
      authorization: true,
      service_accounts: { enabled: false },
      ...auth,
    },
  });
}

/** A JSON-RPC call as the 1.3.0 client sends it (the method's params are not read). */
function call(method: string, params: unknown = { id: 'task-1' }, id: unknown = 1): string {
  return JSON.stringify({ jsonrpc: '2.0', method, params, id });
}

const SEND = call('SendMessage', {
  message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hello' }] },
  configuration: {},
});

async function post(
  token: string,
  path: string,
  body: string,
  extra: Partial<SendOptions> = {},
): Promise<SendOptions> {
  return {
    method: 'POST',
    path,
    body,
    ...extra,
    headers: {
      ...bearer(token),
      'content-type': 'application/json',
      ...(extra.headers as Record<string, string> | undefined),
    },
  };
}

const jwt = (scopes: string[]): Promise<string> => goodToken({ scopes });
const insufficient = (scope: string) => ({
  status: 403,
  detail: `Insufficient permissions. Required scope(s): ${scope}`,
  challenge: `${FORBIDDEN}, scope="${scope}"`,
});

t.test('acceptance: agents:a1:read may GetTask on a1 but not SendMessage', async (t) => {
  const pair = await startPair(t, { yaml: config() });
  const reader = await jwt(['agents:a1:read']);
  await assertRefused(
    t,
    pair,
    await post(reader, '/a2a/agents/a1/v1', SEND),
    insufficient('agents:run'),
  );
  const getTask = call('GetTask', { id: 'task-1' }, 3);
  const { received, context } = await assertForwarded(
    t,
    pair,
    await post(reader, '/a2a/agents/a1/v1', getTask),
  );
  t.equal(received.url, '/a2a/agents/a1/v1');
  t.equal(received.body, getTask, 'the bytes read are forwarded');
  t.same(context.required_scopes, ['agents:read'], 'the one scope checked');
});

t.test('acceptance: agents:a2:run is refused on a1, allowed on a2', async (t) => {
  const pair = await startPair(t, { yaml: config() });
  const runner = await jwt(['agents:a2:run']);
  await assertRefused(
    t,
    pair,
    await post(runner, '/a2a/agents/a1/v1', SEND),
    insufficient('agents:run'),
  );
  const { context } = await assertForwarded(t, pair, await post(runner, '/a2a/agents/a2/v1', SEND));
  t.same(context.required_scopes, ['agents:run']);
});

t.test('every known method needs its own scope for the path id, and only it', async (t) => {
  const pair = await startPair(t, { yaml: config() });
  const families = [
    ['agents', 'a1'],
    ['teams', 't1'],
    ['workflows', 'w1'],
  ] as const;
  for (const method of A2A_METHODS.values()) {
    const other = method.action === 'run' ? 'read' : 'run';
    for (const [family, id] of families) {
      const path = `/a2a/${family}/${id}/v1`;
      const body = call(method.name);
      const name = `${method.name} on ${family}`;
      const holder = await jwt([`${family}:${id}:${method.action}`]);
      const { context } = await assertForwarded(t, pair, await post(holder, path, body));
      t.same(context.required_scopes, [`${family}:${method.action}`], `${name}: required`);
      const global = await jwt([`${family}:${method.action}`]);
      await assertForwarded(t, pair, await post(global, path, body));
      const wrong = await jwt([`${family}:${id}:${other}`, `${family}:x9:${method.action}`]);
      await assertRefused(
        t,
        pair,
        await post(wrong, path, body),
        insufficient(`${family}:${method.action}`),
      );
    }
  }
});

t.test('the admin scope passes every method; the identity is reused per caller', async (t) => {
  const pair = await startPair(t, { yaml: config() });
  const admin = await jwt(['agent_os:admin']);
  const first = await assertForwarded(t, pair, await post(admin, '/a2a/teams/t1/v1', SEND));
  const second = await assertForwarded(t, pair, await post(admin, '/a2a/teams/t2/v1', SEND));
  t.same(first.context.required_scopes, ['teams:run']);
  t.equal(
    first.received.headers['x-auth-context'],
    second.received.headers['x-auth-context'],
    'the same identity for the same caller and requirement',
  );
});

t.test('refusals of the JSON-RPC endpoint: status, detail, nothing forwarded', async (t) => {
  const pair = await startPair(t, { yaml: config() });
  const token = await jwt(['agents:run', 'agents:read']);
  const invalid = (what: string) => ({
    status: 400,
    detail: `Invalid A2A JSON-RPC request: ${what}`,
    challenge: null,
  });
  const rows: {
    name: string;
    body: string;
    headers?: Record<string, string>;
    expected: ReturnType<typeof invalid>;
  }[] = [
    { name: 'not JSON', body: '{"jsonrpc":', expected: invalid('the body is not UTF-8 JSON') },
    { name: 'empty body', body: '', expected: invalid('the body is not UTF-8 JSON') },
    {
      name: 'a batch',
      body: `[${SEND}]`,
      expected: invalid('batch requests (a JSON array) are not supported'),
    },
    {
      name: 'a string',
      body: '"SendMessage"',
      expected: invalid('the body must be a JSON object'),
    },
    { name: 'null', body: 'null', expected: invalid('the body must be a JSON object') },
    {
      name: 'duplicate method',
      body: '{"jsonrpc":"2.0","method":"GetTask","params":{},"method":"SendMessage","id":1}',
      expected: invalid('the member "method" appears more than once'),
    },
    {
      name: 'duplicate method, escaped',
      body: '{"jsonrpc":"2.0","meth\\u006fd":"GetTask", "method" : "SendMessage"}',
      expected: invalid('the member "method" appears more than once'),
    },
    {
      name: 'duplicate params',
      body: '{"jsonrpc":"2.0","method":"GetTask","params":{"a":[1,{"b":"}"}]},"id":null,"params":{}}',
      expected: invalid('the member "params" appears more than once'),
    },
    {
      name: 'duplicate jsonrpc',
      body: '{"jsonrpc":"2.0","id":-1.5e3,"jsonrpc":"2.0","method":"GetTask"}',
      expected: invalid('the member "jsonrpc" appears more than once'),
    },
    {
      name: 'jsonrpc 1.0',
      body: '{"jsonrpc":"1.0","method":"GetTask","id":1}',
      expected: invalid('"jsonrpc" must be "2.0"'),
    },
    {
      name: 'no jsonrpc',
      body: '{"method":"GetTask","id":1}',
      expected: invalid('"jsonrpc" must be "2.0"'),
    },
    {
      name: 'method not a string',
      body: '{"jsonrpc":"2.0","method":7,"id":1}',
      expected: invalid('"method" must be a string'),
    },
    {
      name: 'no method',
      body: '{"jsonrpc":"2.0","id":1}',
      expected: invalid('"method" must be a string'),
    },
    {
      name: 'a fractional id',
      body: call('GetTask', {}, 1.5),
      expected: invalid('"id" must be a string, an integer or null'),
    },
    {
      name: 'an object id',
      body: call('GetTask', {}, { n: 1 }),
      expected: invalid('"id" must be a string, an integer or null'),
    },
    {
      name: 'params an array',
      body: call('GetTask', ['task-1']),
      expected: invalid('"params" must be a JSON object'),
    },
    {
      name: 'params null',
      body: call('GetTask', null),
      expected: invalid('"params" must be a JSON object'),
    },
    {
      name: 'a tenant',
      body: call('GetTask', { id: 'task-1', tenant: 'acme' }),
      expected: invalid('"params.tenant" is not supported (the entity is chosen by the path)'),
    },
    {
      name: 'an unknown method',
      body: call('DeleteEverything'),
      expected: invalid('the method is not an A2A method the gateway knows'),
    },
    {
      name: 'an extension method',
      body: call('ext/acme/summarize'),
      expected: invalid('the method is not an A2A method the gateway knows'),
    },
  ];
  for (const row of rows) {
    t.test(row.name, async (t) => {
      await assertRefused(t, pair, await post(token, '/a2a/agents/a1/v1', row.body), row.expected);
    });
  }
  t.test('an empty or null tenant and a notification (no id) pass', async (t) => {
    for (const body of [
      call('GetTask', { id: 'task-1', tenant: '' }),
      call('GetTask', { id: 'task-1', tenant: null }),
      JSON.stringify({ jsonrpc: '2.0', method: 'CancelTask', params: { id: 'task-1' } }),
      ' \r\n\t{ "jsonrpc" : "2.0" , "method" : "tasks/get" , "id" : "x" , "params" : { } } ',
    ]) {
      await assertForwarded(t, pair, await post(token, '/a2a/agents/a1/v1', body));
    }
  });
});

t.test('400: a body that is not UTF-8, sent as raw bytes', async (t) => {
  const pair = await startPair(t, { yaml: config() });
  const token = await jwt(['agents:read']);
  // 0xC3 0x28: a lead byte followed by one that cannot continue it.
  const body = Buffer.concat([
    Buffer.from('{"jsonrpc":"2.0","method":"GetTask","id":"'),
    Buffer.from([0xc3, 0x28]),
    Buffer.from('"}'),
  ]);
  const { hostname, port } = new URL(pair.gateway.url);
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        method: 'POST',
        path: '/a2a/agents/a1/v1',
        headers: { ...bearer(token), 'content-length': String(body.length) },
        agent: false,
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
  t.equal(answer.status, 400);
  t.same(JSON.parse(answer.body), {
    detail: 'Invalid A2A JSON-RPC request: the body is not UTF-8 JSON',
  });
  t.same(pair.upstream.received, [], 'never forwarded');
});

t.test('415: a Content-Encoding is refused before the body is read', async (t) => {
  const pair = await startPair(t, { yaml: config() });
  const token = await jwt(['agents:run']);
  await assertRefused(
    t,
    pair,
    await post(token, '/a2a/agents/a1/v1', SEND, { headers: { 'content-encoding': 'gzip' } }),
    {
      status: 415,
      detail:
        'Unsupported media type: an A2A JSON-RPC body must not carry a Content-Encoding (the ' +
        'gateway reads it to find the method)',
      challenge: null,
    },
  );
});

const TOO_LARGE = {
  status: 413,
  detail: `Request body too large: an A2A JSON-RPC body may be at most ${MAX_BODY} bytes (a2a.max_dispatch_body_bytes)`,
  challenge: null,
};

t.test('413: a declared or a streamed body past the bound', async (t) => {
  const pair = await startPair(t, { yaml: config() });
  const token = await jwt(['agents:run']);
  const big = call('SendMessage', { message: { parts: [{ text: 'x'.repeat(MAX_BODY) }] } });
  await assertRefused(t, pair, await post(token, '/a2a/agents/a1/v1', big), TOO_LARGE);
  await assertRefused(
    t,
    pair,
    await post(token, '/a2a/agents/a1/v1', '', {
      body: undefined,
      chunks: [big.slice(0, 50), big.slice(50)],
    }),
    TOO_LARGE,
  );
  const { received } = await assertForwarded(
    t,
    pair,
    await post(token, '/a2a/agents/a1/v1', '', {
      body: undefined,
      chunks: [SEND.slice(0, 9), SEND.slice(9)],
    }),
  );
  t.equal(received.body, SEND, 'a chunked body within the bound is forwarded whole');
});

t.test('the per-operation paths: a JSON-RPC method must match the path', async (t) => {
  const pair = await startPair(t, { yaml: config() });
  const token = await jwt(['agents:run', 'agents:read']);
  const mismatch = (path: string, methods: string) => ({
    status: 400,
    detail: `Invalid A2A JSON-RPC request: the method does not match the path (${path} serves ${methods})`,
    challenge: null,
  });
  const rows = [
    ['message:send', 'tasks/get', 'SendMessage or message/send'],
    ['message:stream', 'SendMessage', 'SendStreamingMessage or message/stream'],
    ['tasks:get', 'CancelTask', 'GetTask or tasks/get'],
    ['tasks:cancel', 'Nonsense', 'CancelTask or tasks/cancel'],
  ] as const;
  for (const [operation, wrong, served] of rows) {
    const path = `/a2a/agents/a1/v1/${operation}`;
    await assertRefused(t, pair, await post(token, path, call(wrong)), mismatch(operation, served));
    for (const right of served.split(' or ')) {
      await assertForwarded(t, pair, await post(token, path, call(right)));
    }
  }
  const rest = JSON.stringify({ message: { parts: [{ text: 'hi' }] }, method: 'tasks/get' });
  const { received } = await assertForwarded(
    t,
    pair,
    await post(token, '/a2a/agents/a1/v1/message:send', rest),
  );
  t.equal(received.body, rest, 'an HTTP+JSON body (no jsonrpc) is not checked for a method');
  await assertRefused(
    t,
    pair,
    await post(
      token,
      '/a2a/agents/a1/v1/message:send',
      '{"jsonrpc":"2.0","method":"message/send","method":"tasks/get"}',
    ),
    {
      status: 400,
      detail: 'Invalid A2A JSON-RPC request: the member "method" appears more than once',
      challenge: null,
    },
  );
  await assertRefused(t, pair, await post(token, '/a2a/agents/a1/v1/tasks:get', 'not json'), {
    status: 400,
    detail: 'Invalid A2A JSON-RPC request: the body is not UTF-8 JSON',
    challenge: null,
  });
  // The path decides first: a run-only caller never gets its tasks:get body read.
  const runner = await jwt(['agents:a1:run']);
  await assertRefused(
    t,
    pair,
    await post(runner, '/a2a/agents/a1/v1/tasks:get', '{'),
    insufficient('agents:read'),
  );
});

t.test('RBAC off: a JWT caller is not checked, the body streams on unread', async (t) => {
  const pair = await startPair(t, { yaml: config({ authorization: false }) });
  const { received } = await assertForwarded(
    t,
    pair,
    await post(await jwt([]), '/a2a/agents/a1/v1', '[not, json'),
  );
  t.equal(received.body, '[not, json');
});

t.test('other routes under v1 are untouched: GET …/v1 and a custom prefix', async (t) => {
  const pair = await startPair(t, {
    yaml: config({}, '/api/a2a'),
  });
  const token = await jwt(['agents:a1:read']);
  await assertRefused(
    t,
    pair,
    await post(token, '/api/a2a/agents/a1/v1', SEND),
    insufficient('agents:run'),
  );
  await assertForwarded(t, pair, await post(token, '/api/a2a/agents/a1/v1', call('GetTask')));
  // Outside the prefix the same shape is an ordinary unmapped route: its body is not read.
  const { received } = await assertForwarded(t, pair, await post(token, '/a2a/agents/a1/v1', '['));
  t.equal(received.body, '[');
  // Neither is a POST with more segments, nor another family's word in the family place.
  await assertRefused(
    t,
    pair,
    await post(token, '/api/a2a/agents/a1/v1/tasks', '['),
    insufficient('agents:run'),
  );
  await assertForwarded(t, pair, await post(token, '/api/a2a/sessions/a1/v1', '['));
  await assertRefused(
    t,
    pair,
    await post(token, '/api/a2a/agents/a1/v2', '{'),
    insufficient('agents:run'),
  );
  await assertForwarded(t, pair, {
    method: 'GET',
    path: '/api/a2a/agents/a1/v1',
    headers: bearer(token),
  });
});

t.test('metrics and the access log label the method, never caller input', async (t) => {
  const { telemetry, metrics, log } = captureTelemetry();
  const pair = await startPair(t, { yaml: config(), telemetry });
  const token = await jwt(['agents:a1:read']);
  await pair.send(await post(token, '/a2a/agents/a1/v1', call('GetTask')));
  await pair.send(await post(token, '/a2a/agents/a1/v1', call('message/send')));
  await pair.send(await post(token, '/a2a/agents/a1/v1', call('Made/Up')));
  await pair.send({ method: 'GET', path: '/agents/a1', headers: bearer(token) });
  const lines = await log.count(4);
  t.match(lines, [
    { route: 'unmatched', status: 200, a2a_method: 'GetTask', reason: 'scopes_satisfied' },
    { status: 403, a2a_method: 'message/send', reason: 'insufficient_scope', decision: 'deny' },
    { status: 400, a2a_method: 'invalid', reason: 'jsonrpc_method_unknown' },
    { status: 200 },
  ]);
  t.notOk('a2a_method' in (lines[3] as object), 'no method on other routes');
  const samples = parseMetrics(await metrics.registry.metrics());
  const name = 'scopegate_a2a_requests_total';
  t.equal(valueOf(t, samples, name, { method: 'GetTask', status: '200', decision: 'allow' }), 1);
  t.equal(
    valueOf(t, samples, name, { method: 'message/send', status: '403', decision: 'deny' }),
    1,
  );
  t.equal(valueOf(t, samples, name, { method: 'invalid', status: '400', decision: 'deny' }), 1);
});

t.test('a client that leaves while its body is read gets nothing forwarded', async (t) => {
  const pair = await startPair(t, { yaml: config() });
  const token = await jwt(['agents:run']);
  const { hostname, port } = new URL(pair.gateway.url);
  await new Promise<void>((resolve) => {
    const req = request({
      host: hostname,
      port,
      method: 'POST',
      path: '/a2a/agents/a1/v1',
      headers: { ...bearer(token), 'content-length': '100', expect: '100-continue' },
      agent: false,
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.on('continue', () => {
      req.write('{"jsonrpc": "2.0"');
      req.destroy();
    });
    req.flushHeaders();
  });
  await assertForwarded(t, pair, await post(token, '/a2a/agents/a1/v1', SEND));
  t.equal(pair.upstream.received.length, 1, 'only the complete request was forwarded');
});

t.test('413 on the declared length, before any byte is read', async (t) => {
  const pair: Pair = await startPair(t, { yaml: config() });
  const token = await jwt(['agents:run']);
  const { hostname, port } = new URL(pair.gateway.url);
  const head = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        [
          'POST /a2a/agents/a1/v1 HTTP/1.1',
          `Host: ${hostname}:${port}`,
          `Authorization: Bearer ${token}`,
          'Content-Type: application/json',
          `Content-Length: ${MAX_BODY + 1}`,
          '',
          '',
        ].join('\r\n'),
      );
    });
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\r\n\r\n') && text.endsWith('}')) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on('error', reject);
  });
  t.match(head, /^HTTP\/1\.1 413 Payload Too Large\r\n/);
  t.match(head, JSON.stringify({ detail: TOO_LARGE.detail }));
  t.same(pair.upstream.received, []);
});
