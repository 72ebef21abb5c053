/**
 * `scopegate accounts create|list|revoke` against a Postgres store: the same table every replica
 * reads, the revoke written to the change log; a server that cannot be reached is an error for a
 * command (exit 1, naming the key, never the password).
 */
import { join } from 'node:path';
import pg from 'pg';
import t, { type Test } from 'tap';
import { runCli } from '../fixtures/cli.js';
import { closedPortUrl } from '../fixtures/e2e.js';
import { startTestPostgres } from '../fixtures/postgres.js';

function config(t: Test, store: string): string {
  const dir = t.testdir({
    'gateway.yaml': [
      'upstream: { url: "http://127.0.0.1:9" }',
      'policies: []',
      'auth:',
      '  security_key: a-root-key-for-cli-tests',
      `  service_accounts: { store: "${store}" }`,
      '',
    ].join('\n'),
  });
  return join(dir, 'gateway.yaml');
}

t.test('create, list and revoke work on a Postgres store', async (t) => {
  const server = await startTestPostgres(t);
  if (server === null) return;
  const store = await server.createDatabase();
  const file = config(t, store);
  const created = await runCli(['accounts', 'create', '--name', 'ci', '--config', file]);
  t.equal(created.code, 0, created.err);
  t.match(created.out, /^svc_pat_[0-9A-Za-z]{43}$/);
  const listed = await runCli(['accounts', 'list', '--json', '--config', file]);
  t.equal(listed.code, 0, listed.err);
  const [account] = JSON.parse(listed.out) as { id: string; name: string }[];
  t.match(account, { name: 'ci' });
  const revoked = await runCli(['accounts', 'revoke', account!.id, '--config', file]);
  t.equal(revoked.code, 0, revoked.err);
  t.equal(
    revoked.out,
    `revoked ${account!.id}; running gateways stop accepting its token within 1000 ms`,
  );
  const db = new pg.Client({ connectionString: store });
  await db.connect();
  const { rows } = await db.query(
    'SELECT a.revoked_at IS NOT NULL AS revoked, c.change FROM service_accounts a ' +
      'JOIN service_account_changes c ON c.account_id = a.id',
  );
  await db.end();
  t.same(rows, [{ revoked: true, change: 'revoked' }], 'revoked, and in the change log');
  const empty = await runCli(['accounts', 'list', '--config', config(t, `${store}x`)]);
  t.equal(empty.code, 1, 'an unknown database');
  t.match(empty.err, /auth\.service_accounts\.store/);
});

t.test('a server that cannot be reached is an error for a command', async (t) => {
  const port = new URL(await closedPortUrl()).port;
  const file = config(t, `postgres://u:pw-not-shown@127.0.0.1:${port}/db`);
  const run = await runCli(['accounts', 'list', '--config', file]);
  t.equal(run.code, 1);
  t.match(
    run.err,
    /^error: .*auth\.service_accounts\.store: service-account store 'postgres:\/\/u:\*\*\*@127\.0\.0\.1/,
  );
  t.equal(run.err.includes('pw-not-shown'), false, 'no password');
});
