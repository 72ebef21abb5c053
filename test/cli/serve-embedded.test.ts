/**
 * `scopegate serve` with `upstream.embedded: true`: the bundled runtime listens on loopback where
 * `upstream.url` points, the banner shows how to stream a run through the gateway, and every
 * refusal to start closes the runtime it had started. Long-running cases are real processes; the
 * refusals that return before listening run in-process.
 */
import { join } from 'node:path';
import t from 'tap';
import { runCli, type Run } from '../fixtures/cli.js';
import {
  canBind,
  freePort,
  httpCall,
  occupy,
  spawnScopegate,
  type Child,
} from '../fixtures/child.js';
import { recordingListener } from '../runtime/fixtures/outbound.js';
import { sseFrames } from '../runtime/fixtures/runtime.js';

// A dozen real scopegate processes, each starting the bundled runtime: about a minute on a quiet
// 2-core machine, more than the suite's 120 s per file when the machine is busy.
t.setTimeout(300_000);

/** A config with the embedded runtime at `runtimeUrl` (ES256 dev keys and one agent unless given). */
function configText(options: {
  runtimeUrl: string;
  listenPort?: number;
  auth?: string[];
  runtime?: string[];
}): string {
  return [
    'service_id: embedded-test',
    `listen: { host: 127.0.0.1, port: ${options.listenPort ?? 0} }`,
    'admin: { host: 127.0.0.1, port: 0 }',
    `upstream: { url: "${options.runtimeUrl}", embedded: true }`,
    'auth:',
    ...(options.auth ?? ['algorithm: ES256', 'dev_keys: dev.json']).map((l) => `  ${l}`),
    'runtime:',
    ...(options.runtime ?? ['db: rt.db', 'agents:', '  - { id: helper, name: Helper }']).map(
      (l) => `  ${l}`,
    ),
    '',
  ].join('\n');
}

/** The banner of a started `serve`: ports, token and the printed curl lines. */
async function banner(child: Child) {
  const runtimeLine = await child.errLine(/^bundled runtime listening on /);
  const listening = await child.errLine(/^scopegate listening on /);
  const exported = await child.errLine(/^ {2}export TOKEN=/);
  await child.errLine(/^ {2}curl -H /);
  return {
    runtimeLine,
    gatewayPort: Number(/:(\d+), forwarding to /.exec(listening)?.[1]),
    token: exported.replace(/^ {2}export TOKEN=/, ''),
  };
}

t.test('serve starts the bundled runtime and prints a working stream-a-run curl', async (t) => {
  const runtimePort = await freePort();
  const runtimeUrl = `http://127.0.0.1:${runtimePort}`;
  const dir = t.testdir({ 'gateway.yaml': configText({ runtimeUrl }) });
  const child = spawnScopegate(t, ['serve', '--config', join(dir, 'gateway.yaml')]);
  const { runtimeLine, gatewayPort, token } = await banner(child);
  t.equal(runtimeLine, `bundled runtime listening on ${runtimeUrl} (loopback only)`);
  await child.errLine(/^stream a run:$/);
  const curl = await child.errLine(/^ {2}curl -N /);
  // The banner's closing blank line may come in a later chunk than the curl line.
  while (!child.stderr().endsWith('\n\n')) {
    await new Promise((resolve) => child.child.stderr?.once('data', resolve));
  }
  const base = `http://127.0.0.1:${gatewayPort}`;
  t.equal(
    curl,
    `  curl -N -H "Authorization: Bearer $TOKEN" -d message=hello ${base}/agents/helper/runs`,
    'the first agent, through the gateway',
  );
  t.match(
    child.stderr(),
    new RegExp(
      `^bundled runtime listening on .*\n` +
        'bundled runtime: schedules cannot run: auth\\.internal_service_token is not set \\(due runs are recorded as failed\\)\n' +
        `scopegate listening on 127\\.0\\.0\\.1:${gatewayPort}, ` +
        `forwarding to ${runtimeUrl.replace(/\./g, '\\.')}\n` +
        'admin listening on 127\\.0\\.0\\.1:\\d+ \\(/metrics, /healthz, /readyz\\)\n' +
        `\ndevelopment keys: .*dev\\.json \\(created\\)\n` +
        'admin token \\(development only, valid 12 h\\):\n {2}export TOKEN=\\S+\n {2}curl -H .*/agents\n' +
        'stream a run:\n {2}curl -N .*\n\n$',
    ),
    'the whole banner, in order',
  );

  // What `curl -N -d message=hello` sends.
  const url = /(http:\/\/\S+)$/.exec(curl)?.[1] ?? '';
  const streamed = await httpCall(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'message=hello',
  });
  t.equal(streamed.status, 200, 'the curl streams');
  t.match(streamed.headers['content-type'], /^text\/event-stream/);
  const frames = sseFrames(streamed.body);
  t.equal(frames[0]?.event, 'RunStarted');
  t.match(frames.at(-1), { event: 'RunCompleted', data: { content: 'Echo: hello' } });
  const refused = await httpCall(url, { method: 'POST', body: 'message=hello' });
  t.equal(refused.status, 401, 'the runtime is behind the gateway');

  child.child.kill('SIGTERM');
  t.same(await child.exited, { code: 0, signal: null });
  t.match(child.stderr(), /^scopegate: SIGTERM, closing$/m);
  t.notMatch(child.stderr(), /^(warning|error):/m, 'no warning or error');
  t.notMatch(child.stdout(), /^[^{]/m, 'standard output holds the JSON log alone');
  t.ok(await canBind(runtimePort, '127.0.0.1'), 'the runtime closed with the gateway');
});

t.test('embedded without agents: no stream-a-run line; SIGINT closes', async (t) => {
  const runtimePort = await freePort();
  const dir = t.testdir({
    'gateway.yaml': configText({
      runtimeUrl: `http://127.0.0.1:${runtimePort}`,
      runtime: ['db: ":memory:"'],
    }),
  });
  const child = spawnScopegate(t, ['serve', '--config', join(dir, 'gateway.yaml')]);
  const { gatewayPort, token } = await banner(child);
  const agents = await httpCall(`http://127.0.0.1:${gatewayPort}/agents`, {
    headers: { authorization: `Bearer ${token}` },
  });
  t.equal(agents.status, 200);
  t.same(JSON.parse(agents.body), [], 'the runtime answers, with no agents');
  child.child.kill('SIGINT');
  t.same(await child.exited, { code: 0, signal: null });
  t.notMatch(child.stderr(), /stream a run/);
  t.match(child.stderr(), /^scopegate: SIGINT, closing$/m);
  t.ok(await canBind(runtimePort, '127.0.0.1'));
});

t.test('embedded without development keys: no token, no curl lines', async (t) => {
  const runtimePort = await freePort();
  const dir = t.testdir({
    'gateway.yaml': configText({
      runtimeUrl: `http://127.0.0.1:${runtimePort}`,
      auth: ['security_key: a-root-key-for-tests'],
    }),
  });
  const child = spawnScopegate(t, ['serve', '--config', join(dir, 'gateway.yaml')]);
  await child.errLine(/^bundled runtime listening on /);
  const listening = await child.errLine(/^scopegate listening on /);
  const port = Number(/:(\d+), forwarding/.exec(listening)?.[1]);
  const health = await httpCall(`http://127.0.0.1:${port}/agents`, {
    headers: { authorization: 'Bearer a-root-key-for-tests' },
  });
  t.equal(health.status, 200);
  t.match(JSON.parse(health.body), [{ id: 'helper' }]);
  child.child.kill('SIGTERM');
  t.equal((await child.exited).code, 0);
  t.notMatch(child.stderr(), /TOKEN|curl|stream a run/);
});

t.test("the bundled runtime serves A2A under the gateway's a2a.prefix", async (t) => {
  const runtimePort = await freePort();
  const dir = t.testdir({
    'gateway.yaml':
      configText({
        runtimeUrl: `http://127.0.0.1:${runtimePort}`,
        auth: ['security_key: a-root-key-for-tests'],
      }) + 'a2a: { prefix: /api/a2a }\n',
  });
  const child = spawnScopegate(t, ['serve', '--config', join(dir, 'gateway.yaml')]);
  await child.errLine(/^bundled runtime listening on /);
  const listening = await child.errLine(/^scopegate listening on /);
  const base = `http://127.0.0.1:${Number(/:(\d+), forwarding/.exec(listening)?.[1])}`;
  const card = await httpCall(`${base}/api/a2a/agents/helper/.well-known/agent-card.json`, {
    headers: { authorization: 'Bearer a-root-key-for-tests' },
  });
  t.equal(card.status, 200);
  t.match(JSON.parse(card.body), {
    url: `${base}/api/a2a/agents/helper/v1`,
    additionalInterfaces: [
      { transport: 'JSONRPC' },
      { transport: 'HTTP+JSON', url: `${base}/api/a2a/agents/helper` },
    ],
  });
  child.child.kill('SIGTERM');
  t.equal((await child.exited).code, 0);
});

t.test("the bundled runtime never fetches the gateway's or its own listeners", async (t) => {
  const runtimePort = await freePort();
  const dir = t.testdir({
    'gateway.yaml': configText({
      runtimeUrl: `http://127.0.0.1:${runtimePort}`,
      auth: ['security_key: a-root-key-for-tests'],
      // allow_hosts opens loopback: the listeners of this process stay closed all the same.
      runtime: ['db: rt.db', 'knowledge: { fetch: { allow_hosts: [127.0.0.1, localhost] } }'],
    }),
  });
  const child = spawnScopegate(t, ['serve', '--config', join(dir, 'gateway.yaml')]);
  await child.errLine(/^bundled runtime listening on /);
  const listening = await child.errLine(/^scopegate listening on /);
  const admin = await child.errLine(/^admin listening on /);
  const gatewayPort = Number(/:(\d+), forwarding/.exec(listening)?.[1]);
  const adminPort = Number(/:(\d+) \(/.exec(admin)?.[1]);
  const base = `http://127.0.0.1:${gatewayPort}`;
  const headers = { authorization: 'Bearer a-root-key-for-tests' };
  // Each of these answers 200 to an unauthenticated GET: only the guard makes them fail.
  const rows = [
    ['the gateway', `${base}/health`],
    ['the gateway by name', `http://localhost:${gatewayPort}/health`],
    ['the admin listener', `http://127.0.0.1:${adminPort}/healthz`],
    ['the runtime itself', `http://127.0.0.1:${runtimePort}/health`],
  ];
  const fetched = async (url: string) => {
    const posted = await httpCall(`${base}/knowledge/content`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: `url=${encodeURIComponent(url as string)}`,
    });
    t.equal(posted.status, 202, `${url}: accepted`);
    const { id } = JSON.parse(posted.body) as { id: string };
    let status: { status: string; status_message: string | null };
    do {
      const polled = await httpCall(`${base}/knowledge/content/${id}/status`, { headers });
      status = JSON.parse(polled.body) as { status: string; status_message: string | null };
    } while (status.status === 'processing');
    return status;
  };
  for (const [name, url] of rows) {
    t.match(
      await fetched(url as string),
      { status: 'failed', status_message: `${url} could not be fetched` },
      `${name}: refused with the uniform text`,
    );
  }
  const other = await recordingListener(t);
  t.match(await fetched(`${other.url}/`), { status: 'completed' }, 'another loopback port is open');
  t.same(other.paths, ['/']);
  child.child.kill('SIGTERM');
  t.equal((await child.exited).code, 0);
});

/** Runs serve in-process: only for the refusals that return before listening. */
function serveInProcess(config: string): Promise<Run> {
  return runCli(['serve', '--config', config]);
}

t.test('a non-loopback upstream.url is refused before anything starts', async (t) => {
  for (const url of [
    'http://10.1.2.3:8081',
    'http://example.com:8081',
    'http://0.0.0.0:8081',
    'http://[::2]:8081',
    'https://127.0.0.2:8081',
  ]) {
    const dir = t.testdir({ 'gateway.yaml': configText({ runtimeUrl: url }) });
    const config = join(dir, 'gateway.yaml');
    const r = await serveInProcess(config);
    t.equal(r.code, 1, `${url}: exit 1`);
    t.equal(r.out, '', `${url}: nothing started`);
    t.equal(
      r.err,
      `error: ${config} upstream.url: with upstream.embedded the runtime listens on loopback only; ` +
        'use http://127.0.0.1:<port>\nthe gateway did not start',
      `${url}: names upstream.url`,
    );
  }
});

t.test('an invalid runtime section is refused, naming it', async (t) => {
  const runtimeUrl = `http://127.0.0.1:${await freePort()}`;
  const dir = t.testdir({
    'gateway.yaml': configText({
      runtimeUrl,
      runtime: ['agents:', '  - { id: helper, name: Helper, tools: [nope] }'],
    }),
  });
  const config = join(dir, 'gateway.yaml');
  const r = await serveInProcess(config);
  t.equal(r.code, 1);
  t.equal(r.out, '');
  t.match(
    r.err,
    new RegExp(
      `^error: ${config.replace(/\./g, '\\.')} runtime: invalid runtime settings:\n` +
        ' {2}runtime\\.agents\\.0\\.tools\\.0: unknown built-in tool "nope" .*\nthe gateway did not start$',
    ),
  );
});

t.test('the runtime port in use is refused, naming runtime', async (t) => {
  const port = await occupy(t);
  const dir = t.testdir({ 'gateway.yaml': configText({ runtimeUrl: `http://127.0.0.1:${port}` }) });
  const r = await serveInProcess(join(dir, 'gateway.yaml'));
  t.equal(r.code, 1);
  t.equal(r.out, '');
  t.match(r.err, new RegExp(`runtime: listen EADDRINUSE: .*:${port}\nthe gateway did not start$`));
});

t.test('a gateway that does not assemble closes the runtime it started', async (t) => {
  const rows = [
    { name: '127.0.0.1', host: '127.0.0.1', url: (p: number) => `http://127.0.0.1:${p}` },
    { name: 'localhost', host: '127.0.0.1', url: (p: number) => `http://localhost:${p}` },
    { name: '[::1]', host: '::1', url: (p: number) => `http://[::1]:${p}` },
  ];
  for (const row of rows) {
    const port = await freePort(row.host);
    const dir = t.testdir({
      'gateway.yaml': configText({
        runtimeUrl: row.url(port),
        auth: ['verification_keys: ["file:missing.pem"]'],
      }),
    });
    const r = await serveInProcess(join(dir, 'gateway.yaml'));
    t.equal(r.code, 1, `${row.name}: exit 1`);
    t.equal(r.out, '', `${row.name}: nothing on standard output`);
    t.match(
      r.err,
      /^bundled runtime listening on http:\/\/\S+ \(loopback only\)\nbundled runtime: schedules cannot run: /,
      `${row.name}: it had started`,
    );
    t.match(
      r.err,
      /auth\.verification_keys\[0\]: cannot read key file "missing\.pem" \(ENOENT\)\n.*invalid \(1 problem\)\nthe gateway did not start$/,
      `${row.name}: the assembly problem`,
    );
    t.ok(await canBind(port, row.host), `${row.name}: the runtime port is free again`);
  }
});

t.test('a gateway that cannot listen closes the runtime it started', async (t) => {
  const gatewayPort = await occupy(t);
  const runtimePort = await freePort();
  const dir = t.testdir({
    'gateway.yaml': configText({
      runtimeUrl: `http://127.0.0.1:${runtimePort}`,
      listenPort: gatewayPort,
      auth: ['security_key: k'],
    }),
  });
  const r = await serveInProcess(join(dir, 'gateway.yaml'));
  t.equal(r.code, 1);
  t.match(r.err, /^bundled runtime listening on /);
  t.match(
    r.err,
    new RegExp(`listen: listen EADDRINUSE: .*:${gatewayPort}\nthe gateway did not start$`),
  );
  t.ok(await canBind(runtimePort, '127.0.0.1'), 'the runtime port is free again');
});

t.test('an upstream.url without a port means port 80', async (t) => {
  // Whether port 80 can be bound here depends on the machine: either the runtime starts on it
  // (and is closed again when the gateway does not assemble) or listening on it fails.
  const dir = t.testdir({
    'gateway.yaml': configText({
      runtimeUrl: 'http://127.0.0.1',
      auth: ['verification_keys: ["file:missing.pem"]'],
      runtime: ['db: ":memory:"'],
    }),
  });
  const free = await canBind(80, '127.0.0.1');
  const r = await serveInProcess(join(dir, 'gateway.yaml'));
  t.equal(r.code, 1);
  if (free) {
    t.equal(r.out, '');
    t.ok(
      r.err.startsWith(
        'bundled runtime listening on http://127.0.0.1:80 (loopback only)\n' +
          'bundled runtime: schedules cannot run: auth.internal_service_token is not set ' +
          '(due runs are recorded as failed)\n',
      ),
      'it had started',
    );
    t.match(r.err, /cannot read key file "missing\.pem"/);
    t.ok(await canBind(80, '127.0.0.1'), 'port 80 is free again');
  } else {
    t.equal(r.out, '');
    t.match(r.err, /runtime: listen E[A-Z]+: .*:80\nthe gateway did not start$/);
  }
});

t.test(
  'embedded with an internal token: a triggered schedule runs through the gateway',
  async (t) => {
    const runtimePort = await freePort();
    const dir = t.testdir({
      'gateway.yaml': configText({
        runtimeUrl: `http://127.0.0.1:${runtimePort}`,
        auth: [
          'algorithm: ES256',
          'dev_keys: dev.json',
          'internal_service_token: internal-for-tests',
        ],
      }),
    });
    const child = spawnScopegate(t, ['serve', '--config', join(dir, 'gateway.yaml')]);
    const { gatewayPort, token } = await banner(child);
    t.notMatch(child.stderr(), /schedules cannot run/);
    const base = `http://127.0.0.1:${gatewayPort}`;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await httpCall(`${base}/schedules`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: 'hourly',
        cron_expr: '0 * * * *',
        endpoint: '/agents/helper/runs',
        payload: { message: 'hi' },
      }),
    });
    t.equal(created.status, 201);
    const { id } = JSON.parse(created.body) as { id: string };
    const triggered = await httpCall(`${base}/schedules/${id}/trigger`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    t.equal(triggered.status, 200);
    t.match(JSON.parse(triggered.body), { status: 'success', output: { content: 'Echo: hi' } });
    t.notMatch(child.stdout() + child.stderr(), /internal-for-tests/, 'the token is never logged');
    child.child.kill('SIGTERM');
    t.same(await child.exited, { code: 0, signal: null });
  },
);
