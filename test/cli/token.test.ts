/**
 * `scopegate token`: mints a development JWT with the development key,
 * prints only the token, refuses without `auth.dev_keys`, and exits 2 on usage errors.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPublicKey } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import t, { type Test } from 'tap';
import { parseTtl, TOKEN } from '../../src/cli/token.js';
import { usageOf } from '../../src/cli/usage.js';
import { runCli, type Run } from '../fixtures/cli.js';

const CONFIG = [
  'policies: []',
  'auth:',
  '  algorithm: ES256',
  '  dev_keys: keys/dev.json',
  '',
].join('\n');

/** A test dir holding `gateway.yaml` (and `files`); returns the config path and folder. */
function setup(t: Test, yaml = CONFIG, files: object = {}): { config: string; dir: string } {
  const dir = t.testdir({ 'gateway.yaml': yaml, ...files });
  return { config: join(dir, 'gateway.yaml'), dir };
}

/** The development public key the gateway would verify with, read from the key file. */
function devPublicKey(dir: string) {
  const jwk = JSON.parse(readFileSync(join(dir, 'keys/dev.json'), 'utf8'));
  return { key: createPublicKey({ key: jwk, format: 'jwk' }), kid: jwk.kid as string };
}

/** Runs the command; an unexpected throw becomes code -1 with the error's message. */
async function token(args: string[]): Promise<Run> {
  return runCli(['token', ...args]).catch((err: Error) => ({
    code: -1,
    out: '',
    err: `threw: ${err.message}`,
  }));
}

t.test('parseTtl', async (t) => {
  const rows: { text: string; want: number | null }[] = [
    { text: '90', want: 90 },
    { text: '90s', want: 90 },
    { text: '15m', want: 900 },
    { text: '1h', want: 3600 },
    { text: '7d', want: 604_800 },
    { text: '0', want: null },
    { text: '0h', want: null },
    { text: '', want: null },
    { text: 'h', want: null },
    { text: '1.5h', want: null },
    { text: '-1h', want: null },
    { text: '1H', want: null },
    { text: '1w', want: null },
    { text: ' 1h', want: null },
    { text: '1h ', want: null },
    { text: '1e3', want: null },
    { text: '1hh', want: null },
    // Numbers past the float range parse to Infinity: that is not a lifetime either.
    { text: '9'.repeat(400), want: null },
  ];
  for (const row of rows) t.equal(parseTtl(row.text), row.want, JSON.stringify(row.text));
});

t.test('mints exactly one token line that verifies with the development public key', async (t) => {
  const { config, dir } = setup(t);
  const before = Math.floor(Date.now() / 1000);
  const r = await token([
    '--config',
    config,
    '--sub',
    'alice',
    '--scopes',
    'agents:read, teams:run,,',
    '--ttl',
    '15m',
    '--aud',
    'my-service',
    '--claim',
    'team=blue',
    '--claim',
    'note=a=b',
    '--claim',
    'empty=',
  ]);
  const after = Math.floor(Date.now() / 1000);
  t.equal(r.code, 0, r.err);
  t.equal(r.err, '');
  t.notMatch(r.out, /\n/, 'one line, so TOKEN=$(scopegate token ...) works');
  const { key, kid } = devPublicKey(dir);
  t.same(decodeProtectedHeader(r.out), { alg: 'ES256', kid, typ: 'JWT' });
  const { payload } = await jwtVerify(r.out, key, {
    algorithms: ['ES256'],
    audience: 'my-service',
  });
  t.same(
    { ...payload, iat: 0, exp: 0 },
    {
      team: 'blue',
      note: 'a=b',
      empty: '',
      scopes: ['agents:read', 'teams:run'],
      sub: 'alice',
      aud: 'my-service',
      iat: 0,
      exp: 0,
    },
  );
  t.equal((payload.exp as number) - (payload.iat as number), 900, 'exp - iat = ttl');
  t.ok((payload.iat as number) >= before && (payload.iat as number) <= after, 'iat is now');
});

t.test(
  'defaults: ttl 1h, aud the service id, no scopes; the key is created on first use',
  async (t) => {
    const { config, dir } = setup(t);
    const r = await token(['--config', config, '--sub', 'bob']);
    t.equal(r.code, 0, r.err);
    const { key } = devPublicKey(dir);
    const { payload } = await jwtVerify(r.out, key);
    t.equal(payload.sub, 'bob');
    t.same(payload.scopes, []);
    t.equal(payload.aud, 'scopegate', "aud: the config's service_id (its default here)");
    t.equal((payload.exp as number) - (payload.iat as number), 3600);

    const again = await token(['-c', config, '--sub', 'bob']);
    t.equal(again.code, 0);
    await t.resolves(jwtVerify(again.out, devPublicKey(dir).key), 'the same key is reused');
  },
);

t.test('--claim cannot override sub, scopes, aud, iat or exp', async (t) => {
  const { config, dir } = setup(t);
  const r = await token([
    '--config',
    config,
    '--sub',
    'carol',
    '--scopes',
    'a:read',
    '--aud',
    'svc',
    '--claim',
    'sub=mallory',
    '--claim',
    'scopes=agent_os:admin',
    '--claim',
    'exp=99999999999',
  ]);
  t.equal(r.code, 0, r.err);
  const { payload } = await jwtVerify(r.out, devPublicKey(dir).key);
  t.equal(payload.sub, 'carol');
  t.same(payload.scopes, ['a:read']);
  t.equal((payload.exp as number) - (payload.iat as number), 3600);
});

t.test('refuses with exit 1 when the config has no auth.dev_keys', async (t) => {
  const { config } = setup(t, 'policies: []\nauth: { security_key: k }\n');
  const r = await token(['--config', config, '--sub', 'alice']);
  t.equal(r.code, 1);
  t.equal(r.out, '');
  t.equal(
    r.err,
    `scopegate token: ${config} has no auth.dev_keys; development tokens need a development key`,
  );
});

t.test('usage errors exit 2 with a message', async (t) => {
  const { config } = setup(t);
  const usage = usageOf(TOKEN);
  const rows: { name: string; args: string[]; err: string }[] = [
    { name: 'no --sub', args: [], err: usage },
    { name: 'empty --sub', args: ['--sub', ''], err: usage },
    {
      name: 'bad --ttl',
      args: ['--sub', 'a', '--ttl', '1 hour'],
      err: 'scopegate token: --ttl must look like 90s, 15m, 1h or 7d (got "1 hour")',
    },
    {
      name: 'zero --ttl',
      args: ['--sub', 'a', '--ttl', '0s'],
      err: 'scopegate token: --ttl must look like 90s, 15m, 1h or 7d (got "0s")',
    },
    {
      name: 'a --ttl too large to be a number',
      args: ['--sub', 'a', '--ttl', '9'.repeat(400)],
      err: `scopegate token: --ttl must look like 90s, 15m, 1h or 7d (got "${'9'.repeat(400)}")`,
    },
    {
      name: '--claim without =',
      args: ['--sub', 'a', '--claim', 'team'],
      err: 'scopegate token: --claim must be key=value (got "team")',
    },
    {
      name: '--claim with an empty key',
      args: ['--sub', 'a', '--claim', '=x'],
      err: 'scopegate token: --claim must be key=value (got "=x")',
    },
    {
      name: 'an unknown option',
      args: ['--sub', 'a', '--audience', 'x'],
      err: "scopegate token: Unknown option '--audience'",
    },
  ];
  for (const row of rows) {
    const r = await token(['--config', config, ...row.args]);
    t.equal(r.code, 2, `${row.name}: exit 2`);
    t.equal(r.out, '', `${row.name}: no token printed`);
    t.equal(r.err, row.err, `${row.name}: message`);
  }
});

t.test('an invalid config is exit 1, listing its problems', async (t) => {
  const { config } = setup(
    t,
    ['auth:', '  dev_keys: keys/dev.json', '  algoritm: ES256', '  leeway_seconds: -1', ''].join(
      '\n',
    ),
  );
  const r = await token(['--config', config, '--sub', 'alice']);
  t.equal(r.code, 1);
  t.equal(r.out, '');
  t.match(
    r.err,
    /^error: .*gateway\.yaml:3 auth\.algoritm: unknown key \(did you mean "algorithm"\?\)$/m,
  );
  t.match(r.err, /^error: .*gateway\.yaml:4 auth\.leeway_seconds: /m);

  const missing = await token(['--config', join(t.testdirName, 'nope.yaml'), '--sub', 'a']);
  t.equal(missing.code, 1);
  t.match(missing.err, /^error: .*nope\.yaml: cannot read the config file: ENOENT/);
});

t.test('an unusable development key file is exit 1 with one error line, not a crash', async (t) => {
  const { config } = setup(t, CONFIG, { keys: { 'dev.json': '{"kty":"EC"}' } });
  const r = await token(['--config', config, '--sub', 'alice']);
  t.equal(r.code, 1, r.err);
  t.equal(r.out, '');
  t.match(
    r.err,
    /^error: .*development key file .*keys\/dev\.json is not an ES256 \(P-256\) private JWK/,
  );
});
