/**
 * `scopegate accounts create|list|revoke`: bootstrapping tokens straight in
 * the store a config names, with the API's rules; a minted token then works through a gateway on
 * the same config. In-process, plus one real child process.
 */
import { userInfo } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { hashServiceAccountToken } from '../../src/auth/service-accounts/token.js';
import { createAccountsCommand, statusOf } from '../../src/cli/accounts.js';
import { loadConfig } from '../../src/config/load.js';
import { assembleGateway, closeGatewayState } from '../../src/gateway/assemble.js';
import { startGatewayServer } from '../../src/gateway/server.js';
import { spawnScopegate } from '../fixtures/child.js';
import { runCli, type Run } from '../fixtures/cli.js';
import { bearer, send } from '../fixtures/e2e.js';
import { createTestClock, TEST_NOW, TEST_NOW_MS, type TestClock } from '../fixtures/tokens.js';
import { startRecordingUpstream } from '../fixtures/upstream.js';

const Sqlite = createRequire(import.meta.url)('better-sqlite3') as new (path: string) => {
  exec(sql: string): unknown;
  prepare(sql: string): { get(): unknown };
  close(): unknown;
};

const DAY = 86_400;
const TOKEN = /^svc_pat_[0-9A-Za-z]{43}$/;

/** A config (security key as its other credential) with the store at `data/sa.db`. */
function configDir(
  t: Test,
  serviceAccounts = '{ enabled: true, store: "sqlite:data/sa.db" }',
  upstreamUrl = 'http://127.0.0.1:9',
) {
  const dir = t.testdir({
    'gateway.yaml': [
      `upstream: { url: "${upstreamUrl}" }`,
      'auth:',
      '  security_key: the-security-key',
      `  service_accounts: ${serviceAccounts}`,
      '',
    ].join('\n'),
  });
  return { dir, config: join(dir, 'gateway.yaml'), store: join(dir, 'data', 'sa.db') };
}

/** Runs the command on a test clock, capturing what it prints. */
async function accounts(clock: TestClock, args: string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await createAccountsCommand(clock)(args, {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    env: {},
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const USAGE = /^usage: scopegate accounts create --name N/m;

t.test('create prints the token once on stdout, the rest on stderr', async (t) => {
  const { config, store } = configDir(t);
  const clock = createTestClock();
  const r = await accounts(clock, ['create', '--name', 'ci', '--config', config]);
  t.equal(r.code, 0, r.err);
  t.match(r.out, TOKEN, 'stdout is the token alone');
  t.match(
    r.err,
    new RegExp(
      '^created service account ci \\(id [0-9a-f-]{36}\\), principal sa:ci\\n' +
        'scopes: agents:run teams:run workflows:run sessions:read config:read\\n' +
        'expires: 2030-04-01T00:00:00Z\\n' +
        'the token \\(on stdout\\) is shown this once: store it now$',
    ),
  );
  const list = await accounts(clock, ['list', '--json', '--config', config]);
  const [account] = JSON.parse(list.out) as Record<string, unknown>[];
  t.equal(account?.['created_by'], `cli:${userInfo().username}`);
  t.equal(account?.['expires_at'], TEST_NOW + 90 * DAY);
  t.equal(account?.['token_prefix'], r.out.slice(0, 16));
  const db = new Sqlite(store);
  const row = db.prepare('SELECT token_hash FROM service_accounts').get() as { token_hash: string };
  db.close();
  t.equal(row.token_hash, hashServiceAccountToken(r.out), 'only the digest is stored');
});

t.test('a token minted by the CLI works through a gateway on the same config', async (t) => {
  const upstream = await startRecordingUpstream();
  t.teardown(() => upstream.close());
  const { config } = configDir(t, undefined, upstream.url);
  const minted = await runCli([
    'accounts',
    'create',
    '--name',
    'boot',
    '--scopes',
    'agent_os:admin',
    '--allow-privileged-scopes',
    '--never-expires',
    '--config',
    config,
  ]);
  t.equal(minted.code, 0, minted.err);
  t.match(minted.err, /^expires: never$/m);
  const assembly = await assembleGateway(loadConfig(config, { env: {} }), {
    clock: { now: () => Date.now() },
  });
  const state = assembly.state;
  if (state === null) throw new Error(JSON.stringify(assembly.problems));
  const server = await startGatewayServer(() => state, { host: '127.0.0.1', port: 0 });
  t.teardown(async () => {
    await server.close();
    await closeGatewayState(state);
  });
  const url = `http://127.0.0.1:${server.address().port}`;
  const answer = await send(url, { path: '/sessions', headers: bearer(minted.out) });
  t.equal(answer.status, 200);
  const mintedByToken = await send(url, {
    method: 'POST',
    path: '/service-accounts',
    headers: bearer(minted.out),
    body: JSON.stringify({ name: 'next', scopes: [{ scope: 'config:read' }] }),
  });
  t.equal(mintedByToken.status, 201, 'the bootstrap token mints the next ones');
});

t.test('create applies the API rules', async (t) => {
  const { config } = configDir(t);
  const clock = createTestClock();
  const run = (...args: string[]) => accounts(clock, ['create', '--config', config, ...args]);
  const week = await run(
    '--name',
    'weekly',
    '--scopes',
    'config:read, agents:a1:run',
    '--expires-in-days',
    '7',
  );
  t.equal(week.code, 0, week.err);
  t.match(week.err, /^scopes: config:read agents:a1:run$/m);
  t.match(week.err, /^expires: 2030-01-08T00:00:00Z$/m);
  const none = await run('--name', 'empty', '--scopes', '');
  t.match(none.err, /^scopes: \(none\)$/m, 'an empty --scopes is no scopes');

  const refused: [string, string[], number, string][] = [
    [
      'privileged without the flag',
      ['--name', 'p', '--scopes', 'agents:write'],
      1,
      'error: scopes: privileged scope(s) agents:write need "allow_privileged_scopes": true (write and delete actions, the admin scope and every service_accounts scope are privileged) (pass --allow-privileged-scopes)',
    ],
    [
      'unknown scope',
      ['--name', 'u', '--scopes', 'foo:read'],
      1,
      'error: Unknown scope(s): scopes[0].scope "foo:read": "foo" is not a resource namespace this gateway knows',
    ],
    [
      'duplicate active name',
      ['--name', 'weekly'],
      1,
      'error: name: an active service account named "weekly" already exists (revoke it first, or choose another name)',
    ],
  ];
  for (const [name, args, code, err] of refused) {
    const r = await run(...args);
    t.equal(r.code, code, name);
    t.equal(r.err, err, name);
    t.equal(r.out, '', `${name}: no token`);
  }
  const shapes: [string, string[], string][] = [
    ['no name', [], 'error: name is required'],
    [
      'a bad name',
      ['--name', 'Bad Name'],
      'error: name must match ^[a-z0-9][a-z0-9_-]{0,62}$: 1 to 63 lower-case letters, digits, "_" or "-", starting with a letter or digit',
    ],
    [
      'days not a number',
      ['--name', 'x', '--expires-in-days', 'soon'],
      'error: expires_in_days must be an integer',
    ],
    [
      'days 0',
      ['--name', 'x', '--expires-in-days', '0'],
      'error: expires_in_days must be at least 1',
    ],
    [
      'both',
      ['--name', 'x', '--expires-in-days', '5', '--never-expires'],
      'error: expires_in_days cannot be combined with never_expires: true',
    ],
  ];
  for (const [name, args, err] of shapes) {
    const r = await run(...args);
    t.equal(r.code, 2, name);
    t.equal(r.err.split('\n')[0], err, name);
    t.match(r.err, USAGE, `${name}: usage`);
  }
});

t.test('list: empty, a table with each status, JSON', async (t) => {
  const { config, store } = configDir(t);
  const clock = createTestClock();
  const empty = await accounts(clock, ['list', '--config', config]);
  t.same(empty, { code: 0, out: `no service accounts in ${store}`, err: '' });
  await accounts(clock, [
    'create',
    '--name',
    'active',
    '--scopes',
    'config:read',
    '--config',
    config,
  ]);
  clock.advance(1000);
  await accounts(clock, [
    'create',
    '--name',
    'soon',
    '--scopes',
    'config:read',
    '--expires-in-days',
    '1',
    '--config',
    config,
  ]);
  clock.advance(1000);
  const revoked = await accounts(clock, [
    'create',
    '--name',
    'gone',
    '--scopes',
    '',
    '--config',
    config,
  ]);
  t.equal(revoked.code, 0);
  const listed = JSON.parse(
    (await accounts(clock, ['list', '--json', '--config', config])).out,
  ) as {
    id: string;
    name: string;
  }[];
  const goneId = listed.find((a) => a.name === 'gone')?.id as string;
  await accounts(clock, ['revoke', goneId, '--config', config]);
  const db = new Sqlite(store);
  db.exec(`UPDATE service_accounts SET last_used_at = ${TEST_NOW + 5} WHERE name = 'active'`);
  db.close();
  clock.set(TEST_NOW_MS + 2 * DAY * 1000);
  const table = await accounts(clock, ['list', '--config', config]);
  t.equal(table.code, 0);
  const lines = table.out.split('\n');
  t.match(lines[0], /^ID +PRINCIPAL +STATUS +EXPIRES +LAST USED +SCOPES$/);
  t.match(lines[1], new RegExp(`^${goneId} +sa:gone +revoked +2030-04-01T00:00:02Z +- *$`));
  t.match(lines[2], /^[0-9a-f-]{36} +sa:soon +expired +2030-01-02T00:00:01Z +- +config:read$/);
  t.match(
    lines[3],
    /^[0-9a-f-]{36} +sa:active +active +2030-04-01T00:00:00Z +2030-01-01T00:00:05Z +config:read$/,
  );
  t.equal(lines.length, 4);
});

t.test('statusOf', async (t) => {
  const base = {
    id: 'i',
    name: 'n',
    token_hash: 'h',
    token_prefix: 'p',
    scopes: [],
    created_at: 0,
    last_used_at: null,
    created_by: 'c',
  };
  t.equal(statusOf({ ...base, expires_at: null, revoked_at: null }, 10), 'active');
  t.equal(statusOf({ ...base, expires_at: 10, revoked_at: null }, 10), 'expired');
  t.equal(statusOf({ ...base, expires_at: 11, revoked_at: null }, 10), 'active');
  t.equal(statusOf({ ...base, expires_at: 5, revoked_at: 3 }, 10), 'revoked');
});

t.test('revoke: revoked, already revoked, unknown, bad arguments', async (t) => {
  const { config } = configDir(t);
  const clock = createTestClock();
  await accounts(clock, ['create', '--name', 'x', '--scopes', 'config:read', '--config', config]);
  const [account] = JSON.parse(
    (await accounts(clock, ['list', '--json', '--config', config])).out,
  ) as {
    id: string;
  }[];
  const id = account?.id as string;
  t.same(await accounts(clock, ['revoke', id, '--config', config]), {
    code: 0,
    out: `revoked ${id}; running gateways stop accepting its token within 1000 ms`,
    err: '',
  });
  t.same(await accounts(clock, ['revoke', id, '--config', config]), {
    code: 0,
    out: `${id} was already revoked`,
    err: '',
  });
  t.same(await accounts(clock, ['revoke', 'nope', '--config', config]), {
    code: 1,
    out: '',
    err: 'error: no service account has the id "nope"',
  });
  const missing = await accounts(clock, ['revoke', '--config', config]);
  t.equal(missing.code, 2);
  t.match(missing.err, /^usage: scopegate accounts revoke \[options\] ID\n/, 'its own usage');
  t.equal((await accounts(clock, ['revoke', 'a', 'b', '--config', config])).code, 2);
});

t.test('subcommands, flags and configs that do not work', async (t) => {
  const clock = createTestClock();
  const none = await accounts(clock, []);
  t.equal(none.code, 2);
  t.match(none.err, USAGE);
  const unknown = await accounts(clock, ['rotate']);
  t.equal(unknown.code, 2);
  t.match(unknown.err, /^scopegate accounts: unknown subcommand "rotate"\nusage:/);
  const flag = await runCli(['accounts', 'list', '--colour']);
  t.equal(flag.code, 2);
  t.match(flag.err, /^scopegate accounts: Unknown option '--colour'/);

  const disabled = configDir(t, '{ enabled: false }');
  t.same(await accounts(clock, ['list', '--config', disabled.config]), {
    code: 1,
    out: '',
    err: `error: ${disabled.config} auth.service_accounts.enabled is false: the gateway accepts no service-account tokens`,
  });
  const invalid = await accounts(clock, ['list', '--config', join(disabled.dir, 'missing.yaml')]);
  t.equal(invalid.code, 1);
  t.match(invalid.err, /missing\.yaml/);
});

t.test('a store that cannot be opened is an error naming the file', async (t) => {
  const clock = createTestClock();
  const dir = t.testdir({
    'gateway.yaml': [
      'upstream: { url: "http://127.0.0.1:9" }',
      'auth:',
      '  service_accounts: { store: "sqlite:bad.db" }',
      '',
    ].join('\n'),
    'bad.db': 'not a database '.repeat(20),
  });
  const bad = await accounts(clock, ['list', '--config', join(dir, 'gateway.yaml')]);
  t.equal(bad.code, 1);
  t.equal(
    bad.err,
    `error: ${join(dir, 'gateway.yaml')} auth.service_accounts.store: service-account store '${join(dir, 'bad.db')}': cannot open: SqliteError: file is not a database`,
  );
});

t.test('a store that fails while working is an error naming the file', async (t) => {
  const clock = createTestClock();
  const garbage = configDir(t);

  await accounts(clock, ['list', '--config', garbage.config]);
  const db = new Sqlite(garbage.store);
  db.exec(
    "CREATE TRIGGER refuse BEFORE INSERT ON service_accounts BEGIN SELECT RAISE(ABORT, 'no inserts today'); END",
  );
  db.close();
  const failed = await accounts(clock, ['create', '--name', 'x', '--config', garbage.config]);
  t.equal(failed.code, 1);
  t.equal(
    failed.err,
    `error: service-account store '${garbage.store}': insert failed: SqliteError: no inserts today`,
  );
});

t.test('scopegate accounts runs as a real process', async (t) => {
  const { config } = configDir(t);
  const child = spawnScopegate(t, ['accounts', 'create', '--name', 'child', '--config', config]);
  const { code } = await child.exited;
  t.equal(code, 0, child.stderr());
  t.match(child.stdout().trim(), TOKEN);
  const listed = spawnScopegate(t, ['accounts', 'list', '--config', config]);
  t.equal((await listed.exited).code, 0);
  t.match(listed.stdout(), /sa:child +active/);
});
