/**
 * Upstream slots and callers' counts: free slots are taken at once, a freed slot goes to the
 * longest waiter, a waiter times out or cancels, the queue is bounded; a caller is refused at
 * its cap and its entry disappears with its last request. Time is a hand-run schedule.
 */
import t from 'tap';
import {
  createCallerCounts,
  createUpstreamSlots,
  MAX_WAITING_PER_SLOT,
  type Schedule,
} from '../../src/gateway/upstream-slots.js';

/** A schedule the test runs by hand: `advance(ms)` runs every task due by then, in due order. */
function manualTimers(): {
  schedule: Schedule;
  advance(ms: number): void;
  readonly pending: number;
} {
  let now = 0;
  const tasks: { at: number; run: () => void }[] = [];
  return {
    schedule: (run, ms) => {
      const task = { at: now + ms, run };
      tasks.push(task);
      return () => {
        const i = tasks.indexOf(task);
        if (i !== -1) tasks.splice(i, 1);
      };
    },
    advance(ms) {
      now += ms;
      for (;;) {
        const due = tasks.filter((task) => task.at <= now).sort((a, b) => a.at - b.at)[0];
        if (due === undefined) return;
        tasks.splice(tasks.indexOf(due), 1);
        due.run();
      }
    },
    get pending() {
      return tasks.length;
    },
  };
}

t.test('free slots are taken at once, up to the capacity', async (t) => {
  const slots = createUpstreamSlots(2);
  t.equal(slots.capacity, 2);
  t.ok(slots.tryAcquire());
  t.ok(slots.tryAcquire());
  t.notOk(slots.tryAcquire(), 'a third is refused');
  t.equal(slots.inUse, 2);
  slots.release();
  t.equal(slots.inUse, 1);
  slots.release();
  slots.release();
  t.equal(slots.inUse, 0, 'an extra release never goes below zero');
});

t.test('a freed slot goes to the longest waiter, first in first out', async (t) => {
  const clock = manualTimers();
  const slots = createUpstreamSlots(1, clock.schedule);
  t.ok(slots.tryAcquire());
  const order: string[] = [];
  slots.wait(
    1000,
    () => order.push('first'),
    () => order.push('first timed out'),
  );
  slots.wait(
    1000,
    () => order.push('second'),
    () => order.push('second timed out'),
  );
  t.equal(slots.waiting, 2);
  slots.release();
  t.same(order, ['first'], 'the slot was handed over');
  t.equal(slots.inUse, 1, 'and is still held');
  t.equal(slots.waiting, 1);
  slots.release();
  t.same(order, ['first', 'second']);
  clock.advance(5000);
  t.same(order, ['first', 'second'], 'a granted waiter never times out');
  slots.release();
  t.equal(slots.inUse, 0);
});

t.test('a waiter times out after its bound; one that cancels leaves the queue', async (t) => {
  const clock = manualTimers();
  const slots = createUpstreamSlots(1, clock.schedule);
  t.ok(slots.tryAcquire());
  const order: string[] = [];
  const first = slots.wait(
    100,
    () => order.push('first'),
    () => order.push('first timed out'),
  );
  const second = slots.wait(
    200,
    () => order.push('second'),
    () => order.push('second timed out'),
  );
  const third = slots.wait(
    300,
    () => order.push('third'),
    () => order.push('third timed out'),
  );
  second?.cancel();
  second?.cancel();
  t.equal(slots.waiting, 2, 'the middle one left');
  clock.advance(100);
  t.same(order, ['first timed out']);
  first?.cancel();
  t.equal(slots.waiting, 1, 'cancelling after the time-out does nothing');
  slots.release();
  t.same(order, ['first timed out', 'third'], 'the cancelled one is skipped');
  clock.advance(1000);
  third?.cancel();
  t.same(order, ['first timed out', 'third']);
  t.equal(slots.waiting, 0);
  t.equal(clock.pending, 0, 'no timer is left behind');
});

t.test('the last waiter of the queue can leave it', async (t) => {
  const clock = manualTimers();
  const slots = createUpstreamSlots(1, clock.schedule);
  t.ok(slots.tryAcquire());
  const order: string[] = [];
  slots.wait(
    100,
    () => order.push('first'),
    () => order.push('first timed out'),
  );
  const last = slots.wait(
    100,
    () => order.push('last'),
    () => order.push('last timed out'),
  );
  last?.cancel();
  slots.wait(
    100,
    () => order.push('after'),
    () => order.push('after timed out'),
  );
  slots.release();
  slots.release();
  t.same(order, ['first', 'after'], 'the queue is intact behind a cancelled tail');
});

t.test('at most MAX_WAITING_PER_SLOT requests per slot wait', async (t) => {
  const clock = manualTimers();
  const slots = createUpstreamSlots(2, clock.schedule);
  slots.tryAcquire();
  slots.tryAcquire();
  const waits = Array.from({ length: 2 * MAX_WAITING_PER_SLOT }, () =>
    slots.wait(
      100,
      () => undefined,
      () => undefined,
    ),
  );
  t.ok(waits.every((w) => w !== null));
  t.equal(
    slots.wait(
      100,
      () => undefined,
      () => undefined,
    ),
    null,
    'the queue is full',
  );
});

t.test("callers' counts: refused at the cap, gone with the last request", async (t) => {
  const callers = createCallerCounts();
  t.ok(callers.tryAcquire('jwt:a', 2));
  t.ok(callers.tryAcquire('jwt:a', 2));
  t.notOk(callers.tryAcquire('jwt:a', 2), 'the third is over the cap');
  t.ok(callers.tryAcquire('jwt:b', 2), 'another caller has its own count');
  t.equal(callers.of('jwt:a'), 2);
  t.equal(callers.callers, 2);
  callers.release('jwt:a');
  t.equal(callers.of('jwt:a'), 1);
  callers.release('jwt:a');
  callers.release('jwt:b');
  t.equal(callers.callers, 0, 'no entry is kept for a caller with nothing in flight');
  callers.release('jwt:a');
  t.equal(callers.of('jwt:a'), 0, 'an extra release is ignored');
});
