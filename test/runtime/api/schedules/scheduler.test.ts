/**
 * The scheduler on a real SQLite file with a hand-moved clock, a hand-fired timer and a scripted
 * executor: a tick fires the due enabled schedules only, retries failed attempts, records the
 * ticks missed while the runtime was down (after a simulated restart on the same file), and
 * close() aborts and records what is in flight.
 */
import { join } from 'node:path';
import t, { type Test } from 'tap';
import type {
  ExecutionOutcome,
  ScheduleExecutor,
} from '../../../../src/runtime/api/schedules/executor.js';
import {
  createScheduler,
  MAX_MISSED_RUNS,
  NO_EXECUTOR_ERROR,
  type Scheduler,
} from '../../../../src/runtime/api/schedules/scheduler.js';
import type { SchedulerTimer } from '../../../../src/runtime/api/schedules/timer.js';
import type { ScheduleRecord } from '../../../../src/runtime/api/schedules/table.js';
import { openRuntimeStore, type RuntimeStore } from '../../../../src/runtime/store/store.js';
import { createTestClock, TEST_NOW, type TestClock } from '../../../fixtures/tokens.js';
import { aSchedule, aScheduleRun } from '../../store/fixtures/records.js';

const M = (n: number) => TEST_NOW + 60 * n;

/** A stored schedule every minute, next due at TEST_NOW + 60; `overrides` replace fields. */
const schedule = (overrides: Partial<ScheduleRecord> = {}): ScheduleRecord =>
  aSchedule({ payload: { message: 'hi' }, ...overrides });

const SUCCESS: ExecutionOutcome = {
  status: 'success',
  statusCode: 200,
  runId: 'run-1',
  sessionId: 'ses-1',
  error: null,
  output: { status: 'COMPLETED', content: 'Echo: hi' },
  requirements: null,
};
const FAILED: ExecutionOutcome = { ...SUCCESS, status: 'failed', error: 'boom', statusCode: 500 };

interface Setup {
  store: RuntimeStore;
  clock: TestClock;
  scheduler: Scheduler;
  calls: string[];
  sleeps: number[];
}

/** A scheduler over `path` (a file in the test dir unless given). */
function setup(t: Test, options: { path?: string; clock?: TestClock } = {}): Setup {
  const store = openRuntimeStore(options.path ?? join(t.testdir(), 'rt.db'));
  const clock = options.clock ?? createTestClock();
  const sleeps: number[] = [];
  let ids = 0;
  const scheduler = createScheduler({
    store: store.schedules,
    clock,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock.advance(ms);
    },
    newId: () => `id-${++ids}`,
    replicaId: 'replica-a',
  });
  t.teardown(async () => {
    await scheduler.close();
    store.close();
  });
  return { store, clock, scheduler, calls: [], sleeps };
}

/** An executor answering `outcomes` in turn (the last one forever), noting each schedule id. */
function scripted(calls: string[], ...outcomes: ExecutionOutcome[]): ScheduleExecutor {
  return async (s) => {
    calls.push(s.id);
    return (outcomes.length > 1 ? outcomes.shift() : outcomes[0]) as ExecutionOutcome;
  };
}

t.test(
  'a tick fires the due enabled schedules, records the run, advances next_run_at',
  async (t) => {
    const { store, clock, scheduler, calls } = setup(t);
    await store.schedules.insert(schedule());
    await store.schedules.insert(schedule({ id: 'off', name: 'off', enabled: false }));
    await store.schedules.insert(schedule({ id: 'later', name: 'later', next_run_at: M(5) }));
    scheduler.attach(scripted(calls, SUCCESS));
    t.equal(scheduler.canExecute, true);

    await scheduler.tick();
    t.same(calls, [], 'nothing is due before the minute');
    clock.advance(60_000);
    await scheduler.tick();
    t.same(calls, ['sch-1'], 'the due one only: not the disabled one, not the later one');
    const { rows, total } = await store.schedules.listRuns('sch-1', 1, 10);
    t.equal(total, 1);
    t.same(rows[0], {
      id: 'id-1',
      schedule_id: 'sch-1',
      attempt: 1,
      triggered_at: M(1),
      completed_at: M(1),
      status: 'success',
      status_code: 200,
      run_id: 'run-1',
      session_id: 'ses-1',
      error: null,
      input: { message: 'hi' },
      output: { status: 'COMPLETED', content: 'Echo: hi' },
      requirements: null,
      created_at: M(1),
      slot: M(1),
      claimed_by: 'replica-a',
    });
    t.equal((await store.schedules.get('sch-1'))?.next_run_at, M(2), 'the next minute');
    t.equal((await store.schedules.get('off'))?.next_run_at, M(1), 'a disabled one is left alone');
    await scheduler.tick();
    t.same(calls, ['sch-1'], 'not fired twice in the same minute');
  },
);

t.test('failed attempts are retried max_retries times, retry_delay_seconds apart', async (t) => {
  const { store, clock, scheduler, calls, sleeps } = setup(t);
  await store.schedules.insert(schedule({ max_retries: 2, retry_delay_seconds: 7 }));
  scheduler.attach(scripted(calls, FAILED, FAILED, SUCCESS));
  clock.advance(60_000);
  await scheduler.tick();
  t.same(sleeps, [7000, 7000]);
  const runs = (await store.schedules.listRuns('sch-1', 1, 10)).rows.reverse();
  t.same(
    runs.map((r) => [r.attempt, r.status, r.error, r.triggered_at, r.slot]),
    [
      [1, 'failed', 'boom', M(1), M(1)],
      [2, 'failed', 'boom', M(1) + 7, M(1)],
      [3, 'success', null, M(1) + 14, M(1)],
    ],
    'every attempt of one slot',
  );

  // Out of retries: the last failure stands.
  await store.schedules.insert(
    schedule({ id: 'sch-2', name: 'two', max_retries: 1, next_run_at: M(2) }),
  );
  scheduler.attach(scripted(calls, FAILED));
  clock.advance(60_000);
  await scheduler.tick();
  t.same(
    (await store.schedules.listRuns('sch-2', 1, 10)).rows.map((r) => [r.attempt, r.status]),
    [
      [2, 'failed'],
      [1, 'failed'],
    ],
  );
});

t.test('without an executor due runs are recorded as failed, naming the setting', async (t) => {
  const { store, clock, scheduler } = setup(t);
  t.equal(scheduler.canExecute, false);
  await store.schedules.insert(schedule());
  clock.advance(60_000);
  await scheduler.tick();
  t.match((await store.schedules.listRuns('sch-1', 1, 10)).rows, [
    { status: 'failed', error: NO_EXECUTOR_ERROR, status_code: null },
  ]);
  t.match(NO_EXECUTOR_ERROR, /auth\.internal_service_token/);
});

t.test('an executor that throws is recorded as failed', async (t) => {
  const { store, clock, scheduler } = setup(t);
  await store.schedules.insert(schedule());
  scheduler.attach(async () => {
    throw new Error('kaput');
  });
  clock.advance(60_000);
  await scheduler.tick();
  t.match((await store.schedules.listRuns('sch-1', 1, 10)).rows, [
    { status: 'failed', error: 'Executor failed: Error: kaput' },
  ]);
});

t.test('missed ticks after a restart are recorded, then it fires once', async (t) => {
  const dir = t.testdir();
  const path = join(dir, 'rt.db');
  const clock = createTestClock();
  // First life: the schedule is created, then the runtime stops before its first minute.
  const first = openRuntimeStore(path);
  await first.schedules.insert(schedule());
  first.close();

  // Down for 4 minutes and a half: ticks at M(1) … M(4) were owed; M(4) is fired now.
  clock.advance(4.5 * 60_000);
  const { store, scheduler, calls } = setup(t, { path, clock });
  scheduler.attach(scripted(calls, SUCCESS));
  await scheduler.tick();
  t.same(calls, ['sch-1'], 'fired once');
  const runs = (await store.schedules.listRuns('sch-1', 1, 100)).rows.reverse();
  t.same(
    runs.map((r) => [r.status, r.triggered_at, r.slot, r.error]),
    [
      [
        'failed',
        M(1),
        M(1),
        'Missed scheduled run at 2030-01-01T00:01:00Z: the scheduler was not running',
      ],
      [
        'failed',
        M(2),
        M(2),
        'Missed scheduled run at 2030-01-01T00:02:00Z: the scheduler was not running',
      ],
      [
        'failed',
        M(3),
        M(3),
        'Missed scheduled run at 2030-01-01T00:03:00Z: the scheduler was not running',
      ],
      ['success', M(4.5), M(4), null],
    ],
  );
  t.equal((await store.schedules.get('sch-1'))?.next_run_at, M(5), 'computed from now');
});

t.test('a long outage records a bounded number of missed ticks and says so', async (t) => {
  const { store, clock, scheduler, calls } = setup(t);
  await store.schedules.insert(schedule());
  scheduler.attach(scripted(calls, SUCCESS));
  clock.advance(24 * 3600_000); // a day: 1440 ticks owed
  await scheduler.tick();
  const runs = (await store.schedules.listRuns('sch-1', 1, 100)).rows.reverse();
  t.equal(runs.length, MAX_MISSED_RUNS + 1);
  t.equal(
    runs[MAX_MISSED_RUNS - 1]?.error,
    'Missed scheduled run at 2030-01-01T00:10:00Z: the scheduler was not running ' +
      '(later missed runs were not recorded)',
  );
  t.equal(runs[MAX_MISSED_RUNS]?.status, 'success');
  t.same(
    runs.map((r) => r.slot),
    [...Array.from({ length: MAX_MISSED_RUNS }, (_, i) => M(i + 1)), M(24 * 60)],
    'the missed ones their ticks; the one fired the latest tick',
  );
  t.equal(calls.length, 1);
});

t.test('the timer drives ticks; start twice is once; close stops it', async (t) => {
  const { store, clock, scheduler, calls } = setup(t);
  await store.schedules.insert(schedule());
  scheduler.attach(scripted(calls, SUCCESS));
  const ticks: (() => void)[] = [];
  let stopped = 0;
  const timer: SchedulerTimer = {
    start(tick) {
      ticks.push(tick);
      return () => stopped++;
    },
  };
  scheduler.start(timer);
  scheduler.start(timer);
  t.equal(ticks.length, 1);
  clock.advance(60_000);
  ticks[0]?.();
  await scheduler.close();
  t.same(calls, ['sch-1'], 'the timer tick fired it; close waited for it');
  t.equal((await store.schedules.listRuns('sch-1', 1, 10)).rows[0]?.status, 'success');
  t.equal(stopped, 1);
  scheduler.start(timer);
  t.equal(ticks.length, 1, 'a closed scheduler never starts again');
  clock.advance(60_000);
  await scheduler.tick();
  t.same(calls, ['sch-1'], 'and never ticks');
});

t.test('close aborts an execution in flight and skips its retries', async (t) => {
  const { store, clock, scheduler } = setup(t);
  await store.schedules.insert(schedule({ max_retries: 3 }));
  let started!: () => void;
  const running = new Promise<void>((r) => (started = r));
  scheduler.attach(
    (_s, signal) =>
      new Promise((resolve) => {
        started();
        signal.addEventListener('abort', () =>
          resolve({ ...FAILED, error: 'aborted', statusCode: null }),
        );
      }),
  );
  clock.advance(60_000);
  const ticked = scheduler.tick();
  await running;
  await scheduler.close();
  await ticked;
  t.match((await store.schedules.listRuns('sch-1', 1, 10)).rows, [
    { attempt: 1, status: 'failed', error: 'aborted' },
  ]);
});

t.test('a schedule deleted while it runs: nothing is recorded into it', async (t) => {
  const { store, scheduler } = setup(t);
  await store.schedules.insert(schedule());
  scheduler.attach(async (s) => {
    await store.schedules.delete(s.id);
    return SUCCESS;
  });
  const run = await scheduler.trigger(schedule());
  t.equal(run.status, 'success', 'the caller still learns how it went');
  t.equal((await store.schedules.listRuns('sch-1', 1, 10)).total, 0);
});

t.test('trigger runs once, now, without retries', async (t) => {
  const { store, scheduler, calls } = setup(t);
  await store.schedules.insert(schedule({ max_retries: 3 }));
  scheduler.attach(scripted(calls, FAILED));
  const run = await scheduler.trigger((await store.schedules.get('sch-1')) as ScheduleRecord);
  t.match(run, {
    attempt: 1,
    status: 'failed',
    triggered_at: TEST_NOW,
    slot: null,
    claimed_by: 'replica-a',
  });
  t.same(calls, ['sch-1']);
  t.equal((await store.schedules.get('sch-1'))?.next_run_at, M(1), 'next_run_at unchanged');
});

/** A run of `slot` another replica stored. */
const othersRun = (slot: number, attempt = 1) =>
  aScheduleRun({
    id: `other-${slot}-${attempt}`,
    attempt,
    triggered_at: slot,
    created_at: slot,
    slot,
    claimed_by: 'replica-b',
  });

t.test("a slot whose run is stored already is another replica's: not executed", async (t) => {
  const { store, clock, scheduler, calls } = setup(t);
  await store.schedules.insert(schedule());
  t.equal(await store.schedules.insertRun(othersRun(M(1))), true);
  scheduler.attach(scripted(calls, SUCCESS));
  clock.advance(60_000);
  await scheduler.tick();
  t.same(calls, [], 'not executed, and the tick did not throw');
  t.same(
    (await store.schedules.listRuns('sch-1', 1, 10)).rows.map((r) => [r.id, r.claimed_by]),
    [['other-' + M(1) + '-1', 'replica-b']],
    "only the other replica's run",
  );
  t.equal((await store.schedules.get('sch-1'))?.next_run_at, M(2), 'the schedule moved on');
});

t.test("a retry whose attempt is stored already is another replica's: retries stop", async (t) => {
  const { store, clock, scheduler, calls, sleeps } = setup(t);
  await store.schedules.insert(schedule({ max_retries: 3 }));
  await store.schedules.insertRun(othersRun(M(1), 2));
  scheduler.attach(scripted(calls, FAILED));
  clock.advance(60_000);
  await scheduler.tick();
  t.same(calls, ['sch-1'], 'attempt 1 only');
  t.same(sleeps, [5000]);
  t.same(
    (await store.schedules.listRuns('sch-1', 1, 10)).rows.map((r) => [r.attempt, r.claimed_by]),
    [
      [1, 'replica-a'],
      [2, 'replica-b'],
    ],
  );
});

t.test('a missed tick whose run is stored already is left as it is', async (t) => {
  const { store, clock, scheduler, calls } = setup(t);
  await store.schedules.insert(schedule());
  await store.schedules.insertRun(othersRun(M(2)));
  scheduler.attach(scripted(calls, SUCCESS));
  clock.advance(3.5 * 60_000);
  await scheduler.tick();
  const runs = (await store.schedules.listRuns('sch-1', 1, 10)).rows;
  t.same(
    runs.map((r) => [r.slot, r.status, r.claimed_by]).sort((a, b) => Number(a[0]) - Number(b[0])),
    [
      [M(1), 'failed', 'replica-a'],
      [M(2), 'running', 'replica-b'],
      [M(3), 'success', 'replica-a'],
    ],
  );
  t.same(calls, ['sch-1']);
});

t.test('a trigger whose run id is taken fails and executes nothing', async (t) => {
  const { store, scheduler, calls } = setup(t);
  await store.schedules.insert(schedule());
  await store.schedules.insertRun({ ...othersRun(M(1)), id: 'id-1' });
  scheduler.attach(scripted(calls, SUCCESS));
  await t.rejects(scheduler.trigger(schedule()), { message: 'Schedule run id is taken' });
  t.same(calls, []);
});
