/**
 * The one writer of refusals: status, `{"detail"}` JSON body,
 * headers and RFC 6750 challenges, written on a real server.
 */
import {
  createServer,
  request,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import t, { type Test } from 'tap';
import { reject, type Refusal } from '../../src/gateway/rejections.js';
import {
  challengeOf,
  responseHead,
  writeRefusal,
  writeRefusalToSocket,
  writeReply,
} from '../../src/gateway/respond.js';

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** Whether the whole response arrived (false: the server cut it off). */
  readonly complete: boolean;
}

/** A server on port 0 answering every request with `handler`; closed with the test. */
async function serve(
  t: Test,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<(method?: string) => Promise<Answer>> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  const { port } = server.address() as AddressInfo;
  return (method = 'GET') =>
    new Promise<Answer>((resolve, fail) => {
      const req = request({ host: '127.0.0.1', port, method, path: '/x', agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', () => {});
        res.on('close', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            complete: res.complete,
          }),
        );
      });
      req.on('error', fail);
      req.end();
    });
}

t.test('challengeOf for each challenge kind', async (t) => {
  const rows: { name: string; refusal: Refusal; want: string | undefined }[] = [
    {
      name: 'bearer (no credential presented)',
      refusal: reject('SG_ERR_AUTH_MISSING'),
      want: 'Bearer realm="scopegate"',
    },
    {
      name: 'invalid_token (a credential was presented)',
      refusal: reject('SG_ERR_AUTH_TOKEN_EXPIRED'),
      want: 'Bearer realm="scopegate", error="invalid_token"',
    },
    {
      name: 'insufficient_scope with the required scopes',
      refusal: reject('SG_ERR_SCOPE_INSUFFICIENT', { scopes: ['agents:read', 'config:read'] }),
      want: 'Bearer realm="scopegate", error="insufficient_scope", scope="agents:read config:read"',
    },
    {
      name: 'insufficient_scope without params',
      refusal: reject('SG_ERR_SCOPE_INSUFFICIENT'),
      want: 'Bearer realm="scopegate", error="insufficient_scope", scope=""',
    },
    {
      name: 'no challenge (403 unmapped)',
      refusal: reject('SG_ERR_ROUTE_UNMAPPED'),
      want: undefined,
    },
    {
      name: 'no challenge (400 path)',
      refusal: reject('SG_ERR_PATH_DOT_SEGMENT'),
      want: undefined,
    },
    { name: 'no challenge (502)', refusal: reject('SG_ERR_UPSTREAM_UNREACHABLE'), want: undefined },
  ];
  for (const row of rows) t.equal(challengeOf(row.refusal), row.want, row.name);
});

t.test('writeRefusal writes status, JSON body and headers', async (t) => {
  const rows: {
    name: string;
    refusal: Refusal;
    extra?: Record<string, string>;
    status: number;
    detail: string;
    challenge: string | undefined;
  }[] = [
    {
      name: '401 missing credential',
      refusal: reject('SG_ERR_AUTH_MISSING', { expected: { header: 'Authorization' } }),
      extra: { 'x-request-id': 'req-9', 'access-control-allow-origin': 'https://app.example' },
      status: 401,
      detail: 'Not authenticated: expected a bearer token in the Authorization header',
      challenge: 'Bearer realm="scopegate"',
    },
    {
      name: '403 insufficient scope',
      refusal: reject('SG_ERR_SCOPE_INSUFFICIENT', { scopes: ['a:read', 'b:run'] }),
      status: 403,
      detail: 'Insufficient permissions. Required scope(s): a:read, b:run',
      challenge: 'Bearer realm="scopegate", error="insufficient_scope", scope="a:read b:run"',
    },
    {
      name: '504 upstream time-out',
      refusal: reject('SG_ERR_UPSTREAM_TIMEOUT'),
      status: 504,
      detail: 'Gateway time-out: the upstream did not answer in time',
      challenge: undefined,
    },
    {
      name: '400 path: a detail with quotes and a backslash, no extra headers',
      refusal: reject('SG_ERR_PATH_FORBIDDEN_CHARACTER'),
      status: 400,
      detail: 'Invalid request path: "\\", NUL, ";" and "#" are not allowed in the path',
      challenge: undefined,
    },
  ];
  for (const row of rows) {
    const send = await serve(t, (_req, res) =>
      row.extra === undefined
        ? writeRefusal(res, row.refusal)
        : writeRefusal(res, row.refusal, row.extra),
    );
    const answer = await send();
    t.equal(answer.status, row.status, `${row.name}: status`);
    t.same(JSON.parse(answer.body), { detail: row.detail }, `${row.name}: body`);
    t.equal(answer.headers['content-type'], 'application/json', `${row.name}: content-type`);
    t.equal(
      answer.headers['content-length'],
      String(Buffer.byteLength(answer.body)),
      `${row.name}: content-length`,
    );
    t.equal(answer.headers['cache-control'], 'no-store', `${row.name}: cache-control`);
    t.equal(answer.headers['www-authenticate'], row.challenge, `${row.name}: www-authenticate`);
    for (const [name, value] of Object.entries(row.extra ?? {})) {
      t.equal(answer.headers[name], value, `${row.name}: ${name}`);
    }
  }
});

t.test('extra headers cannot override the fixed ones', async (t) => {
  const send = await serve(t, (_req, res) =>
    writeRefusal(res, reject('SG_ERR_INTERNAL'), {
      'content-type': 'text/html',
      'cache-control': 'public, max-age=3600',
    }),
  );
  const answer = await send();
  t.equal(answer.status, 500);
  t.equal(answer.headers['content-type'], 'application/json');
  t.equal(answer.headers['cache-control'], 'no-store');
  t.same(JSON.parse(answer.body), { detail: 'Internal gateway error' });
});

t.test('HEAD gets the headers and no body', async (t) => {
  const send = await serve(t, (_req, res) =>
    writeRefusal(res, reject('SG_ERR_AUTH_TOKEN_EXPIRED')),
  );
  const head = await send('HEAD');
  t.equal(head.status, 401);
  t.equal(head.body, '');
  t.equal(
    head.headers['content-length'],
    String(Buffer.byteLength(JSON.stringify({ detail: 'Token has expired' }))),
    'the length GET would have',
  );
  t.equal(head.headers['www-authenticate'], 'Bearer realm="scopegate", error="invalid_token"');
  t.ok(head.complete);
});

t.test('a response whose headers already went out is cut off, not rewritten', async (t) => {
  const send = await serve(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('event: first\n\n', () => writeRefusal(res, reject('SG_ERR_UPSTREAM_UNREACHABLE')));
  });
  const answer = await send();
  t.equal(answer.status, 200, 'the status already sent stays');
  t.equal(answer.body, 'event: first\n\n', 'no refusal body is appended');
  t.equal(answer.complete, false, 'the response is cut off');
});

t.test('a 422 sends its validation list as detail; a 405 sends Allow', async (t) => {
  const validation = [
    { type: 'missing', loc: ['body', 'name'], msg: 'name is required', input: null },
  ];
  const send422 = await serve(t, (_req, res) =>
    writeRefusal(res, reject('SG_ERR_SA_REQUEST_INVALID', { validation })),
  );
  const invalid = await send422();
  t.equal(invalid.status, 422);
  t.same(JSON.parse(invalid.body), { detail: validation });
  t.equal(invalid.headers['allow'], undefined);
  const send405 = await serve(t, (_req, res) =>
    writeRefusal(
      res,
      reject('SG_ERR_SA_METHOD_NOT_ALLOWED', { route: 'PUT /x', allow: ['GET', 'POST'] }),
    ),
  );
  const notAllowed = await send405('PUT');
  t.equal(notAllowed.status, 405);
  t.equal(notAllowed.headers['allow'], 'GET, POST');
  t.same(JSON.parse(notAllowed.body), {
    detail: 'Method not allowed: PUT /x supports GET, POST',
  });
});

t.test('writeReply: JSON with no-store, HEAD without a body, 204 with none', async (t) => {
  const json = await serve(t, (_req, res) =>
    writeReply(res, { status: 201, body: { id: 'x' } }, { 'x-request-id': 'r-1' }),
  );
  const created = await json();
  t.equal(created.status, 201);
  t.same(JSON.parse(created.body), { id: 'x' });
  t.equal(created.headers['content-type'], 'application/json');
  t.equal(created.headers['content-length'], String(Buffer.byteLength('{"id":"x"}')));
  t.equal(created.headers['cache-control'], 'no-store');
  t.equal(created.headers['x-request-id'], 'r-1');
  const head = await json('HEAD');
  t.equal(head.body, '');
  t.equal(head.headers['content-length'], String(Buffer.byteLength('{"id":"x"}')));
  const empty = await serve(t, (_req, res) => writeReply(res, { status: 204 }));
  const none = await empty('DELETE');
  t.equal(none.status, 204);
  t.equal(none.body, '');
  t.equal(none.headers['content-type'], undefined);
  t.equal(none.headers['cache-control'], 'no-store');
});

t.test("writeReply: a reply's own headers win over the extra ones", async (t) => {
  const get = await serve(t, (_req, res) =>
    writeReply(
      res,
      { status: 204, headers: { vary: 'Origin, Access-Control-Request-Method' } },
      { 'x-request-id': 'r-2', vary: 'Origin' },
    ),
  );
  const answer = await get('OPTIONS');
  t.equal(answer.status, 204);
  t.equal(answer.headers.vary, 'Origin, Access-Control-Request-Method');
  t.equal(answer.headers['x-request-id'], 'r-2');
});

t.test('responseHead: status line, one line per value, the blank line', async (t) => {
  t.equal(
    responseHead(101, { upgrade: 'websocket', 'set-cookie': ['a=1', 'b=2'], 'content-length': 0 }),
    'HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nset-cookie: a=1\r\n' +
      'set-cookie: b=2\r\ncontent-length: 0\r\n\r\n',
  );
  t.equal(responseHead(599, {}), 'HTTP/1.1 599 \r\n\r\n', 'a status without a reason phrase');
});

t.test('writeRefusalToSocket: a whole HTTP response, then the socket is ended', async (t) => {
  const socket = new PassThrough();
  const written: Buffer[] = [];
  socket.on('data', (c: Buffer) => written.push(c));
  const ended = new Promise<void>((r) => socket.once('finish', () => r()));
  writeRefusalToSocket(
    socket,
    reject('SG_ERR_AUTH_MISSING', { expected: { header: 'Authorization' } }),
    {
      'x-request-id': 'u-1',
    },
  );
  await ended;
  const text = Buffer.concat(written).toString();
  const body =
    '{"detail":"Not authenticated: expected a bearer token in the Authorization header"}';
  t.equal(
    text,
    'HTTP/1.1 401 Unauthorized\r\nx-request-id: u-1\r\ncontent-type: application/json\r\n' +
      `content-length: ${body.length}\r\ncache-control: no-store\r\n` +
      'www-authenticate: Bearer realm="scopegate"\r\nconnection: close\r\n\r\n' +
      body,
  );
  const gone = new PassThrough();
  gone.destroy();
  writeRefusalToSocket(gone, reject('SG_ERR_INTERNAL'));
  t.equal(gone.writableLength, 0, 'a socket already destroyed gets nothing');
});
