/**
 * The two run-data time formats: epoch seconds and ISO-8601 UTC seconds.
 */
import t from 'tap';
import { epochSeconds, isoSeconds } from '../../../src/runtime/engine/time.js';

t.test('epochSeconds floors milliseconds', async (t) => {
  t.equal(epochSeconds(1_750_000_400_999), 1_750_000_400);
  t.equal(epochSeconds(0), 0);
});

t.test('isoSeconds drops the milliseconds and keeps the Z', async (t) => {
  t.equal(isoSeconds(1_750_000_400_999), '2025-06-15T15:13:20Z');
  t.equal(isoSeconds(0), '1970-01-01T00:00:00Z');
});
