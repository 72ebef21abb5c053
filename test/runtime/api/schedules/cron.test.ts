/**
 * Cron rules of schedules: five fields only, IANA zones only, next run strictly after a time,
 * and the owed ticks between two times (bounded).
 */
import t from 'tap';
import {
  cronProblem,
  lastRunBetween,
  nextRunAfter,
  runsFrom,
  timezoneProblem,
} from '../../../../src/runtime/api/schedules/cron.js';
import { TEST_NOW } from '../../../fixtures/tokens.js';

t.test('cron expressions: five valid fields, nothing else', async (t) => {
  for (const good of ['* * * * *', '0 9 * * 1-5', '*/15 0 1 1 *']) {
    t.equal(cronProblem(good), null, good);
  }
  for (const bad of ['bad', '* * * * * *', '@daily', '61 * * * *', '']) {
    t.equal(cronProblem(bad), `Invalid cron expression: ${bad}`, JSON.stringify(bad));
  }
});

t.test('time zones: IANA names only', async (t) => {
  t.equal(timezoneProblem('UTC'), null);
  t.equal(timezoneProblem('Europe/Stockholm'), null);
  for (const bad of ['Mars/Olympus', '', '+01:00', '-05:00', '+0100']) {
    t.equal(timezoneProblem(bad), `Invalid timezone: ${bad}`, JSON.stringify(bad));
  }
});

t.test('the next run is strictly after the given time, in the zone', async (t) => {
  t.equal(nextRunAfter('* * * * *', 'UTC', TEST_NOW), TEST_NOW + 60);
  t.equal(nextRunAfter('* * * * *', 'UTC', TEST_NOW + 30), TEST_NOW + 60);
  // 00:00 in Stockholm (UTC+1 in January) is 23:00 UTC the day before.
  t.equal(nextRunAfter('0 0 * * *', 'Europe/Stockholm', TEST_NOW), TEST_NOW + 23 * 3600);
  t.equal(nextRunAfter('0 0 30 2 *', 'UTC', TEST_NOW), null, 'the 30th of February never comes');
});

t.test('owed runs: from the first up to a time, bounded', async (t) => {
  const m = (n: number) => TEST_NOW + 60 * n;
  t.same(runsFrom('* * * * *', 'UTC', m(1), m(3), 10), [m(1), m(2), m(3)]);
  t.same(runsFrom('* * * * *', 'UTC', m(1), m(1) + 59, 10), [m(1)]);
  t.same(runsFrom('* * * * *', 'UTC', m(1), m(100), 2), [m(1), m(2)], 'at most max');
  t.same(runsFrom('0 0 30 2 *', 'UTC', m(1), m(100), 5), [m(1)], 'stops when none is next');
});

t.test('lastRunBetween: the latest run time up to until, never before first', async (t) => {
  const H = 3600;
  t.equal(lastRunBetween('* * * * *', 'UTC', TEST_NOW, TEST_NOW + 24 * H), TEST_NOW + 24 * H);
  t.equal(lastRunBetween('0 * * * *', 'UTC', TEST_NOW, TEST_NOW + 5 * H + 59), TEST_NOW + 5 * H);
  t.equal(
    lastRunBetween('0 * * * *', 'UTC', TEST_NOW + 60, TEST_NOW + 120),
    TEST_NOW + 60,
    'first',
  );
  t.equal(lastRunBetween('0 0 30 2 *', 'UTC', TEST_NOW, TEST_NOW + H), TEST_NOW, 'never fires');
});
