/**
 * The runtime's HTTP server: its core routes, its error handler (handled
 * errors, Fastify's own client errors, unexpected throws), and `startRuntime`'s settings check,
 * database placement, listen failure and close.
 */
import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import t from 'tap';
import { startRuntime } from '../../src/runtime/start.js';
import { send } from '../fixtures/e2e.js';
import { createTestClock } from '../fixtures/tokens.js';
import { recordingListener } from './fixtures/outbound.js';
import {
  anonymousHeader,
  FORM,
  form,
  runtimeApp,
  SETTINGS,
  TEST_IDENTITY_SECRET,
  TEST_NOW_ISO,
} from './fixtures/runtime.js';

t.test('GET / names the OS; GET /health says ok and when it started', async (t) => {
  const { app } = runtimeApp(t);
  const root = await app.inject({ url: '/' });
  t.equal(root.statusCode, 200);
  t.same(root.json(), { name: 'AgentOS API', id: 'route-tests', version: '1.0.0' });
  const health = await app.inject({ url: '/health' });
  t.equal(health.statusCode, 200);
  t.same(health.json(), { status: 'ok', instantiated_at: '2030-01-01T00:00:00.000Z' });
});

t.test('the os id defaults when the settings leave it out', async (t) => {
  const { app } = runtimeApp(t, { settings: {} });
  t.same((await app.inject({ url: '/' })).json(), {
    name: 'AgentOS API',
    id: 'scopegate-runtime',
    version: '1.0.0',
  });
});

t.test('an unknown path is 404 Not Found', async (t) => {
  const { app } = runtimeApp(t);
  const rows = [
    { name: 'unknown GET', method: 'GET', url: '/nope' },
    { name: 'unknown POST', method: 'POST', url: '/nope' },
    { name: 'below a known path', method: 'GET', url: '/agents/a1/extra' },
  ] as const;
  for (const row of rows) {
    const res = await app.inject({ method: row.method, url: row.url });
    t.equal(res.statusCode, 404, `${row.name}: 404`);
    t.same(res.json(), { detail: 'Not Found' }, `${row.name}: detail`);
  }
});

t.test('a known path with the wrong method is 405', async (t) => {
  const { app } = runtimeApp(t);
  const rows = [
    { method: 'DELETE', url: '/health' },
    { method: 'POST', url: '/' },
    { method: 'PUT', url: '/agents/a1/runs' },
  ] as const;
  for (const row of rows) {
    const res = await app.inject({ method: row.method, url: row.url });
    t.equal(res.statusCode, 405, `${row.method} ${row.url}: 405`);
    t.same(res.json(), { detail: 'Method Not Allowed' }, `${row.method} ${row.url}: detail`);
  }
});

t.test('a handled error is its status with {detail}: a string or a validation list', async (t) => {
  const { app } = runtimeApp(t);
  const notFound = await app.inject({ url: '/workflows/zz' });
  t.equal(notFound.statusCode, 404);
  t.same(notFound.json(), { detail: 'Workflow not found' });
  const invalid = await app.inject({
    method: 'POST',
    url: '/agents/a1/runs',
    headers: FORM,
    payload: '',
  });
  t.equal(invalid.statusCode, 422);
  t.same(invalid.json(), {
    detail: [{ type: 'missing', loc: ['body', 'message'], msg: 'Field required', input: null }],
  });
});

t.test('Fastify client errors keep their status and say what went wrong', async (t) => {
  const { app } = runtimeApp(t);
  const rows = [
    {
      name: 'malformed JSON',
      headers: { 'content-type': 'application/json' },
      payload: '{"message": ',
      status: 400,
      detail: "Body is not valid JSON but content-type is set to 'application/json'",
    },
    {
      name: 'an unsupported content type',
      headers: { 'content-type': 'application/xml' },
      payload: '<message>hi</message>',
      status: 415,
      detail: 'Unsupported Media Type',
    },
    {
      name: 'a body over the 16 MiB limit',
      headers: FORM,
      payload: form({ message: 'x'.repeat(16 * 1024 * 1024) }),
      status: 413,
      detail: 'Request body is too large',
    },
  ];
  for (const row of rows) {
    const res = await app.inject({
      method: 'POST',
      url: '/agents/a1/runs',
      headers: row.headers,
      payload: row.payload,
    });
    t.equal(res.statusCode, row.status, `${row.name}: status`);
    t.same(res.json(), { detail: row.detail }, `${row.name}: detail`);
  }
});

t.test('a body just under the limit is accepted', async (t) => {
  const { app } = runtimeApp(t);
  const res = await app.inject({
    method: 'POST',
    url: '/agents/a2/runs',
    headers: FORM,
    payload: form({ message: 'x'.repeat(1024 * 1024), stream: 'false' }),
  });
  t.equal(res.statusCode, 200);
  t.match(res.json(), { status: 'COMPLETED' });
});

t.test('an unexpected throw is 500 Internal runtime error, nothing more', async (t) => {
  const { app, store } = runtimeApp(t);
  await app.ready();
  store.close(); // every store call now throws a plain TypeError
  const rows = [
    { method: 'GET', url: '/sessions' },
    { method: 'GET', url: '/sessions/s-1' },
    { method: 'GET', url: '/sessions/s-1/runs' },
  ] as const;
  for (const row of rows) {
    const res = await app.inject({ method: row.method, url: row.url });
    t.equal(res.statusCode, 500, `${row.url}: 500`);
    t.same(res.json(), { detail: 'Internal runtime error' }, `${row.url}: no internals leak`);
  }
  const run = await app.inject({
    method: 'POST',
    url: '/agents/a1/runs',
    headers: FORM,
    payload: form({ message: 'hi' }),
  });
  t.equal(run.statusCode, 500, 'a run that cannot be stored fails before streaming');
  t.same(run.json(), { detail: 'Internal runtime error' });
});

t.test(
  'startRuntime refuses invalid settings, naming every problem, opening nothing',
  async (t) => {
    const dir = t.testdir({});
    const rows = [
      {
        name: 'a malformed section',
        settings: { db: 'rt.db', agents: [{ id: '_x', name: 'X' }], colour: 'red' },
        // (the root-level key is printed as `runtime.:`; see the report)
        message:
          /^invalid runtime settings:\n {2}runtime\.agents\.0\.id: ids are [^\n]*\n {2}runtime\.?: Unrecognized key: "colour"$/,
      },
      {
        name: 'dangling references',
        settings: { db: 'rt.db', teams: [{ id: 't', name: 'T', members: ['ghost'] }] },
        message: /^invalid runtime settings:\n {2}runtime\.teams\.0\.members\.0: no agent "ghost"$/,
      },
      {
        name: 'not a mapping',
        settings: 'agents',
        message:
          /^invalid runtime settings:\n {2}runtime\.?: Invalid input: expected object, received string$/,
      },
    ];
    for (const row of rows) {
      await t.rejects(
        startRuntime({
          settings: row.settings,
          dir,
          host: '127.0.0.1',
          port: 0,
          clock: createTestClock(),
          identitySecret: TEST_IDENTITY_SECRET,
        }),
        { message: row.message },
        row.name,
      );
    }
    t.same(readdirSync(dir), [], 'no database was created');
  },
);

t.test('a listening runtime: its URL, its clock, its database beside the config', async (t) => {
  const dir = t.testdir({});
  const clock = createTestClock();
  const running = await startRuntime({
    settings: { ...SETTINGS, db: 'sub/dir/rt.db' },
    dir,
    host: '127.0.0.1',
    port: 0,
    clock,
    identitySecret: TEST_IDENTITY_SECRET,
  });
  t.teardown(() => running.close());
  t.match(running.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  t.equal(running.store.path, join(dir, 'sub/dir/rt.db'), 'relative to dir');
  t.ok(existsSync(join(dir, 'sub/dir/rt.db')), 'the file and its folders exist');
  const health = await send(running.url, { path: '/health' });
  t.equal(health.status, 200);
  t.same(health.json, { status: 'ok', instantiated_at: '2030-01-01T00:00:00.000Z' });
  const run = await send(running.url, {
    method: 'POST',
    path: '/agents/a2/runs',
    headers: { ...FORM, ...anonymousHeader() },
    body: form({ message: 'persist me', stream: 'false' }),
  });
  t.equal(run.status, 200);
  const sessionId = (run.json as { session_id: string }).session_id;
  t.match(await running.store.getSession(sessionId), { session_name: 'persist me' });
  t.match(
    (await send(running.url, { path: `/sessions/${sessionId}`, headers: anonymousHeader() })).json,
    { created_at: TEST_NOW_ISO },
    'times come from the given clock',
  );
  const slow = await send(running.url, {
    method: 'POST',
    path: '/agents/a2/runs',
    headers: { ...FORM, ...anonymousHeader() },
    body: form({ message: '/slow 3 1', stream: 'false' }),
  });
  t.match(
    slow.json,
    { status: 'COMPLETED', content: '1 2 3' },
    'the engine waits with real timers',
  );
});

t.test('the database path: default, absolute, :memory:', async (t) => {
  const rows = [
    { name: 'default', db: undefined, file: 'config/data/runtime.db' },
    { name: 'absolute', db: 'ABSOLUTE', file: 'elsewhere/abs.db' },
    { name: 'in memory', db: ':memory:', file: null },
  ];
  for (const row of rows) {
    await t.test(row.name, async (t) => {
      const root = t.testdir({ config: {}, elsewhere: {} });
      const db = row.db === 'ABSOLUTE' ? join(root, 'elsewhere/abs.db') : row.db;
      const running = await startRuntime({
        settings: db === undefined ? {} : { db },
        dir: join(root, 'config'),
        host: '127.0.0.1',
        port: 0,
        clock: createTestClock(),
        identitySecret: TEST_IDENTITY_SECRET,
      });
      t.teardown(() => running.close());
      t.equal(running.store.path, row.file === null ? ':memory:' : join(root, row.file), 'path');
      if (row.file !== null) t.ok(existsSync(join(root, row.file)), 'the file is there');
      // The database's own -wal and -shm files belong to it (WAL mode).
      const written = [
        ...readdirSync(join(root, 'config'), { recursive: true }),
        ...readdirSync(join(root, 'elsewhere'), { recursive: true }),
      ].filter((name) => !/-(wal|shm)$/.test(String(name)));
      t.equal(
        written.length,
        row.file === null ? 0 : row.name === 'default' ? 2 : 1,
        'nothing else written',
      );
    });
  }
});

/** How many of this process's file descriptors are open on `path` (Linux /proc). */
function openDescriptors(path: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false; // the descriptor readdir itself used, already closed
    }
  }).length;
}

t.test(
  'a port already in use: startRuntime rejects and closes its database',
  { skip: process.platform === 'linux' ? false : 'reads open descriptors from /proc' },
  async (t) => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    t.teardown(() => new Promise<void>((r) => taken.close(() => r())));
    const { port } = taken.address() as AddressInfo;
    const dir = t.testdir({});
    const file = join(dir, 'rt.db');

    // The control: a listening runtime holds its database file open; close() lets it go.
    const open = await startRuntime({
      settings: { db: 'rt.db' },
      dir,
      host: '127.0.0.1',
      port: 0,
      clock: createTestClock(),
      identitySecret: TEST_IDENTITY_SECRET,
    });
    t.ok(openDescriptors(file) > 0, 'a running runtime holds the file');
    await open.close();
    t.equal(openDescriptors(file), 0, 'close() releases it');

    await t.rejects(
      startRuntime({
        settings: { db: 'rt.db' },
        dir,
        host: '127.0.0.1',
        port,
        clock: createTestClock(),
        identitySecret: TEST_IDENTITY_SECRET,
      }),
      { code: 'EADDRINUSE' },
    );
    t.equal(openDescriptors(file), 0, 'the failed start released the database too');
  },
);

t.test('close() stops listening and closes the database', async (t) => {
  const running = await startRuntime({
    settings: { db: ':memory:' },
    dir: t.testdir({}),
    host: '127.0.0.1',
    port: 0,
    clock: createTestClock(),
    identitySecret: TEST_IDENTITY_SECRET,
  });
  t.equal((await send(running.url, { path: '/health' })).status, 200);
  await running.close();
  await t.rejects(send(running.url, { path: '/health' }), { code: 'ECONNREFUSED' });
  await t.rejects(running.store.getSession('x'), { message: /not open/ });
});

t.test('a listening runtime never fetches its own port, nor the ports it is told', async (t) => {
  const gateway = await recordingListener(t);
  const running = await startRuntime({
    settings: { ...SETTINGS, knowledge: { fetch: { allow_hosts: ['127.0.0.1', 'localhost'] } } },
    dir: t.testdir({}),
    host: '127.0.0.1',
    port: 0,
    clock: createTestClock(),
    ownPorts: [gateway.port],
    identitySecret: TEST_IDENTITY_SECRET,
  });
  t.teardown(() => running.close());
  /** Uploads `url` and waits for its processing: its status and message. */
  const fetched = async (url: string) => {
    const answer = await send(running.url, {
      method: 'POST',
      path: '/knowledge/content',
      headers: { ...FORM, ...anonymousHeader() },
      body: form({ url }),
    });
    const { id } = answer.json as { id: string };
    for (;;) {
      const status = (
        await send(running.url, {
          path: `/knowledge/content/${id}/status`,
          headers: anonymousHeader(),
        })
      ).json as { status: string; status_message: string | null };
      if (status.status !== 'processing') return status;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  };
  const port = new URL(running.url).port;
  for (const url of [
    `${running.url}/health`,
    `http://localhost:${port}/memories?limit=100`,
    `http://[::ffff:127.0.0.1]:${port}/sessions`,
    `${gateway.url}/`,
  ]) {
    t.match(await fetched(url), {
      status: 'failed',
      status_message: `${new URL(url).href} could not be fetched`,
    });
  }
  t.equal(gateway.connections(), 0, 'the gateway listener was never reached');

  const admin = await recordingListener(t);
  t.match(await fetched(`${admin.url}/before`), { status: 'completed' }, 'opened by allow_hosts');
  running.refuseFetchesTo(admin.port);
  t.match(await fetched(`${admin.url}/after`), { status: 'failed' }, 'refused once told');
  t.same(admin.paths, ['/before']);
});
