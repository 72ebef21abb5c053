/**
 * TLS on the main listener (`listen.tls`): HTTPS end to end, client certificates required or
 * requested, the verified subject passed on (a forged one never), certificate files replaced
 * on a reload, and the config problems naming the key and the file. Certificates are made in
 * the test with the `openssl` CLI.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { request, type RequestOptions } from 'node:https';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import t, { type Test } from 'tap';
import { parseConfig } from '../../src/config/load.js';
import { ConfigError } from '../../src/shared/problem.js';
import { assembleGateway } from '../../src/gateway/assemble.js';
import { startGatewayServer } from '../../src/gateway/server.js';
import { reloadSecureContext, tlsFilesOf } from '../../src/gateway/tls.js';
import { makeCertificates, requireOpenssl } from '../fixtures/tls-certs.js';
import { startRecordingUpstream } from '../fixtures/upstream.js';
import { captureTelemetry } from '../fixtures/observability.js';
import type { Telemetry } from '../../src/gateway/stages/record.js';
import {
  decodeIdentityContext,
  verifyIdentitySignature,
} from '../../src/shared/identity-context.js';

const KEY = 'tls-test-security-key';

requireOpenssl(t);

const certs = makeCertificates(t);
const pem = (name: string): Buffer => readFileSync(join(certs, name));

/** Loads a config text written in `certs` (paths relative to it). */
function load(text: string) {
  return parseConfig(text, join(certs, 'gateway.yaml'), { env: {} });
}

async function gateway(t: Test, tls: string, upstream = '', telemetry?: Telemetry) {
  const up = await startRecordingUpstream();
  t.teardown(() => up.close());
  const loaded = load(
    [
      `upstream: { url: "${up.url}", timeout_ms: 5000${upstream} }`,
      `listen: { tls: ${tls} }`,
      'auth:',
      `  security_key: ${KEY}`,
      '  service_accounts: { enabled: false }',
    ].join('\n'),
  );
  const assembly = await assembleGateway(loaded, { clock: { now: () => Date.now() }, telemetry });
  if (assembly.state === null) throw new Error(JSON.stringify(assembly.problems));
  const state = assembly.state;
  const server = await startGatewayServer(
    () => state,
    { host: '127.0.0.1', port: 0 },
    assembly.tls ?? null,
  );
  t.teardown(async () => {
    await server.close(0);
    await state.upstream.pool.destroy();
  });
  return { up, server, loaded, port: server.address().port };
}

interface Answer {
  readonly status: number;
  readonly body: string;
  readonly peerCn: string;
}

function get(
  port: number,
  headers: Record<string, string>,
  tls: Pick<RequestOptions, 'cert' | 'key'> = {},
): Promise<Answer> {
  return new Promise((resolve, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/agents',
        headers,
        agent: false,
        ca: pem('good-ca.pem'),
        ...tls,
      },
      (res) => {
        const chunks: Buffer[] = [];
        const peer = (res.socket as import('node:tls').TLSSocket).getPeerCertificate();
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            peerCn: String(peer.subject.CN),
          }),
        );
      },
    );
    req.on('error', fail);
    req.end();
  });
}

const TOKEN = { authorization: `Bearer ${KEY}` };
const TLS_ONLY = '{ cert: server.pem, key: server.key }';
const REQUIRE =
  '{ cert: server.pem, key: server.key, client_ca: good-ca.pem, client_auth: require }';
const REQUEST =
  '{ cert: server.pem, key: server.key, client_ca: good-ca.pem, client_auth: request }';
const CLIENT = { cert: pem('client.pem'), key: pem('client.key') };
const STRANGER = { cert: pem('stranger.pem'), key: pem('stranger.key') };

t.test('https end to end: a token reaches the upstream, no token is 401 there', async (t) => {
  const { up, port } = await gateway(t, TLS_ONLY);
  const ok = await get(port, TOKEN);
  t.equal(ok.status, 200);
  t.equal(up.received.length, 1);
  t.equal(up.received[0]?.headers['x-forwarded-proto'], 'https');
  t.equal(up.received[0]?.headers['x-auth-client-cert-subject'], undefined);
  const refused = await get(port, {});
  t.equal(refused.status, 401);
  t.match(JSON.parse(refused.body), { detail: /^Not authenticated/ });
  t.equal(up.received.length, 1, 'the upstream was not reached');
});

t.test('client_auth require', async (t) => {
  const { up, port } = await gateway(t, REQUIRE);
  const refusedRows: [string, Pick<RequestOptions, 'cert' | 'key'>][] = [
    ['no client certificate', {}],
    ['a certificate from another CA', STRANGER],
  ];
  for (const [name, tls] of refusedRows) {
    await t.rejects(get(port, TOKEN, tls), `${name}: refused at the handshake`);
  }
  t.equal(up.received.length, 0, 'the upstream was not reached');
  const forged = { ...TOKEN, 'x-auth-client-cert-subject': 'CN=admin' };
  const ok = await get(port, forged, CLIENT);
  t.equal(ok.status, 200);
  const seen = up.received[0]?.headers;
  t.equal(seen?.['x-auth-client-cert-subject'], 'O=Example,CN=billing-worker');
  t.match(seen?.['x-auth-client-cert-fingerprint256'], /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  const unicode = await get(port, TOKEN, { cert: pem('unicode.pem'), key: pem('unicode.key') });
  t.equal(unicode.status, 200);
  t.equal(
    up.received.at(-1)?.headers['x-auth-client-cert-subject'],
    'CN%3DZo%C3%AB',
    'percent-encoded',
  );
  const noToken = await get(port, {}, CLIENT);
  t.equal(noToken.status, 401, 'a certificate is no credential by itself');
  t.equal(up.received.length, 2, 'the upstream was not reached');
});

t.test(
  'a verified certificate joins the signed context, the identity token and the log',
  async (t) => {
    const { telemetry, log } = captureTelemetry();
    const secret = 'tls-test-identity-secret';
    const signed = `, identity_secret: ${secret}, identity_token: { enabled: true }`;
    const { up, port } = await gateway(t, REQUIRE, signed, telemetry);
    for (const tls of [CLIENT, CLIENT]) t.equal((await get(port, TOKEN, tls)).status, 200);
    const der = new X509Certificate(pem('client.pem')).raw;
    const fingerprint256 = new X509Certificate(pem('client.pem')).fingerprint256;
    for (const { headers } of up.received) {
      const value = headers['x-auth-context'] as string;
      t.ok(verifyIdentitySignature(value, headers['x-auth-signature'] as string, secret), 'signed');
      t.same(decodeIdentityContext(value)?.client_certificate, {
        subject: 'O=Example,CN=billing-worker',
        fingerprint256,
      });
      const token = decodeJwt(headers['x-auth-identity-token'] as string);
      t.same(token['cnf'], { 'x5t#S256': createHash('sha256').update(der).digest('base64url') });
    }
    const completed = (): Record<string, unknown>[] =>
      log.lines().filter((l) => l['msg'] === 'request completed');
    // A line is written when the response closes, which may be after the client read it.
    while (completed().length < 2) await log.count(log.lines().length + 1);
    const lines = completed();
    t.match(lines, [
      {
        client_cert_subject: 'O=Example,CN=billing-worker',
        client_cert_fingerprint256: fingerprint256,
      },
      { client_cert_subject: 'O=Example,CN=billing-worker' },
    ]);
  },
);

t.test('without a certificate the context and the token carry none', async (t) => {
  const { up, port } = await gateway(t, REQUEST, ', identity_token: { enabled: true }');
  t.equal((await get(port, TOKEN)).status, 200);
  const { headers } = up.received[0] as (typeof up.received)[number];
  const context = decodeIdentityContext(headers['x-auth-context'] as string);
  t.notOk(context !== null && 'client_certificate' in context);
  t.notOk('cnf' in decodeJwt(headers['x-auth-identity-token'] as string));
});

t.test('client_auth request: only a verified certificate is passed on', async (t) => {
  const { up, port } = await gateway(t, REQUEST);
  const rows: [string, Pick<RequestOptions, 'cert' | 'key'>, string | undefined][] = [
    ['no certificate', {}, undefined],
    ['a certificate from another CA', STRANGER, undefined],
    ['a verified certificate', CLIENT, 'O=Example,CN=billing-worker'],
  ];
  for (const [name, tls, subject] of rows) {
    const forged = { ...TOKEN, 'X-Auth-Client-Cert-Subject': 'CN=admin' };
    const answer = await get(port, forged, tls);
    t.equal(answer.status, 200, `${name}: token auth`);
    t.equal(up.received.at(-1)?.headers['x-auth-client-cert-subject'], subject, name);
  }
});

t.test('a drain closes a connection stalled in its TLS handshake at the bound', async (t) => {
  const { server, port } = await gateway(t, TLS_ONLY);
  // Connects and sends nothing: no handshake, no request, in no list but the TCP one.
  const stalled = connect(port, '127.0.0.1');
  await once(stalled, 'connect');
  const closed = once(stalled, 'close');
  const report = await server.close(50);
  t.same(report, { inFlight: 0, cutOff: 0, otherConnections: 1 });
  await closed;
});

t.test('a reload serves a replaced certificate; a broken one keeps the running one', async (t) => {
  const dir = t.testdir({});
  const [cert, key] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
  writeFileSync(cert, pem('server.pem'));
  writeFileSync(key, pem('server.key'));
  const { server, port } = await gateway(t, `{ cert: ${cert}, key: ${key} }`);
  t.equal((await get(port, TOKEN)).peerCn, 'localhost');
  const lines: string[] = [];
  const log = { err: (line: string) => lines.push(line) };
  const files = { cert, key, clientCa: null, clientAuth: 'none' } as const;
  writeFileSync(cert, pem('server2.pem'));
  writeFileSync(key, pem('server2.key'));
  t.equal(reloadSecureContext(server.server, files, log), true);
  t.equal((await get(port, TOKEN)).peerCn, 'replaced.localhost', 'new connections get the new one');
  writeFileSync(cert, 'not a certificate');
  t.equal(reloadSecureContext(server.server, files, log), false);
  t.match(lines, [
    new RegExp(`^error: listen\\.tls\\.cert: ${cert}: .*the running certificate is kept$`),
  ]);
  t.equal((await get(port, TOKEN)).peerCn, 'replaced.localhost', 'the running one is kept');
});

t.test('config problems name the key and the file', async (t) => {
  const rows: [string, string, string, RegExp][] = [
    [
      'a missing key file',
      '{ cert: server.pem, key: nowhere.key }',
      'listen.tls.key',
      /nowhere\.key \(ENOENT\)/,
    ],
    [
      'a missing cert file',
      '{ cert: nowhere.pem, key: server.key }',
      'listen.tls.cert',
      /cannot read .*nowhere\.pem \(ENOENT\)/,
    ],
    [
      'a missing client_ca file',
      '{ cert: server.pem, key: server.key, client_ca: nowhere.pem }',
      'listen.tls.client_ca',
      /nowhere\.pem/,
    ],
    [
      'a key that is no PEM',
      '{ cert: server.pem, key: server.ext }',
      'listen.tls.key',
      /server\.ext/,
    ],
    [
      'a key of another certificate',
      '{ cert: server.pem, key: client.key }',
      'listen.tls.key',
      /client\.key/,
    ],
    [
      'a client_ca that is no PEM',
      '{ cert: server.pem, key: server.key, client_ca: server.ext }',
      'listen.tls.client_ca',
      /server\.ext/,
    ],
  ];
  for (const [name, tls, key, message] of rows) {
    const loaded = load(
      `listen: { tls: ${tls} }\nauth: { security_key: ${KEY}, service_accounts: { enabled: false } }`,
    );
    const assembly = await assembleGateway(loaded, {
      clock: { now: () => Date.now() },
      checkOnly: true,
    });
    t.equal(assembly.state, null, name);
    t.match(assembly.problems, [{ key, message }], name);
  }
  const schemaRows: [string, string, string, string][] = [
    [
      'require without client_ca',
      '{ cert: a.pem, key: a.key, client_auth: require }',
      'listen.tls.client_ca',
      'must be set when listen.tls.client_auth is require',
    ],
    [
      'request without a cert',
      '{ client_ca: a.pem, client_auth: request }',
      'listen.tls.cert',
      'must be set when listen.tls.client_auth is request',
    ],
    [
      'a cert without a key',
      '{ cert: a.pem }',
      'listen.tls.key',
      'must be set when listen.tls.cert is',
    ],
    [
      'a key without a cert',
      '{ key: a.key }',
      'listen.tls.cert',
      'must be set when listen.tls.key is',
    ],
  ];
  for (const [name, tls, key, message] of schemaRows) {
    const error = (() => {
      try {
        load(`listen: { tls: ${tls} }`);
        return null;
      } catch (err) {
        return err as ConfigError;
      }
    })();
    t.type(error, ConfigError, name);
    t.match(error?.problems, [{ key, message }], name);
  }
  const plain = load('listen: { tls: null }');
  t.equal(tlsFilesOf(plain.config, certs), null, 'null: plain HTTP');
});
