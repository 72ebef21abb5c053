/**
 * The two run-data time formats: epoch seconds and ISO-8601 UTC seconds.
 */
import t from 'tap';
import { epochSeconds, isoOfSeconds, isoSeconds } from '../../../src/runtime/engine/time.js';
import { TEST_NOW, TEST_NOW_ISO } from '../fixtures/runtime.js';

t.test('epochSeconds floors milliseconds', async (t) => {
  t.equal(epochSeconds(1_750_000_400_999), 1_750_000_400);
  t.equal(epochSeconds(0), 0);
});

t.test('isoSeconds drops the milliseconds and keeps the Z', async (t) => {
  t.equal(isoSeconds(1_750_000_400_999), '2025-06-15T15:13:20Z');
  t.equal(isoSeconds(0), '1970-01-01T00:00:00Z');
});

t.test('isoOfSeconds: epoch seconds as ISO-8601 UTC without milliseconds', async (t) => {
  t.equal(isoOfSeconds(TEST_NOW), TEST_NOW_ISO);
  t.equal(isoOfSeconds(0), '1970-01-01T00:00:00Z');
  t.equal(isoOfSeconds(1.5), '1970-01-01T00:00:01Z');
});
