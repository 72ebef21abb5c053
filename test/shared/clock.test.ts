/**
 * The process clock: epoch milliseconds, read at call time (never cached).
 */
import t from 'tap';
import { systemClock } from '../../src/shared/clock.js';

t.test('systemClock.now() reads Date.now() at each call', async (t) => {
  const realNow = Date.now;
  t.teardown(() => {
    Date.now = realNow;
  });
  let fake = 1_000;
  Date.now = () => fake;
  t.equal(systemClock.now(), 1_000);
  fake = 2_500;
  t.equal(systemClock.now(), 2_500, 'not a value captured earlier');
});

t.test('systemClock.now() is wall-clock epoch milliseconds', async (t) => {
  const before = Date.now();
  const now = systemClock.now();
  const after = Date.now();
  t.ok(Number.isInteger(now));
  t.ok(before <= now && now <= after, 'between two reads of Date.now()');
});
