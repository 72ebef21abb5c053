/**
 * The schedule store on the query layer, on a real SQLite file: the claim of a due slot is a
 * compare-and-set (two stores on one file, two schedulers ticking at once: each slot fires
 * once), an update writes only what it changes, a finished run is not recorded into a deleted
 * schedule, and a closed store answers the schedule routes with a 500, never a 200.
 */
import { join } from 'node:path';
import t, { type Test } from 'tap';
import type { ScheduleRecord } from '../../../../src/runtime/api/schedules/table.js';
import { createScheduler } from '../../../../src/runtime/api/schedules/scheduler.js';
import { openRuntimeStore, type RuntimeStore } from '../../../../src/runtime/store/store.js';
import { createTestClock, TEST_NOW } from '../../../fixtures/tokens.js';
import { call, runtimeApp } from '../../fixtures/runtime.js';

const M = (n: number) => TEST_NOW + 60 * n;

/** Two stores (two connections) on one fresh file, closed at teardown. */
function twoStores(t: Test): [RuntimeStore, RuntimeStore] {
  const path = join(t.testdir(), 'runtime.db');
  const stores: [RuntimeStore, RuntimeStore] = [openRuntimeStore(path), openRuntimeStore(path)];
  t.teardown(() => stores.forEach((store) => store.close()));
  return stores;
}

const schedule = (id: string, fields: Partial<ScheduleRecord> = {}): ScheduleRecord => ({
  id,
  name: `name of ${id}`,
  description: null,
  method: 'POST',
  endpoint: '/agents/a1/runs',
  payload: { message: id },
  cron_expr: '* * * * *',
  timezone: 'UTC',
  timeout_seconds: 60,
  max_retries: 0,
  retry_delay_seconds: 5,
  enabled: true,
  next_run_at: M(1),
  created_at: TEST_NOW,
  updated_at: TEST_NOW,
  ...fields,
});

t.test('a claim is a compare-and-set on the slot read: one of two stores wins', async (t) => {
  const [one, two] = twoStores(t);
  await one.schedules.insert(schedule('s1'));
  const read = (await one.schedules.get('s1')) as ScheduleRecord;
  const won = await Promise.all([one.schedules.claim(read, M(2)), two.schedules.claim(read, M(2))]);
  t.same(won.filter(Boolean), [true], 'exactly one claim');
  t.equal((await two.schedules.get('s1'))?.next_run_at, M(2), 'advanced once');
  t.equal(await one.schedules.claim(read, M(3)), false, 'a stale read claims nothing');

  const moved = (await one.schedules.get('s1')) as ScheduleRecord;
  await two.schedules.update('s1', { enabled: false, updated_at: M(0.5) });
  t.equal(await one.schedules.claim(moved, M(3)), false, 'a disabled schedule is not claimed');
  t.same(
    await one.schedules.get('s1'),
    schedule('s1', { enabled: false, next_run_at: M(2), updated_at: M(0.5) }),
    'the update wrote only what it changed',
  );
});

t.test('an update never writes back a slot claimed since it read', async (t) => {
  const [one, two] = twoStores(t);
  await one.schedules.insert(schedule('s1'));
  const read = (await one.schedules.get('s1')) as ScheduleRecord;
  t.equal(await two.schedules.claim(read, M(2)), true, 'another process claims the slot');
  t.equal(await one.schedules.update('s1', { name: 'renamed' }), true);
  t.same(await one.schedules.get('s1'), schedule('s1', { name: 'renamed', next_run_at: M(2) }));
  t.equal(await one.schedules.update('nope', { name: 'x' }), false, 'an unknown id');
  t.equal(await one.schedules.insert(schedule('s2', { name: 'renamed' })), false, 'a taken name');
  t.same(await one.schedules.byName('renamed'), await one.schedules.get('s1'));
  t.equal(await one.schedules.byName('nope'), null);
});

t.test('two schedulers on one file ticking at once fire each due slot once', async (t) => {
  const [one, two] = twoStores(t);
  const clock = createTestClock();
  const calls: string[] = [];
  let ids = 0;
  const schedulers = [one, two].map((store, n) => {
    const scheduler = createScheduler({
      store: store.schedules,
      clock,
      sleep: async () => {},
      newId: () => `p${n}-${++ids}`,
    });
    scheduler.attach(async (s) => {
      calls.push(s.id);
      return {
        status: 'success',
        statusCode: 200,
        runId: null,
        sessionId: null,
        error: null,
        output: null,
        requirements: null,
      };
    });
    t.teardown(() => scheduler.close());
    return scheduler;
  });
  const ten = Array.from({ length: 10 }, (_, i) => `s${i}`);
  for (const id of ten) await one.schedules.insert(schedule(id));
  clock.advance(60_000);
  await Promise.all(schedulers.map((scheduler) => scheduler.tick()));
  t.same(calls.sort(), [...ten].sort(), 'each schedule fired once');
  for (const id of ten) {
    const { rows, total } = await two.schedules.listRuns(id, 1, 10);
    t.equal(total, 1, `${id}: one schedule run`);
    t.match(rows, [{ status: 'success', attempt: 1 }], `${id}: recorded`);
    t.equal((await one.schedules.get(id))?.next_run_at, M(2), `${id}: advanced once`);
  }
});

t.test(
  'runs: finishing one of a deleted schedule writes nothing; reads keep to the schedule',
  async (t) => {
    const [store] = twoStores(t);
    await store.schedules.insert(schedule('s1'));
    await store.schedules.insert(schedule('s2'));
    const run = {
      id: 'r1',
      schedule_id: 's1',
      attempt: 1,
      triggered_at: M(1),
      completed_at: null,
      status: 'running' as const,
      status_code: null,
      run_id: null,
      session_id: null,
      error: null,
      input: { message: 's1' },
      output: null,
      requirements: null,
      created_at: M(1),
    };
    await store.schedules.putRun(run);
    const done = { ...run, status: 'success' as const, completed_at: M(1), output: [1, 'two'] };
    t.equal(await store.schedules.finishRun(done), true);
    t.same(await store.schedules.getRun('s1', 'r1'), done, 'JSON read back');
    t.equal(await store.schedules.getRun('s2', 'r1'), null, "another schedule's run is not found");
    t.equal(await store.schedules.getRun('s1', 'nope'), null);
    await store.schedules.delete('s1');
    t.equal(await store.schedules.finishRun(done), false, 'gone with its schedule');
    t.equal(await store.schedules.getRun('s1', 'r1'), null);
  },
);

t.test('a closed store: the schedule routes answer 500, never a 200', async (t) => {
  const rt = runtimeApp(t);
  rt.store.close();
  const rows: [name: string, url: string][] = [
    ['GET /schedules', '/schedules'],
    ['GET /schedules?enabled=true', '/schedules?enabled=true'],
    ['GET /schedules/{id}', '/schedules/s1'],
    ['GET /schedules/{id}/runs', '/schedules/s1/runs'],
    ['GET /schedules/{id}/runs/{run_id}', '/schedules/s1/runs/r1'],
  ];
  for (const [name, url] of rows) {
    t.same(
      await call(rt, 'GET', url),
      { status: 500, body: { detail: 'Internal runtime error' } },
      name,
    );
  }
});
