/**
 * The schedule store on the query layer, on SQLite and on PostgreSQL, opened by two stores as two
 * runtime replicas would: the claim of a due slot is a compare-and-set (two stores claiming at
 * once, two schedulers ticking at once: each slot fires once, and the run records the replica
 * that claimed it), the database refuses a second run of one slot and attempt, an update writes
 * only what it changes, a finished run is not recorded into a deleted schedule, and a closed
 * store answers the schedule routes with a 500, never a 200.
 */
import t from 'tap';
import type {
  ScheduleRecord,
  ScheduleRunRecord,
} from '../../../../src/runtime/api/schedules/table.js';
import { createScheduler } from '../../../../src/runtime/api/schedules/scheduler.js';
import { connectRuntimeStore } from '../../../../src/runtime/store/store.js';
import { testDatabase } from '../../../fixtures/postgres.js';
import { createTestClock, TEST_NOW } from '../../../fixtures/tokens.js';
import { call, runtimeApp } from '../../fixtures/runtime.js';
import { eachStore } from '../../fixtures/stores.js';
import { aSchedule, aScheduleRun } from '../../store/fixtures/records.js';

const M = (n: number) => TEST_NOW + 60 * n;

const schedule = (id: string, fields: Partial<ScheduleRecord> = {}): ScheduleRecord =>
  aSchedule({ id, name: `name of ${id}`, payload: { message: id }, next_run_at: M(1), ...fields });

/** A run of `s1`'s slot `slot`; `fields` replace fields. */
const run = (fields: Partial<ScheduleRunRecord> = {}): ScheduleRunRecord =>
  aScheduleRun({ schedule_id: 's1', input: { message: 's1' }, ...fields });

eachStore(
  t,
  'a claim is a compare-and-set on the slot read: one of two stores wins',
  async (t, stores) => {
    const [one, two] = await stores.pair();
    await one.schedules.insert(schedule('s1'));
    const read = (await one.schedules.get('s1')) as ScheduleRecord;
    const won = await Promise.all([
      one.schedules.claim(read, M(2)),
      two.schedules.claim(read, M(2)),
    ]);
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
  },
);

eachStore(t, 'an update never writes back a slot claimed since it read', async (t, stores) => {
  const [one, two] = await stores.pair();
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

eachStore(
  t,
  'two stores claiming the due slots at once: each slot is claimed once',
  async (t, stores) => {
    const [one, two] = await stores.pair();
    const ten = Array.from({ length: 10 }, (_, i) => `s${i}`);
    for (const id of ten) await one.schedules.insert(schedule(id));
    const claimed = await Promise.all(
      [one, two].map((store) => store.schedules.claimDue(M(1), () => M(2))),
    );
    const ids = claimed.flat().map(({ schedule }) => schedule.id);
    t.same([...ids].sort(), ten, 'every due schedule claimed by exactly one of the two');
    t.match(
      claimed.flat(),
      ten.map(() => ({ schedule: { next_run_at: M(1) }, next: M(2) })),
      'the slot read and the next',
    );
    for (const id of ten)
      t.equal((await two.schedules.get(id))?.next_run_at, M(2), `${id}: moved once`);
    t.same(await one.schedules.claimDue(M(1), () => M(3)), [], 'nothing is due any more');
    t.same(await two.schedules.due(M(1)), []);
    t.equal((await two.schedules.due(M(2))).length, 10, 'due again at the next slot');
  },
);

t.test('PostgreSQL: a due row another transaction holds is skipped, not waited for', async (t) => {
  const url = await testDatabase(t);
  if (url === null) return;
  const store = await connectRuntimeStore(url, { dir: t.testdir(), replicaId: 'replica-1' });
  t.teardown(() => store.close());
  await store.schedules.insert(schedule('s1'));
  await store.schedules.insert(schedule('s2'));
  const { default: pg } = await import('pg');
  const other = new pg.Client({ connectionString: url });
  await other.connect();
  t.teardown(() => other.end());
  // Another replica in the middle of its claim: it holds s1's row.
  await other.query('BEGIN');
  await other.query("SELECT id FROM schedules WHERE id = 's1' FOR UPDATE");
  const started = Date.now();
  const claimed = await store.schedules.claimDue(M(1), () => M(2));
  t.comment(`claimDue answered in ${Date.now() - started} ms while s1 was locked`);
  t.same(
    claimed.map(({ schedule }) => schedule.id),
    ['s2'],
    's1 skipped (a plain FOR UPDATE would wait until the statement timeout)',
  );
  await other.query('COMMIT');
  t.same(
    (await store.schedules.claimDue(M(1), () => M(2))).map(({ schedule }) => schedule.id),
    ['s1'],
    'claimed once the lock is gone',
  );
});

eachStore(t, 'a second run of one schedule, slot and attempt is refused', async (t, stores) => {
  const [one, two] = await stores.pair();
  await one.schedules.insert(schedule('s1'));
  t.equal(await one.schedules.insertRun(run()), true, 'the first run of the slot');
  t.equal(
    await two.schedules.insertRun(run({ id: 'r2', claimed_by: 'replica-2' })),
    false,
    'the same slot and attempt from another replica: refused',
  );
  t.equal(
    await two.schedules.insertRun(run({ claimed_by: 'replica-2', slot: M(2) })),
    false,
    'a taken id: refused',
  );
  t.equal(
    await two.schedules.insertRun(run({ id: 'r3', attempt: 2 })),
    true,
    'the next attempt of the slot',
  );
  t.equal(await two.schedules.insertRun(run({ id: 'r4', slot: M(2) })), true, 'the next slot');
  t.equal(await one.schedules.insertRun(run({ id: 't1', slot: null })), true, 'a trigger');
  t.equal(
    await two.schedules.insertRun(run({ id: 't2', slot: null })),
    true,
    'triggers never collide',
  );
  t.same(
    await two.schedules.getRun('s1', 'r1'),
    run(),
    'the first stands, with its slot and replica',
  );
  t.equal((await one.schedules.getRun('s1', 't2'))?.slot, null);
  t.equal((await one.schedules.listRuns('s1', 1, 10)).total, 5);
});

eachStore(
  t,
  'two schedulers on one database ticking at once fire each due slot once',
  async (t, stores) => {
    const [one, two] = await stores.pair();
    const clock = createTestClock();
    const calls: string[] = [];
    const ranBy = new Map<string, string>();
    let ids = 0;
    const schedulers = [one, two].map((store, n) => {
      const scheduler = createScheduler({
        store: store.schedules,
        clock,
        sleep: async () => {},
        newId: () => `p${n}-${++ids}`,
        replicaId: `replica-${n + 1}`,
      });
      scheduler.attach(async (s) => {
        calls.push(s.id);
        ranBy.set(s.id, `replica-${n + 1}`);
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
      t.match(
        rows,
        [{ status: 'success', attempt: 1, slot: M(1), claimed_by: ranBy.get(id) }],
        `${id}: recorded with its slot, by the replica that claimed it`,
      );
      t.equal((await one.schedules.get(id))?.next_run_at, M(2), `${id}: advanced once`);
    }
  },
);

eachStore(
  t,
  'runs: finishing one of a deleted schedule writes nothing; reads keep to the schedule',
  async (t, stores) => {
    const store = await stores.open();
    await store.schedules.insert(schedule('s1'));
    await store.schedules.insert(schedule('s2'));
    await store.schedules.putRun(run());
    const done = run({ status: 'success', completed_at: M(1), output: [1, 'two'] });
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
