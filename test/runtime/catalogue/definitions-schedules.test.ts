/**
 * The `runtime.schedules` keys: `tick_seconds` defaults to 10, takes an integer or its canonical
 * text (interpolation), refuses anything else naming the key (and a runtime with it does not
 * start), and is the interval of the real timer a started runtime ticks on.
 */
import t from 'tap';
import { buildCatalogue } from '../../../src/runtime/catalogue/resolve.js';
import { startRuntime } from '../../../src/runtime/start.js';
import { createTestClock, TEST_NOW } from '../../fixtures/tokens.js';
import { TEST_IDENTITY_SECRET } from '../fixtures/runtime.js';
import { aSchedule } from '../store/fixtures/records.js';

const RULE = 'runtime.schedules.tick_seconds: must be an integer from 1 to 3600';

t.test('defaults: a look for due slots every 10 s', async (t) => {
  t.same(buildCatalogue({}).settings?.schedules, { tick_seconds: 10 });
  t.same(buildCatalogue({ schedules: {} }).settings?.schedules, { tick_seconds: 10 });
});

t.test('tick_seconds takes an integer or its canonical text', async (t) => {
  for (const [given, read] of [
    [1, 1],
    [3600, 3600],
    ['30', 30],
  ] as const) {
    const { settings, problems } = buildCatalogue({ schedules: { tick_seconds: given } });
    t.same(problems, [], JSON.stringify(given));
    t.equal(settings?.schedules.tick_seconds, read, JSON.stringify(given));
  }
});

t.test('every bad value is a problem naming the key', async (t) => {
  for (const bad of [0, -1, 3601, 1.5, '10s', '010', '', null, true, [10]]) {
    t.same(
      buildCatalogue({ schedules: { tick_seconds: bad } }).problems,
      [RULE],
      JSON.stringify(bad),
    );
  }
  t.same(buildCatalogue({ schedules: { tick: 5 } }).problems, [
    'runtime.schedules: Unrecognized key: "tick"',
  ]);
});

t.test('a runtime with a bad tick_seconds does not start, naming the key', async (t) => {
  await t.rejects(
    startRuntime({
      settings: { db: ':memory:', schedules: { tick_seconds: 0 } },
      dir: t.testdir({}),
      host: '127.0.0.1',
      port: 0,
      clock: createTestClock(),
      identitySecret: TEST_IDENTITY_SECRET,
    }),
    { message: `invalid runtime settings:\n  ${RULE}` },
  );
});

t.test('a started runtime looks for due slots every tick_seconds', async (t) => {
  const clock = createTestClock();
  const running = await startRuntime({
    settings: { db: ':memory:', schedules: { tick_seconds: 1 } },
    dir: t.testdir({}),
    host: '127.0.0.1',
    port: 0,
    clock,
    identitySecret: TEST_IDENTITY_SECRET,
  });
  t.teardown(() => running.close());
  await running.store.schedules.insert(aSchedule({ id: 's1' }));
  clock.advance(60_000);
  // The default (10 s) would not fire within this bound; the setting's 1 s does.
  const started = Date.now();
  let total = 0;
  while (total === 0 && Date.now() - started < 8_000) {
    await new Promise((r) => setTimeout(r, 50));
    total = (await running.store.schedules.listRuns('s1', 1, 10)).total;
  }
  t.comment(`first tick fired the slot after ${Date.now() - started} ms`);
  t.equal(total, 1, 'fired by the interval timer, without an executor: recorded as failed');
  t.equal((await running.store.schedules.get('s1'))?.next_run_at, TEST_NOW + 120);
});
