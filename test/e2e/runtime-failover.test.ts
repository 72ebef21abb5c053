/**
 * A runtime that dies mid-run on a shared PostgreSQL database: runtime 1 runs as a real child
 * process (`scopegate runtime`), runtime 2 in this process, each behind its own gateway, both with
 * `lease_seconds: 3`. A long streamed run started through gateway 1 is RUNNING when runtime 1 is
 * killed (SIGKILL: nothing of it gets to run again); runtime 2 then finds runtime 1's heartbeat
 * older than the lease and stores the run as failed, naming the replica that stopped. Read back
 * through gateway 2 within a generous bound (four leases); the time it took is printed.
 */
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { startRuntime } from '../../src/runtime/start.js';
import { systemClock } from '../../src/shared/clock.js';
import { spawnScopegate } from '../fixtures/child.js';
import { bearer, readStream, send } from '../fixtures/e2e.js';
import { testDatabase } from '../fixtures/postgres.js';
import { E2E_IDENTITY_SECRET, gatewayInFront, runtimeDir } from '../fixtures/runtime-stack.js';
import { goodToken } from '../fixtures/tokens.js';

// A real runtime process started and killed, and a lease waited out: starting the process alone
// takes half a minute when the machine is busy.
t.setTimeout(300_000);

const LEASE_SECONDS = 3;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** The `runtime:` section both runtimes share. */
const settingsOn = (db: string) => ({
  os_id: 'failover',
  db,
  lease_seconds: LEASE_SECONDS,
  agents: [{ id: 'a1', name: 'Agent One' }],
});

t.test('a run left RUNNING by a killed runtime is marked failed by the other', async (t) => {
  const db = await testDatabase(t);
  if (db === null) return;
  const dir = runtimeDir(t);
  const config = join(dir, 'gateway.yaml');
  writeFileSync(
    config,
    [
      'policies: []',
      'auth: { security_key: a-root-key-for-failover-tests }',
      `runtime: ${JSON.stringify(settingsOn(db))}`,
      '',
    ].join('\n'),
  );
  const child = spawnScopegate(t, ['runtime', '--config', config, '--port', '0'], {
    SCOPEGATE_IDENTITY_SECRET: E2E_IDENTITY_SECRET,
  });
  const line = await child.line(/^scopegate runtime listening on /);
  const url1 = /listening on (http:\/\/\S+)/.exec(line)?.[1] as string;
  const two = await startRuntime({
    settings: settingsOn(db),
    dir,
    host: '127.0.0.1',
    port: 0,
    clock: systemClock,
    identitySecret: E2E_IDENTITY_SECRET,
  });
  t.teardown(() => two.close());
  const gateway1 = await gatewayInFront(t, url1);
  const gateway2 = await gatewayInFront(t, two.url);

  const token = await goodToken({ sub: 'alice', scopes: ['agent_os:admin'] });
  const response = await fetch(new URL('/agents/a1/runs', gateway1.url), {
    method: 'POST',
    headers: { ...bearer(token), ...FORM },
    // 600 deltas 100 ms apart: a minute, far longer than the test.
    body: new URLSearchParams({ message: '/slow 600 100' }).toString(),
  });
  t.equal(response.status, 200);
  const stream = await readStream<{ run_id: string; session_id: string }>(response);
  const { run_id: runId, session_id: sessionId } = stream.first;
  const read = async () =>
    (
      await send(gateway2.url, {
        method: 'GET',
        path: `/sessions/${sessionId}/runs/${runId}`,
        headers: bearer(await goodToken({ sub: 'alice', scopes: ['agent_os:admin'] })),
      })
    ).json as Record<string, unknown>;
  t.match(await read(), { run_id: runId, status: 'RUNNING' }, 'running on runtime 1');

  // The stream through gateway 1 breaks with its runtime; what it had is not the point.
  const broken = stream.rest().catch(() => '');
  const killedAt = performance.now();
  child.child.kill('SIGKILL');
  t.same(await child.exited, { code: null, signal: 'SIGKILL' });
  await broken;

  const bound = 4 * LEASE_SECONDS * 1000;
  let run = await read();
  while (run['status'] === 'RUNNING' && performance.now() - killedAt < bound) {
    await new Promise((r) => setTimeout(r, 100));
    run = await read();
  }
  t.comment(
    `the run read as failed ${Math.round(performance.now() - killedAt)} ms after the kill ` +
      `(lease ${LEASE_SECONDS} s)`,
  );
  t.match(run, {
    run_id: runId,
    status: 'ERROR',
    content: `the runtime replica ${hostname()}:${child.child.pid} running it stopped`,
  });

  // Runtime 2 is alive: a run through it completes and is left as it is.
  const alive = await send(gateway2.url, {
    method: 'POST',
    path: '/agents/a1/runs',
    headers: { ...bearer(token), ...FORM },
    body: new URLSearchParams({ message: 'still here', stream: 'false' }).toString(),
  });
  t.match(alive.json, { status: 'COMPLETED', content: 'Echo: still here' });
});
