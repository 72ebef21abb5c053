/**
 * `runtime.lease_seconds`: an integer from 3 to 3600 (or its canonical text), 30 by default; any
 * other value is a problem naming the key, and stops a runtime's start with nothing opened.
 */
import { readdirSync } from 'node:fs';
import t from 'tap';
import { buildCatalogue } from '../../../src/runtime/catalogue/resolve.js';
import { startRuntime } from '../../../src/runtime/start.js';
import { TEST_IDENTITY_SECRET } from '../fixtures/runtime.js';
import { createTestClock } from '../../fixtures/tokens.js';

const PROBLEM = 'runtime.lease_seconds: must be an integer from 3 to 3600';

t.test('30 by default; 3 to 3600, or their text', async (t) => {
  t.equal(buildCatalogue({}).settings?.lease_seconds, 30);
  for (const [raw, expected] of [
    [3, 3],
    ['3', 3],
    [3600, 3600],
    ['45', 45],
  ] as const) {
    const { settings, problems } = buildCatalogue({ lease_seconds: raw });
    t.same(problems, [], String(raw));
    t.equal(settings?.lease_seconds, expected, String(raw));
  }
});

t.test('any other value is a problem naming the key', async (t) => {
  for (const raw of [2, 3601, 0, -30, 4.5, '', 'thirty', '030', null, true]) {
    t.same(buildCatalogue({ lease_seconds: raw }).problems, [PROBLEM], JSON.stringify(raw));
  }
});

t.test('a runtime does not start with a bad lease, and opens nothing', async (t) => {
  const dir = t.testdir({});
  await t.rejects(
    startRuntime({
      settings: { db: 'rt.db', lease_seconds: 1 },
      dir,
      host: '127.0.0.1',
      port: 0,
      clock: createTestClock(),
      identitySecret: TEST_IDENTITY_SECRET,
    }),
    { message: `invalid runtime settings:\n  ${PROBLEM}` },
  );
  t.same(readdirSync(dir), [], 'no database was created');
});
