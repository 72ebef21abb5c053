/**
 * The bench's HAProxy peer: the generated haproxy.cfg, and (where haproxy is installed) that
 * HAProxy running it verifies every RS256 token, checks exp and the route's scope, and forwards
 * only what passes.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import t from 'tap';
import { HAPROXY_MAX_SCOPES, haproxyConfig, startHaproxy } from '../../bench/haproxy.js';
import { onPath } from '../../bench/processes.js';
import { forgedTokens, mintTokens } from '../../bench/tokens.js';
import { httpCall } from '../fixtures/child.js';
import { RSA_KEY, RSA_KEY_2 } from '../fixtures/keys.js';
import { startRecordingUpstream } from '../fixtures/upstream.js';

const HAPROXY = onPath('haproxy');

t.test('haproxy.cfg: one thread, RS256 verified on every request, scopes per route', async (t) => {
  const text = haproxyConfig({ port: 8443, upstreamPort: 9000, publicKeyFile: '/k/rs256.pem' });
  const lines = text.split('\n').map((line) => line.trim());
  for (const expected of [
    'nbthread 1',
    'mode http',
    'http-reuse always',
    'bind 127.0.0.1:8443',
    'server upstream 127.0.0.1:9000 maxconn 256',
    'http-request set-var(txn.bearer) http_auth_bearer',
    'http-request deny deny_status 401 unless { var(txn.bearer),jwt_verify(txn.alg,"/k/rs256.pem") -m int 1 }',
    'http-request deny deny_status 401 unless { var(txn.alg) -m str RS256 }',
    'http-request deny deny_status 403 if is_get agent_path !read_scope',
    'http-request deny deny_status 403 if is_post agui_path !run_scope',
  ]) {
    t.ok(lines.includes(expected), expected);
  }
  const readAcls = lines.filter((line) => line.startsWith('acl read_scope '));
  t.equal(readAcls.length, HAPROXY_MAX_SCOPES, 'one ACL line per scope element looked at');
  t.match(readAcls[3], "jwt_payload_query('$.scopes[3]') -m str agents:read");
});

t.test(
  'HAProxy with the generated config',
  { skip: HAPROXY === null && 'haproxy not installed' },
  async (t) => {
    const dir = t.testdir();
    const publicKeyFile = join(dir, 'rs256.pem');
    writeFileSync(publicKeyFile, RSA_KEY.publicPem);
    const upstream = await startRecordingUpstream();
    t.teardown(() => upstream.close());
    const upstreamPort = Number(new URL(upstream.url).port);
    const haproxy = await startHaproxy(
      HAPROXY as string,
      dir,
      { upstreamPort, publicKeyFile },
      null,
    );
    t.teardown(() => haproxy.close());
    t.equal(
      execFileSync(HAPROXY as string, ['-c', '-f', join(dir, 'haproxy.cfg')], {
        encoding: 'utf8',
      }).trim(),
      'Configuration file is valid',
    );
    const [good] = await mintTokens(RSA_KEY.privateKey, 1, 'user');
    const sign = (
      claims: Record<string, unknown>,
      key = RSA_KEY.privateKey,
      exp: number | string = '1h',
    ) => new SignJWT(claims).setProtectedHeader({ alg: 'RS256' }).setExpirationTime(exp).sign(key);
    const rows: ReadonlyArray<readonly [string, string, string, string | null, number]> = [
      ['a good token reads an agent', 'GET', '/agents/a1', good as string, 200],
      ['a good token runs AG-UI', 'POST', '/agui', good as string, 200],
      [
        'the scope as the fourth element',
        'GET',
        '/agents/a1',
        await sign({ scopes: ['a', 'b', 'c', 'agents:read'] }),
        200,
      ],
      ['no token', 'GET', '/agents/a1', null, 401],
      ['a forged signature', 'GET', '/agents/a1', forgedTokens(1)[0] as string, 401],
      [
        'another key',
        'GET',
        '/agents/a1',
        await sign({ scopes: ['agents:read'] }, RSA_KEY_2.privateKey),
        401,
      ],
      [
        'expired',
        'GET',
        '/agents/a1',
        await sign(
          { scopes: ['agents:read'] },
          RSA_KEY.privateKey,
          Math.floor(Date.now() / 1000) - 60,
        ),
        401,
      ],
      [
        'a scope that only starts alike',
        'GET',
        '/agents/a1',
        await sign({ scopes: ['agents:readx'] }),
        403,
      ],
      ['read scope only, AG-UI', 'POST', '/agui', await sign({ scopes: ['agents:read'] }), 403],
      ['a route the config does not open', 'GET', '/sessions', good as string, 403],
    ];
    for (const [name, method, path, token, status] of rows) {
      const before = upstream.received.length;
      const answer = await httpCall(`http://127.0.0.1:${haproxy.port}${path}`, {
        method,
        headers: token === null ? {} : { authorization: `Bearer ${token}` },
        ...(method === 'POST' ? { body: '{}' } : {}),
      });
      t.equal(answer.status, status, name);
      if (status === 200) t.equal(upstream.received.at(-1)?.url, path, `${name}: forwarded`);
      else {
        t.match(answer.body, String(status), `${name}: HAProxy's own refusal`);
        t.equal(upstream.received.length, before, `${name}: upstream not reached`);
      }
    }
  },
);

t.test('a haproxy that cannot start: its error', async (t) => {
  const dir = t.testdir();
  await t.rejects(
    startHaproxy(join(dir, 'no-haproxy'), dir, { upstreamPort: 1, publicKeyFile: 'x' }, null),
    { message: /^HAProxy: spawn .*no-haproxy ENOENT$/ },
  );
});
