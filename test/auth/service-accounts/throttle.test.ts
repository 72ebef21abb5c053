/**
 * The failed-look-up throttle: 20 failures per address within a sliding
 * 60 s are allowed, the 21st and later are throttled until the window slides; a throttled address
 * gets one look-up a second and none for a digest that failed; bounded memory.
 */
import t from 'tap';
import {
  createFailureThrottle,
  DEFAULT_FAILURE_LIMIT,
  DEFAULT_MAX_ADDRESSES,
  DEFAULT_MAX_DIGESTS,
  DEFAULT_WINDOW_MS,
  THROTTLED_LOOKUP_INTERVAL_MS,
} from '../../../src/auth/service-accounts/throttle.js';
import { createTestClock } from '../../fixtures/tokens.js';

t.test('defaults: 20 failures in 60 s from 10,000 addresses at most', async (t) => {
  t.equal(DEFAULT_FAILURE_LIMIT, 20);
  t.equal(DEFAULT_WINDOW_MS, 60_000);
  t.equal(DEFAULT_MAX_ADDRESSES, 10_000);
});

t.test('the 21st failure within 60 s is throttled, and so are the next ones', async (t) => {
  const clock = createTestClock();
  const throttle = createFailureThrottle({ clock });
  for (let i = 1; i <= 20; i++) {
    t.equal(throttle.fail('198.51.100.1'), false, `failure ${i}: not throttled`);
    clock.advance(1_000);
  }
  t.equal(throttle.fail('198.51.100.1'), true, '21st: throttled');
  t.equal(throttle.fail('198.51.100.1'), true, '22nd: throttled');
  t.equal(throttle.fail('203.0.113.9'), false, 'another address is counted apart');
});

t.test('the window slides: failures older than 60 s stop counting', async (t) => {
  const clock = createTestClock();
  const throttle = createFailureThrottle({ clock });
  for (let i = 0; i < 20; i++) throttle.fail('a');
  t.equal(throttle.fail('a'), true, 'over the limit');
  clock.advance(59_999);
  t.equal(throttle.fail('a'), true, 'still inside the window');
  clock.advance(1);
  // The first 21 failures are now exactly 60 s old: out of the window. The one at 59.999 s stays.
  t.equal(throttle.fail('a'), false, 'the window slid past the burst');
});

t.test(
  'an address that keeps failing stays throttled until it pauses a whole window',
  async (t) => {
    const clock = createTestClock();
    const throttle = createFailureThrottle({ clock, limit: 2, windowMs: 10_000 });
    t.equal(throttle.fail('a'), false);
    t.equal(throttle.fail('a'), false);
    // One failure every 3 s keeps more than 2 inside any 10 s window, throttled ones included.
    for (let i = 0; i < 5; i++) {
      clock.advance(3_000);
      t.equal(throttle.fail('a'), true, `still failing after ${(i + 1) * 3} s`);
    }
    clock.advance(10_000);
    t.equal(throttle.fail('a'), false, 'a quiet window ends it');
  },
);

t.test('memory is bounded: per address and in the number of addresses', async (t) => {
  const clock = createTestClock();
  const throttle = createFailureThrottle({ clock, maxAddresses: 3 });
  for (let i = 0; i < 1_000; i++) throttle.fail('busy');
  t.equal(throttle.size, 1);
  for (const a of ['b', 'c', 'd', 'e']) throttle.fail(a);
  t.equal(throttle.size, 3, 'the least recently failing address is forgotten');
});

t.test('isThrottled answers without recording anything', async (t) => {
  const clock = createTestClock();
  const throttle = createFailureThrottle({ clock, limit: 2 });
  t.equal(throttle.isThrottled('a'), false, 'an unknown address');
  for (let i = 0; i < 100; i++) throttle.isThrottled('b');
  t.equal(throttle.size, 0, 'asking tracks nothing');
  throttle.fail('a');
  throttle.fail('a');
  t.equal(throttle.isThrottled('a'), false, 'at the limit');
  t.equal(throttle.fail('a'), true);
  t.equal(throttle.isThrottled('a'), true, 'over it');
  clock.advance(60_000);
  t.equal(throttle.isThrottled('a'), false, 'the window slid');
});

t.test('a throttled address: one look-up a second, none for a digest that failed', async (t) => {
  t.equal(THROTTLED_LOOKUP_INTERVAL_MS, 1_000);
  t.equal(DEFAULT_MAX_DIGESTS, 10_000);
  const clock = createTestClock();
  const throttle = createFailureThrottle({ clock, limit: 0 });
  t.equal(throttle.mayLookUp('never-failed', 'd0'), true, 'an address with no entry');
  t.equal(throttle.fail('a', 'bad'), true);
  const rows: [string, number, string, boolean][] = [
    ['a new digest', 0, 'd1', true],
    ['another in the same second', 999, 'd2', false],
    ['a second later', 1, 'd2', true],
    ['the failed digest, a second later still', 1_000, 'bad', false],
    ['the failed digest once its failure left the window', 59_000, 'bad', true],
  ];
  for (const [name, advance, digest, expected] of rows) {
    clock.advance(advance);
    t.equal(throttle.mayLookUp('a', digest), expected, name);
  }
});

t.test('failed digests are bounded too', async (t) => {
  const clock = createTestClock();
  const throttle = createFailureThrottle({ clock, limit: 0, maxDigests: 1 });
  throttle.fail('a', 'first');
  throttle.fail('a', 'second');
  clock.advance(1_000);
  t.equal(throttle.mayLookUp('a', 'first'), true, 'forgotten: looked up again');
  clock.advance(1_000);
  t.equal(throttle.mayLookUp('a', 'second'), false, 'remembered');
});
