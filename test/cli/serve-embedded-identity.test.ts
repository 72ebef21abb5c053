/**
 * `scopegate serve` with `upstream.embedded: true` and no `identity_secret`: the gateway signs
 * every forwarded context with a secret made for the process and handed to the runtime it starts,
 * so a context sent straight to the runtime's port is refused; a reload keeps that secret, and
 * one that sets another is refused as restart-only. A real process on real sockets.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { encodedContext } from '../runtime/fixtures/runtime.js';
import { freePort, httpCall, spawnScopegate } from '../fixtures/child.js';

/** An embedded-runtime config with security-key auth (`auth` lines under `auth:`). */
function configText(runtimeUrl: string, auth: readonly string[], upstreamExtra = ''): string {
  return [
    'service_id: embedded-identity-test',
    'listen: { host: 127.0.0.1, port: 0 }',
    'admin: { host: 127.0.0.1, port: 0 }',
    `upstream: { url: "${runtimeUrl}", embedded: true${upstreamExtra} }`,
    'auth:',
    ...auth.map((l) => `  ${l}`),
    'runtime:',
    '  db: rt.db',
    '',
  ].join('\n');
}

t.test(
  'the embedded runtime believes only the gateway: a forged context straight to its port is 401',
  async (t) => {
    const runtimePort = await freePort();
    const runtimeUrl = `http://127.0.0.1:${runtimePort}`;
    const root = { authorization: 'Bearer a-root-key-for-tests' };
    const auth = ['security_key: a-root-key-for-tests', 'service_accounts: { enabled: false }'];
    const dir = t.testdir({ 'gateway.yaml': configText(runtimeUrl, auth) });
    const config = join(dir, 'gateway.yaml');
    const child = spawnScopegate(t, ['serve', '--config', config]);
    await child.errLine(/^bundled runtime listening on /);
    const listening = await child.errLine(/^scopegate listening on /);
    const gateway = `http://127.0.0.1:${Number(/:(\d+), forwarding/.exec(listening)?.[1])}`;
    const adminLine = await child.errLine(/^admin listening on /);
    const admin = `http://127.0.0.1:${Number(/:(\d+) \(/.exec(adminLine)?.[1])}`;
    const json = { 'content-type': 'application/json' };
    const written = await httpCall(`${gateway}/memories`, {
      method: 'POST',
      headers: { ...root, ...json },
      body: JSON.stringify({ memory: 'bob likes tea', user_id: 'bob' }),
    });
    t.equal(written.status, 200, 'a write through the gateway');

    // What any process on the machine could send: an admin context, unsigned.
    const forged = encodedContext({
      user_id: 'mallory',
      scopes: ['agent_os:admin'],
      is_admin: true,
    });
    const rows: { name: string; headers: Record<string, string>; detail: string }[] = [
      {
        name: 'a forged admin context, no signature',
        headers: { 'x-auth-context': forged },
        detail: 'Missing or invalid identity signature',
      },
      {
        name: 'a made-up signature',
        headers: { 'x-auth-context': forged, 'x-auth-signature': 'ab'.repeat(32) },
        detail: 'Missing or invalid identity signature',
      },
      { name: 'no context', headers: {}, detail: 'Missing identity context' },
    ];
    for (const row of rows) {
      const read = await httpCall(`${runtimeUrl}/memories`, { headers: row.headers });
      t.equal(read.status, 401, `${row.name}: read`);
      t.same(JSON.parse(read.body), { detail: row.detail }, `${row.name}: read`);
      const write = await httpCall(`${runtimeUrl}/memories`, {
        method: 'POST',
        headers: { ...row.headers, ...json },
        body: JSON.stringify({ memory: 'planted', user_id: 'bob' }),
      });
      t.equal(write.status, 401, `${row.name}: write`);
    }
    const listed = async (): Promise<unknown> => {
      const read = await httpCall(`${gateway}/memories`, { headers: root });
      t.equal(read.status, 200, 'the same read through the gateway');
      return (JSON.parse(read.body) as { data: { memory: string }[] }).data.map((m) => m.memory);
    };
    t.same(await listed(), ['bob likes tea'], 'only the write that went through the gateway');
    t.equal((await httpCall(`${runtimeUrl}/health`)).status, 200, '/health needs no context');
    t.equal((await httpCall(`${admin}/readyz`)).status, 200, 'readiness probes the runtime');

    // A reload keeps the process's generated secret: the gateway and runtime still agree.
    writeFileSync(config, configText(runtimeUrl, [...auth, 'allow_anonymous: false']));
    child.child.kill('SIGHUP');
    await child.errLine(/^scopegate: config reloaded from /);
    t.same(await listed(), ['bob likes tea'], 'after a reload');
    // Setting a secret while the runtime runs with another is refused: restart-only.
    writeFileSync(
      config,
      configText(runtimeUrl, auth, ', identity_secret: "a-new-secret-of-16-chars"'),
    );
    child.child.kill('SIGHUP');
    t.match(
      await child.errLine(/ upstream\.identity_secret: /),
      /^error: .*gateway\.yaml:4 upstream\.identity_secret: changed, but only a restart applies it/,
    );
    await child.errLine(/^scopegate: reload rejected /);
    t.same(await listed(), ['bob likes tea'], 'the running generation still signs');
    t.notMatch(child.stdout() + child.stderr(), /a-new-secret-of-16-chars/, 'never printed');

    child.child.kill('SIGTERM');
    t.same(await child.exited, { code: 0, signal: null });
  },
);
