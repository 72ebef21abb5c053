/**
 * Two bundled runtimes on one real PostgreSQL database, each behind its own gateway (RS256 JWTs,
 * RBAC on, real HTTP on loopback), as two replicas: a run started through one gateway is read
 * back, continued and deleted through the other; a paused run continued through both at once is
 * continued once (the other gets the 409 a second continue gets); a run streaming through one is
 * cancelled through the other (the time it took is printed); a text uploaded through one is
 * found by a search through the other, ranked as the first ranks it; ten schedules made due at once,
 * ticked on both runtimes at once, each fire exactly once (counted in SQL), each run recording
 * the runtime that claimed its slot.
 */
import pg from 'pg';
import t, { type Test } from 'tap';
import { createGatewayExecutor } from '../../src/runtime/api/schedules/gateway-executor.js';
import type { SchedulerTimer } from '../../src/runtime/api/schedules/timer.js';
import { startRuntime, type RunningRuntime } from '../../src/runtime/start.js';
import { bearer, readStream, send, type Answer } from '../fixtures/e2e.js';
import { testDatabase } from '../fixtures/postgres.js';
import { E2E_IDENTITY_SECRET, gatewayInFront, runtimeDir } from '../fixtures/runtime-stack.js';
import { createTestClock, goodToken, type TestClock } from '../fixtures/tokens.js';

const INTERNAL_TOKEN = 'internal-token-for-replica-tests-0123';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
/** A timer that never fires: the test ticks by hand. */
const HAND_TIMER: SchedulerTimer = { start: () => () => {} };

interface Replica {
  readonly runtime: RunningRuntime;
  readonly url: string;
}

/** Runtime `id` on `db` (its own clock, hand-ticked) behind a gateway of its own. */
async function replica(t: Test, db: string, id: string, clock: TestClock): Promise<Replica> {
  const runtime = await startRuntime({
    settings: {
      os_id: `replica-${id}`,
      db,
      agents: [
        {
          id: 'a1',
          name: 'Agent One',
          tools: [{ name: 'pick_color', description: 'Asks the user.', external_execution: true }],
        },
      ],
      knowledge: { name: 'kb' },
    },
    dir: runtimeDir(t),
    host: '127.0.0.1',
    port: 0,
    clock,
    scheduleTimer: HAND_TIMER,
    identitySecret: E2E_IDENTITY_SECRET,
    replicaId: `replica-${id}`,
  });
  t.teardown(() => runtime.close());
  const gateway = await gatewayInFront(t, runtime.url, {
    authYaml: [`internal_service_token: ${INTERNAL_TOKEN}`],
  });
  runtime.scheduler.attach(
    createGatewayExecutor({
      url: gateway.url,
      token: INTERNAL_TOKEN,
      clock,
      sleep: () => new Promise((r) => setImmediate(r)),
      pollIntervalMs: 0,
    }),
  );
  return { runtime, url: gateway.url };
}

/** Two replicas on one fresh database, sharing one clock; null when no server can be had. */
async function pair(t: Test) {
  const db = await testDatabase(t);
  if (db === null) return null;
  const clock = createTestClock();
  const one = await replica(t, db, '1', clock);
  const two = await replica(t, db, '2', clock);
  return { db, clock, one, two };
}

/** A request through `url` as alice, an admin (so no approval holds a continue back). */
async function as(url: string, method: string, path: string, form?: Record<string, string>) {
  const token = await goodToken({ sub: 'alice', scopes: ['agent_os:admin'] });
  return send(url, {
    method,
    path,
    headers: { ...bearer(token), ...(form === undefined ? {} : FORM) },
    ...(form === undefined ? {} : { body: new URLSearchParams(form).toString() }),
  });
}

/** Starts a run through `url` that pauses on the client tool. */
async function paused(url: string): Promise<{ runId: string; sessionId: string; tools: object[] }> {
  const res = await as(url, 'POST', '/agents/a1/runs', {
    message: '/tool pick_color {}',
    stream: 'false',
  });
  const output = res.json as Record<string, unknown>;
  if (output['status'] !== 'PAUSED') throw new Error(`not paused: ${res.status} ${res.body}`);
  return {
    runId: output['run_id'] as string,
    sessionId: output['session_id'] as string,
    tools: output['tools'] as object[],
  };
}

const continueForm = (run: { sessionId: string; tools: object[] }) => ({
  tools: JSON.stringify(run.tools.map((tool) => ({ ...tool, result: 'teal' }))),
  session_id: run.sessionId,
  stream: 'false',
});

t.test(
  'a run started through one gateway is read, continued and deleted through the other',
  async (t) => {
    const replicas = await pair(t);
    if (replicas === null) return;
    const { one, two } = replicas;
    const run = await paused(one.url);
    const read = await as(two.url, 'GET', `/sessions/${run.sessionId}/runs/${run.runId}`);
    t.equal(read.status, 200);
    t.match(read.json, { run_id: run.runId, status: 'PAUSED' });

    const continued = await as(
      two.url,
      'POST',
      `/agents/a1/runs/${run.runId}/continue`,
      continueForm(run),
    );
    t.equal(continued.status, 200, 'continued through the other gateway');
    t.match(continued.json, { run_id: run.runId, status: 'COMPLETED' });
    t.match((await as(one.url, 'GET', `/sessions/${run.sessionId}/runs/${run.runId}`)).json, {
      status: 'COMPLETED',
    });

    const deleted = await as(two.url, 'DELETE', `/sessions/${run.sessionId}`);
    t.equal(deleted.status, 204);
    const gone = await as(one.url, 'GET', `/sessions/${run.sessionId}`);
    t.equal(gone.status, 404);
  },
);

t.test('a paused run continued through both gateways at once is continued once', async (t) => {
  const replicas = await pair(t);
  if (replicas === null) return;
  const { one, two } = replicas;
  for (let round = 0; round < 5; round++) {
    const run = await paused(one.url);
    const path = `/agents/a1/runs/${run.runId}/continue`;
    const answers: Answer[] = await Promise.all([
      as(one.url, 'POST', path, continueForm(run)),
      as(two.url, 'POST', path, continueForm(run)),
    ]);
    const statuses = answers.map((a) => a.status).sort();
    t.same(statuses, [200, 409], `round ${round}: one wins`);
    const lost = answers.find((a) => a.status === 409);
    t.match(lost?.json, { detail: new RegExp(`^Cannot continue run ${run.runId}: run is `) });
  }
});

t.test('a run streaming through one gateway is cancelled through the other', async (t) => {
  const replicas = await pair(t);
  if (replicas === null) return;
  const { one, two } = replicas;
  const token = await goodToken({ sub: 'alice', scopes: ['agent_os:admin'] });
  const response = await fetch(new URL('/agents/a1/runs', one.url), {
    method: 'POST',
    headers: { ...bearer(token), ...FORM },
    body: new URLSearchParams({ message: '/slow 5000 5' }).toString(),
  });
  t.equal(response.status, 200);
  const stream = await readStream<{ run_id: string; session_id: string }>(response);
  const first = stream.first;
  const asked = performance.now();
  const cancel = await as(
    two.url,
    'POST',
    `/agents/a1/runs/${first.run_id}/cancel?session_id=${first.session_id}`,
  );
  t.equal(cancel.status, 200);
  const text = await stream.rest();
  t.comment(`the run stopped ${Math.round(performance.now() - asked)} ms after the cancel`);
  t.match(text, /event: RunCancelled/);
  t.notMatch(text, / 5000/, 'it stopped before its last delta');
  t.match((await as(two.url, 'GET', `/sessions/${first.session_id}/runs/${first.run_id}`)).json, {
    status: 'CANCELLED',
  });
});

t.test('a knowledge text uploaded through one gateway is found through the other', async (t) => {
  const replicas = await pair(t);
  if (replicas === null) return;
  const { one, two } = replicas;
  const json = async (url: string, method: string, path: string, body?: string, type?: string) =>
    send(url, {
      method,
      path,
      headers: {
        ...bearer(await goodToken({ sub: 'alice', scopes: ['agent_os:admin'] })),
        ...(body === undefined ? {} : { 'content-type': type ?? 'application/json' }),
      },
      ...(body === undefined ? {} : { body }),
    });
  const search = async (url: string) =>
    (
      (await json(url, 'POST', '/knowledge/search', JSON.stringify({ query: 'otters dams' })))
        .json as { data: { content_id: string; content: string }[] }
    ).data;
  // Both indexes are built (empty) before the uploads.
  t.same(await search(one.url), []);
  t.same(await search(two.url), []);
  const ids: string[] = [];
  for (const text of ['Otters hold hands while they sleep', 'Beavers build dams, otters do not']) {
    const upload = await json(
      one.url,
      'POST',
      '/knowledge/content',
      new URLSearchParams({ text_content: text }).toString(),
      'application/x-www-form-urlencoded',
    );
    t.equal(upload.status, 202);
    const id = (upload.json as { id: string }).id;
    ids.push(id);
    for (;;) {
      const status = await json(two.url, 'GET', `/knowledge/content/${id}/status`);
      if ((status.json as { status: string }).status !== 'processing') break;
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  const throughTwo = await search(two.url);
  t.same(
    throughTwo.map((hit) => hit.content_id).sort(),
    [...ids].sort(),
    'both found through the other runtime',
  );
  t.same(await search(one.url), throughTwo, 'ranked alike by both');
  const deleted = await json(two.url, 'DELETE', `/knowledge/content/${ids[0]}`);
  t.equal(deleted.status, 200);
  t.same(
    (await search(one.url)).map((hit) => hit.content_id),
    [ids[1]],
    'a delete through the other leaves the first',
  );
});

t.test('ten schedules made due at once fire exactly once across both runtimes', async (t) => {
  const replicas = await pair(t);
  if (replicas === null) return;
  const { db, clock, one, two } = replicas;
  const ids: string[] = [];
  for (let i = 0; i < 10; i++) {
    const res = await send(one.url, {
      method: 'POST',
      path: '/schedules',
      headers: {
        ...bearer(await goodToken({ sub: 'ops', scopes: ['schedules:write'] })),
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        name: `every-minute-${i}`,
        cron_expr: '* * * * *',
        endpoint: '/agents/a1/runs',
        payload: { message: `scheduled ${i}` },
      }),
    });
    t.equal(res.status, 201, `schedule ${i} created`);
    ids.push((res.json as { id: string }).id);
  }
  clock.advance(60_000);
  await Promise.all([one.runtime.scheduler.tick(), two.runtime.scheduler.tick()]);

  const client = new pg.Client({ connectionString: db });
  await client.connect();
  t.teardown(() => client.end());
  const { rows } = await client.query<{ schedule_id: string; fired: number }>(
    'SELECT schedule_id, count(*)::int AS fired FROM schedule_runs GROUP BY schedule_id ORDER BY schedule_id',
  );
  t.same(
    rows,
    [...ids].sort().map((id) => ({ schedule_id: id, fired: 1 })),
    'one schedule run each',
  );
  const runs = await client.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM runs WHERE user_id = '__scheduler__'",
  );
  t.equal(runs.rows[0]!.n, 10, 'one agent run each');
  const claimants = await client.query<{ claimed_by: string | null; n: number }>(
    'SELECT claimed_by, count(*)::int AS n FROM schedule_runs GROUP BY claimed_by ORDER BY claimed_by',
  );
  t.comment(`slots claimed: ${JSON.stringify(claimants.rows)}`);
  t.ok(
    claimants.rows.every((row) => row.claimed_by === 'replica-1' || row.claimed_by === 'replica-2'),
    'each schedule run records the runtime that claimed its slot',
  );
});
