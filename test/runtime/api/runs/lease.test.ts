/**
 * Runs left RUNNING by a runtime that stopped, on SQLite and on PostgreSQL, with two stores on
 * one database as two runtimes have them: a run whose runtime's heartbeat is older than the lease
 * (or that has none) is marked failed by the holder of the sweeper lease, a live runtime's run is
 * not, only the holder sweeps, and a run that finished or moved on between the read and the
 * write is left as it is. The clock is a test clock and the rounds are fired by hand.
 *
 * The stores of the matrix both record their runs as replica `test`; the leases here run under
 * ids of their own, so `test` is the runtime whose runs are watched.
 */
import t, { type Test } from 'tap';
import {
  startReplicaLease,
  SWEEPER_LEASE,
  type LeaseOptions,
  type ReplicaLease,
} from '../../../../src/runtime/api/runs/lease.js';
import { stoppedReplicaMessage } from '../../../../src/runtime/api/runs/replicas.js';
import type { ScheduleRunRecord } from '../../../../src/runtime/api/schedules/table.js';
import type { SchedulerTimer } from '../../../../src/runtime/api/schedules/timer.js';
import type { RuntimeStore } from '../../../../src/runtime/store/store.js';
import { createTestClock, type TestClock } from '../../../fixtures/tokens.js';
import { eachStore } from '../../fixtures/stores.js';
import {
  aliceSession,
  aSchedule,
  aScheduleRun,
  completedRun,
} from '../../store/fixtures/records.js';

/** The seconds of every lease here. */
const LEASE_SECONDS = 3;
const LEASE_MS = LEASE_SECONDS * 1000;

/** A timer fired by hand; remembers whether it was stopped. */
function manualTimer(): SchedulerTimer & { fire(): void; stopped: boolean } {
  let tick: (() => void) | null = null;
  const timer = {
    stopped: false,
    start(fn: () => void) {
      tick = fn;
      return () => {
        timer.stopped = true;
      };
    },
    fire: () => tick?.(),
  };
  return timer;
}

/** A lease of `replicaId` on `store`, closed at teardown. */
async function leaseOf(
  t: Test,
  store: RuntimeStore,
  clock: TestClock,
  replicaId: string,
  options: Partial<LeaseOptions> = {},
): Promise<ReplicaLease> {
  const lease = await startReplicaLease(store, {
    replicaId,
    leaseSeconds: LEASE_SECONDS,
    clock,
    timer: manualTimer(),
    ...options,
  });
  t.teardown(() => lease.close());
  return lease;
}

/** A RUNNING run of `id`, stored through `store` (so recorded as replica `test`'s). */
async function runningRun(store: RuntimeStore, id: string): Promise<void> {
  if ((await store.getSession('sess-alice')) === null) await store.insertSession(aliceSession());
  const run = completedRun({
    run_id: id,
    status: 'RUNNING',
    output: { run_id: id, events: [{ event: 'RunStarted' }] },
  });
  if (!(await store.insertRun(run))) throw new Error(`run ${id} was taken`);
}

eachStore(t, 'a run of a runtime whose heartbeat is old is marked failed', async (t, stores) => {
  const [a, b] = await stores.pair();
  const clock = createTestClock();
  await runningRun(a, 'run-a');
  await a.replicas.beat('test', clock.now());
  const sweeper = await leaseOf(t, b, clock, 'b');

  await sweeper.round();
  t.ok(sweeper.holdsLease(), 'b took the free lease');
  t.equal((await b.getRun('run-a'))?.status, 'RUNNING', 'a live runtime: its run is left');

  clock.advance(LEASE_MS);
  await sweeper.round();
  t.equal((await b.getRun('run-a'))?.status, 'RUNNING', 'a heartbeat exactly a lease old: alive');

  clock.advance(1);
  await sweeper.round();
  const run = await b.getRun('run-a');
  t.equal(run?.status, 'ERROR');
  t.same(run?.output, {
    run_id: 'run-a',
    events: [{ event: 'RunStarted' }],
    status: 'ERROR',
    content: 'the runtime replica test running it stopped',
  });
  t.equal(run?.checkpoint, null);
  t.equal(run?.updated_at, Math.floor(clock.now() / 1000));
  t.notOk(run !== null && 'replica_id' in run, 'the replica stays internal');
  t.equal(stoppedReplicaMessage('x:1'), 'the runtime replica x:1 running it stopped');

  // The runtime was only slow: it beats again, and its next run is its own again.
  await a.replicas.beat('test', clock.now());
  await runningRun(a, 'run-a2');
  await sweeper.round();
  t.equal((await b.getRun('run-a2'))?.status, 'RUNNING');
});

eachStore(t, 'a run whose runtime has no heartbeat is failed at once', async (t, stores) => {
  const [a, b] = await stores.pair();
  const clock = createTestClock();
  await runningRun(a, 'run-a');
  // A run that records no runtime (stored before runtimes recorded theirs) is never swept.
  await a.putRun(completedRun({ run_id: 'run-old', status: 'RUNNING' }));
  await a.replicas.leave('test');
  const sweeper = await leaseOf(t, b, clock, 'b');
  await sweeper.round();
  t.equal((await b.getRun('run-a'))?.status, 'ERROR');
  t.equal((await b.getRun('run-old'))?.status, 'RUNNING');
});

eachStore(t, 'schedule runs a stopped runtime claimed are failed too', async (t, stores) => {
  const [a, b] = await stores.pair();
  const clock = createTestClock();
  await a.schedules.insert(aSchedule({ id: 's1', next_run_at: null }));
  const scheduleRun = (id: string, fields: Partial<ScheduleRunRecord>): ScheduleRunRecord =>
    aScheduleRun({ id, schedule_id: 's1', slot: null, claimed_by: 'dead', ...fields });
  await a.schedules.putRun(scheduleRun('of-dead', {}));
  await a.schedules.putRun(scheduleRun('of-live', { claimed_by: 'live' }));
  await a.schedules.putRun(scheduleRun('done', { status: 'success', completed_at: 61 }));
  await a.schedules.putRun(scheduleRun('unclaimed', { claimed_by: null }));
  await a.schedules.putRun(scheduleRun('of-restarted', { claimed_by: 'again' }));
  await a.replicas.beat('live', clock.now());
  await a.replicas.beat('dead', clock.now() - LEASE_MS - 1);
  const sweeper = await leaseOf(t, b, clock, 'b');
  await sweeper.round();
  const read = async (id: string) => b.schedules.getRun('s1', id);
  t.match(await read('of-dead'), {
    status: 'failed',
    completed_at: Math.floor(clock.now() / 1000),
    error: stoppedReplicaMessage('dead'),
  });
  t.equal((await read('of-live'))?.status, 'running', 'a live runtime: left');
  t.equal((await read('done'))?.status, 'success', 'a finished one: left');
  t.equal((await read('unclaimed'))?.status, 'running', 'one that records no claimant: left');
  t.equal((await read('of-restarted'))?.status, 'failed', 'a runtime with no heartbeat row');

  // A runtime starting again under its id fails what it left at once, whatever its heartbeat.
  await a.schedules.putRun(scheduleRun('of-live-2', { claimed_by: 'live' }));
  await leaseOf(t, a, clock, 'live');
  t.match(await read('of-live-2'), { status: 'failed', error: stoppedReplicaMessage('live') });
});

eachStore(t, 'only the holder of the lease sweeps', async (t, stores) => {
  const [a, b] = await stores.pair();
  const clock = createTestClock();
  const first = await leaseOf(t, a, clock, 'first');
  const second = await leaseOf(t, b, clock, 'second');
  await first.round();
  t.ok(first.holdsLease());

  await runningRun(a, 'run-a');
  await second.round();
  t.notOk(second.holdsLease(), 'held by first, not expired');
  t.equal((await b.getRun('run-a'))?.status, 'RUNNING', 'not swept by one without the lease');

  clock.advance(LEASE_MS - 1);
  await first.round();
  t.ok(first.holdsLease(), 'the holder renews');
  t.equal((await b.getRun('run-a'))?.status, 'ERROR', 'and sweeps');

  await runningRun(a, 'run-a2');
  clock.advance(LEASE_MS);
  await second.round();
  t.notOk(second.holdsLease(), 'renewed a lease ago: not expired yet');
  t.equal((await b.getRun('run-a2'))?.status, 'RUNNING');
  clock.advance(1);
  await second.round();
  t.ok(second.holdsLease(), 'expired: taken over');
  t.equal((await b.getRun('run-a2'))?.status, 'ERROR');
  await first.round();
  t.notOk(first.holdsLease(), 'the former holder sees it lost the lease');

  // Two taking a free lease at once: one gets it.
  await a.replicas.leave('first');
  const taken = await Promise.all([
    a.replicas.takeLease('other', 'x', clock.now(), clock.now() + LEASE_MS),
    b.replicas.takeLease('other', 'y', clock.now(), clock.now() + LEASE_MS),
  ]);
  t.same(
    taken.filter((held) => held),
    [true],
  );
  t.equal(SWEEPER_LEASE, 'sweeper');
});

eachStore(t, 'a run that finishes between the read and the write is left', async (t, stores) => {
  const [a, b] = await stores.pair();
  const clock = createTestClock();
  await runningRun(a, 'run-a');
  await runningRun(a, 'run-b');
  const [first, second] = await b.replicas.orphanedRuns({ staleBefore: clock.now() });
  t.same([first?.runId, second?.runId], ['run-a', 'run-b']);
  t.equal(first?.replicaId, 'test');

  // run-a finishes through its runtime after the sweeper read it.
  const finished = completedRun({ run_id: 'run-a' });
  t.ok(await a.updateRun(finished));
  t.notOk(await b.replicas.failOrphanedRun(first!, 'stopped', clock.now()));
  t.same(await b.getRun('run-a'), finished, 'the finished run is kept as it was stored');

  // run-b was continued elsewhere: RUNNING still, but as another runtime's.
  t.notOk(
    await b.replicas.failOrphanedRun({ ...second!, replicaId: 'other' }, 'stopped', clock.now()),
  );
  t.equal((await b.getRun('run-b'))?.status, 'RUNNING');
  t.ok(await b.replicas.failOrphanedRun(second!, 'stopped', clock.now()));
  t.notOk(await b.replicas.failOrphanedRun(second!, 'stopped', clock.now()), 'failed once');
});

eachStore(t, 'a continued run is recorded as the continuing runtime’s', async (t, stores) => {
  const [a] = await stores.pair();
  const clock = createTestClock();
  await a.insertSession(aliceSession());
  await a.putRun(completedRun({ status: 'PAUSED' }));
  t.same(await a.replicas.orphanedRuns({ replicaId: 'test' }), []);
  t.ok(await a.replaceRun(completedRun({ status: 'RUNNING' }), 'PAUSED'));
  const orphans = await a.replicas.orphanedRuns({ staleBefore: clock.now() });
  t.same(
    orphans.map((run) => [run.runId, run.replicaId]),
    [['run-1', 'test']],
  );
});

eachStore(t, 'a runtime starting again under its id fails its old runs', async (t, stores) => {
  const [a, b] = await stores.pair();
  const clock = createTestClock();
  await runningRun(a, 'run-a');
  await a.replicas.beat('test', clock.now());
  await leaseOf(t, b, clock, 'test');
  t.equal((await b.getRun('run-a'))?.status, 'ERROR', 'without waiting for the lease');
});

eachStore(t, 'a closing runtime forgets its heartbeat', async (t, stores) => {
  const [a, b] = await stores.pair();
  const clock = createTestClock();
  const timer = manualTimer();
  const lease = await leaseOf(t, a, clock, 'test', { timer });
  await runningRun(a, 'run-a');
  t.same(await b.replicas.orphanedRuns({ staleBefore: clock.now() - LEASE_MS }), []);

  // A tick of the timer and a round asked for meanwhile are one round.
  timer.fire();
  await lease.round();
  t.ok(lease.holdsLease());

  await Promise.all([lease.close(), lease.close()]);
  t.ok(timer.stopped);
  t.same(
    (await b.replicas.orphanedRuns({ staleBefore: clock.now() - LEASE_MS })).map((r) => r.runId),
    ['run-a'],
    'its runs are orphans at once',
  );
  t.notOk(await b.replicas.leave('test'), 'its row is gone');
});

eachStore(t, 'a round or a close that fails is told, never thrown', async (t, stores) => {
  const clock = createTestClock();
  const store = await stores.open();
  const errors: unknown[] = [];
  const lease = await leaseOf(t, store, clock, 'r', { onError: (error) => errors.push(error) });
  const quiet = await leaseOf(t, store, clock, 'q');
  await lease.round();
  t.ok(lease.holdsLease());
  await store.close();
  await lease.round();
  t.notOk(lease.holdsLease(), 'a failed round holds nothing');
  await quiet.round();
  t.notOk(quiet.holdsLease());
  await lease.close();
  t.equal(errors.length, 2, 'the round and the close');
  await quiet.close();
});
