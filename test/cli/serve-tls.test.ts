/**
 * `scopegate serve` with `listen.tls`, as a real process: HTTPS from the start, a replaced
 * certificate served to new connections after a reload, a broken one rejected while the running
 * certificate keeps serving, and `check` reporting an unreadable certificate by key and file.
 */
import { copyFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { join } from 'node:path';
import t from 'tap';
import { runCli } from '../fixtures/cli.js';
import { spawnScopegate } from '../fixtures/child.js';
import { makeCertificates, requireOpenssl } from '../fixtures/tls-certs.js';
import { startRecordingUpstream } from '../fixtures/upstream.js';

requireOpenssl(t);
const certs = makeCertificates(t);

function configText(upstreamUrl: string): string {
  return [
    'listen: { host: 127.0.0.1, port: 0, tls: { cert: cert.pem, key: key.pem } }',
    'admin: { host: 127.0.0.1, port: 0 }',
    `upstream: { url: "${upstreamUrl}", timeout_ms: 5000 }`,
    'policies: []',
    'auth:',
    '  security_key: a-root-key-for-tests',
    '  service_accounts: { enabled: false }',
    '',
  ].join('\n');
}

/** The status and the server certificate's CN of a fresh HTTPS connection. */
function call(port: number): Promise<{ status: number; cn: string }> {
  return new Promise((resolve, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/x',
        agent: false,
        ca: readFileSync(join(certs, 'good-ca.pem')),
        headers: { authorization: 'Bearer a-root-key-for-tests' },
      },
      (res) => {
        const cn = String((res.socket as TLSSocket).getPeerCertificate().subject.CN);
        res.resume().on('end', () => resolve({ status: res.statusCode ?? 0, cn }));
      },
    );
    req.on('error', fail).end();
  });
}

t.test('serve: https, a replaced certificate on reload, a broken one kept out', async (t) => {
  const up = await startRecordingUpstream();
  t.teardown(() => up.close());
  const dir = t.testdir({ 'gateway.yaml': configText(up.url) });
  const replace = (name: string, from: string | Buffer): void => {
    writeFileSync(join(dir, `${name}.tmp`), from);
    renameSync(join(dir, `${name}.tmp`), join(dir, name));
  };
  copyFileSync(join(certs, 'server.pem'), join(dir, 'cert.pem'));
  copyFileSync(join(certs, 'server.key'), join(dir, 'key.pem'));
  const served = spawnScopegate(t, ['serve', '--config', join(dir, 'gateway.yaml')]);
  const listening = await served.errLine(/^scopegate listening on /);
  const port = Number(/:(\d+), forwarding to /.exec(listening)?.[1]);
  t.same(await call(port), { status: 200, cn: 'localhost' });

  replace('key.pem', readFileSync(join(certs, 'server2.key')));
  replace('cert.pem', readFileSync(join(certs, 'server2.pem')));
  served.child.kill('SIGHUP');
  await served.errLine(/^scopegate: config reloaded from /);
  t.same(await call(port), { status: 200, cn: 'replaced.localhost' }, 'the new certificate');

  replace('cert.pem', 'not a certificate');
  served.child.kill('SIGHUP');
  const kept = await served.errLine(/the running certificate is kept$/);
  t.match(kept, /^error: listen\.tls\.cert: .*cert\.pem: /);
  t.same(await call(port), { status: 200, cn: 'replaced.localhost' }, 'the running one kept');
  t.equal(up.received.length, 3);
  served.child.kill('SIGTERM');
  t.match(await served.exited, { code: 0 }, 'drains and exits');
});

t.test('check names the key and the file of an unreadable certificate', async (t) => {
  const dir = t.testdir({ 'gateway.yaml': configText('http://127.0.0.1:9') });
  copyFileSync(join(certs, 'server.key'), join(dir, 'key.pem'));
  const result = await runCli(['check', '--config', join(dir, 'gateway.yaml')]);
  t.equal(result.code, 1);
  t.match(result.err, /listen\.tls\.cert: cannot read .*cert\.pem \(ENOENT\)/);
});
