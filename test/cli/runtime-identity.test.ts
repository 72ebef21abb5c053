/**
 * `scopegate runtime`'s identity secret: read from `upstream.identity_secret`, else
 * SCOPEGATE_IDENTITY_SECRET; without one it refuses to start (exit 1, one line naming both)
 * unless `--insecure-unsigned-identity` is given, which warns SGWRN010 and believes unsigned
 * contexts. Real processes, except the refusals, which run in-process.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { signIdentityContext } from '../../src/shared/identity-context.js';
import { runCli } from '../fixtures/cli.js';
import { httpCall, spawnScopegate, type Child } from '../fixtures/child.js';
import { contextHeader } from '../runtime/fixtures/runtime.js';

// Real scopegate runtime processes, each loading the runtime: well under the suite's 120 s per
// file on a quiet machine, not always when the machine is busy.
t.setTimeout(300_000);

/** A config whose `runtime:` section hosts one agent in `rt.db` beside the config. */
const CONFIG = [
  'policies: []',
  'auth: { security_key: a-root-key-for-tests }',
  'runtime:',
  '  db: rt.db',
  '  agents:',
  '    - { id: helper, name: Helper }',
  '',
].join('\n');

/** The secret the gateway in front would share, handed over in the environment. */
const SECRET = 'runtime-cli-identity-secret';
const WITH_SECRET = { SCOPEGATE_IDENTITY_SECRET: SECRET };

/** The refusal without any secret, for a config at `file`. */
const noSecret = (file: string): string =>
  `error: scopegate runtime: no identity secret: set upstream.identity_secret in ${file} or the ` +
  "SCOPEGATE_IDENTITY_SECRET environment variable to the gateway's, or runtime.identity_token " +
  "to verify the gateway's identity token (or pass --insecure-unsigned-identity, development only)";

/** Waits for the listening line; returns the URL it names. */
async function listening(child: Child): Promise<{ url: string }> {
  const line = await child.line(/^scopegate runtime listening on /);
  return { url: /^scopegate runtime listening on (http:\/\/\S+)/.exec(line)?.[1] ?? '' };
}

t.test('without an identity secret the runtime refuses to start: exit 1, one line', async (t) => {
  const dir = t.testdir({ 'gateway.yaml': CONFIG });
  const config = join(dir, 'gateway.yaml');
  const rows = [
    { name: 'no secret anywhere', env: {}, err: noSecret(config) },
    { name: 'an empty variable', env: { SCOPEGATE_IDENTITY_SECRET: '' }, err: noSecret(config) },
    {
      name: 'a variable too short',
      env: { SCOPEGATE_IDENTITY_SECRET: 'short' },
      err: 'error: scopegate runtime: SCOPEGATE_IDENTITY_SECRET must be at least 16 characters',
    },
  ];
  for (const row of rows) {
    const r = await runCli(['runtime', '--config', config, '--port', '0'], row.env);
    t.equal(r.code, 1, `${row.name}: exit 1`);
    t.equal(r.out, '', row.name);
    t.equal(r.err, row.err, row.name);
  }
  t.notOk(existsSync(join(dir, 'rt.db')), 'nothing was opened');
});

t.test(
  'runtime.identity_token stands in for the secret: its JWK Set file is read at start',
  async (t) => {
    const dir = t.testdir({
      'gateway.yaml':
        CONFIG +
        '  identity_token: { jwks_file: none.json, issuer: scopegate:x, audience: http://rt }\n',
    });
    const config = join(dir, 'gateway.yaml');
    const missing = `error: ${config} runtime: cannot read ${join(dir, 'none.json')}: ENOENT`;
    const rows = [
      { name: 'no secret: the token check alone', args: [], err: missing },
      {
        name: 'the development switch is ignored',
        args: ['--insecure-unsigned-identity'],
        err:
          'scopegate runtime: --insecure-unsigned-identity ignored: runtime.identity_token is ' +
          'set, so every context must carry a valid identity token\n' +
          missing,
      },
    ];
    for (const row of rows) {
      const r = await runCli(['runtime', '--config', config, '--port', '0', ...row.args], {});
      t.equal(r.code, 1, `${row.name}: exit 1`);
      t.equal(r.err, row.err, row.name);
    }
    t.notOk(existsSync(join(dir, 'rt.db')), 'nothing was opened');
  },
);

t.test('the config key wins over the variable; the secret is never printed', async (t) => {
  const configured = 'the-configured-identity-secret';
  const dir = t.testdir({
    'gateway.yaml': `${CONFIG}upstream: { identity_secret: ${configured} }\n`,
  });
  const child = spawnScopegate(
    t,
    ['runtime', '--config', join(dir, 'gateway.yaml'), '--port', '0'],
    WITH_SECRET,
  );
  const { url } = await listening(child);
  const byConfig = await httpCall(`${url}/agents`, { headers: contextHeader({}, configured) });
  t.equal(byConfig.status, 200, 'signed with upstream.identity_secret');
  const byEnv = await httpCall(`${url}/agents`, { headers: contextHeader({}, SECRET) });
  t.equal(byEnv.status, 401, 'signed with the variable: not the key in use');
  t.same(JSON.parse(byEnv.body), { detail: 'Missing or invalid identity signature' });
  child.child.kill('SIGTERM');
  t.same(await child.exited, { code: 0, signal: null });
  t.notMatch(child.stdout() + child.stderr(), new RegExp(`${configured}|${SECRET}`));
});

t.test(
  '--insecure-unsigned-identity: warns SGWRN010, believes unsigned contexts, none = anonymous',
  async (t) => {
    const dir = t.testdir({ 'gateway.yaml': CONFIG });
    const child = spawnScopegate(t, [
      'runtime',
      '--config',
      join(dir, 'gateway.yaml'),
      '--port',
      '0',
      '--insecure-unsigned-identity',
    ]);
    const { url } = await listening(child);
    t.equal(
      child.stderr(),
      'warning: scopegate runtime --insecure-unsigned-identity: x-auth-context is believed ' +
        'WITHOUT a signature and a request without one is an unconfined anonymous caller: ' +
        'anyone who can reach this port can act as any user, admin included (development only) ' +
        '[SGWRN010]\n',
      'one loud warning, before listening',
    );
    const run = await httpCall(`${url}/agents/helper/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'message=hi&stream=false&user_id=carol',
    });
    t.equal(run.status, 200, 'no context: an anonymous caller');
    t.match(JSON.parse(run.body), { user_id: 'carol' }, 'who may name the user');
    // Only the context, without its signature: believed all the same.
    const forged = contextHeader({ user_id: 'mallory', scoped_user_id: 'mallory' })[
      'x-auth-context'
    ];
    const confined = await httpCall(`${url}/agents/helper/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-auth-context': forged },
      body: 'message=hi&stream=false&user_id=carol',
    });
    t.match(JSON.parse(confined.body), { user_id: 'mallory' }, 'an unsigned context is believed');
    child.child.kill('SIGTERM');
    t.same(await child.exited, { code: 0, signal: null });
  },
);

t.test('--insecure-unsigned-identity beside a secret: ignored, and says so', async (t) => {
  const dir = t.testdir({ 'gateway.yaml': CONFIG });
  const child = spawnScopegate(
    t,
    [
      'runtime',
      '--config',
      join(dir, 'gateway.yaml'),
      '--port',
      '0',
      '--insecure-unsigned-identity',
    ],
    WITH_SECRET,
  );
  const { url } = await listening(child);
  t.equal(
    child.stderr(),
    'scopegate runtime: --insecure-unsigned-identity ignored: an identity secret is set, ' +
      'so every context must carry a valid signature\n',
  );
  const value = contextHeader()['x-auth-context'];
  const unsigned = await httpCall(`${url}/agents`, { headers: { 'x-auth-context': value } });
  t.equal(unsigned.status, 401, 'an unsigned context is still refused');
  const signed = await httpCall(`${url}/agents`, {
    headers: { 'x-auth-context': value, 'x-auth-signature': signIdentityContext(value, SECRET) },
  });
  t.equal(signed.status, 200);
  child.child.kill('SIGTERM');
  t.same(await child.exited, { code: 0, signal: null });
});
