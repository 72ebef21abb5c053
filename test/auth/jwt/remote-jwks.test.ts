/**
 * The remote JWK set's fetch policy, on an injected clock, fetcher and scheduler: start and the
 * refresh loop, the unknown-kid cool-down with one shared fetch, documents that are not a JWK
 * set, max stale, and close.
 */
import t from 'tap';
import {
  createRemoteJwks,
  type JwksFetcher,
  type JwksFetchResult,
  type RemoteJwksOptions,
} from '../../../src/auth/jwt/remote-jwks.js';
import { createManualScheduler, startJwksServer } from '../../fixtures/jwks-server.js';
import { createTestClock } from '../../fixtures/tokens.js';

const OPTIONS: RemoteJwksOptions = {
  url: 'https://idp.example/jwks',
  refreshMs: 300_000,
  cooldownMs: 30_000,
  maxStaleMs: 3_600_000,
};

/** A fetcher the test answers by hand: each call waits for `answer()` or `failWith()`. */
function manualFetcher() {
  const calls: { url: string; signal: AbortSignal }[] = [];
  let settle: { resolve: (text: string) => void; reject: (err: Error) => void } | null = null;
  const fetch: JwksFetcher = (url, signal) => {
    calls.push({ url, signal });
    return new Promise<string>((resolve, reject) => {
      settle = { resolve, reject };
      signal.addEventListener('abort', () => reject(new Error('AbortError')));
    });
  };
  return {
    fetch,
    calls,
    answer(text: string) {
      settle?.resolve(text);
    },
    failWith(reason: string) {
      settle?.reject(new Error(reason));
    },
  };
}

function setUp() {
  const clock = createTestClock();
  const scheduler = createManualScheduler();
  const fetcher = manualFetcher();
  const results: [JwksFetchResult, string][] = [];
  const remote = createRemoteJwks(OPTIONS, {
    clock,
    fetch: fetcher.fetch,
    schedule: scheduler,
    onFetch: (result, detail) => results.push([result, detail]),
  });
  return { clock, scheduler, fetcher, results, remote };
}

const ONE_KEY = JSON.stringify({ keys: [{ kty: 'EC', kid: 'a' }] });

t.test('start fetches once, then the loop refreshes at the refresh interval', async (t) => {
  const { scheduler, fetcher, results, remote } = setUp();
  t.equal(remote.snapshot(), null, 'nothing before the first fetch');
  t.equal(remote.ready(), false);
  t.equal(remote.lastError(), null);
  t.equal(fetcher.calls.length, 0, 'creating fetches nothing');
  const started = remote.start();
  t.equal(remote.start(), started, 'start is idempotent');
  t.equal(fetcher.calls.length, 1);
  t.equal(fetcher.calls[0]?.url, OPTIONS.url);
  fetcher.answer(ONE_KEY);
  await started;
  t.same(remote.snapshot(), { keys: [{ kty: 'EC', kid: 'a' }] });
  t.equal(remote.ready(), true);
  t.same(results, [['success', '']]);
  t.equal(scheduler.pending?.ms, OPTIONS.refreshMs);
  t.same(remote.options, OPTIONS);
  t.equal(remote.url, OPTIONS.url);

  const first = remote.snapshot();
  scheduler.fire();
  t.equal(fetcher.calls.length, 2, 'the scheduled refresh fetched');
  fetcher.answer(ONE_KEY);
  await remote.refreshForUnknownKid();
  t.equal(remote.snapshot(), first, 'an unchanged document keeps its snapshot');
  fetcher.calls.length = 0;
  scheduler.fire();
  fetcher.answer(JSON.stringify({ keys: [] }));
  await remote.refreshForUnknownKid();
  t.not(remote.snapshot(), first, 'a changed document is a new snapshot');
  t.same(remote.snapshot(), { keys: [] });
});

t.test('documents that are not a JWK set are failures that keep the last good keys', async (t) => {
  const { clock, scheduler, fetcher, results, remote } = setUp();
  const started = remote.start();
  fetcher.answer(ONE_KEY);
  await started;
  const good = remote.snapshot();
  const rows: [string, string][] = [
    ['{"keys": [', 'not JSON'],
    ['null', 'not a JWK set (no "keys" list)'],
    ['[{"keys": []}]', 'not a JWK set (no "keys" list)'],
    ['{"keys": {}}', 'not a JWK set (no "keys" list)'],
  ];
  for (const [text, reason] of rows) {
    clock.advance(OPTIONS.cooldownMs);
    scheduler.fire();
    fetcher.answer(text);
    await remote.refreshForUnknownKid();
    t.equal(remote.lastError(), reason, text);
    t.equal(remote.snapshot(), good, `${text}: the last good keys stay`);
    t.equal(scheduler.pending?.ms, OPTIONS.cooldownMs, `${text}: retried at the cool-down`);
  }
  t.same(
    results.slice(1),
    rows.map(([, reason]) => ['error', reason]),
  );
});

t.test('unknown kids: one fetch per cool-down, shared by concurrent callers', async (t) => {
  const { clock, fetcher, remote } = setUp();
  const started = remote.start();
  fetcher.answer(ONE_KEY);
  await started;
  await remote.refreshForUnknownKid();
  t.equal(fetcher.calls.length, 1, 'within the cool-down after the start: no fetch');
  clock.advance(OPTIONS.cooldownMs - 1);
  await remote.refreshForUnknownKid();
  t.equal(fetcher.calls.length, 1, 'one millisecond short of the cool-down: no fetch');
  clock.advance(1);
  const waiting = Array.from({ length: 10 }, () => remote.refreshForUnknownKid());
  t.equal(fetcher.calls.length, 2, 'ten concurrent callers, one fetch');
  t.ok(
    waiting.every((p) => p === waiting[0]),
    'they all wait for the same fetch',
  );
  fetcher.failWith('ECONNRESET');
  await Promise.all(waiting);
  t.equal(remote.lastError(), 'ECONNRESET', 'a failed refresh never rejects its callers');
  await remote.refreshForUnknownKid();
  t.equal(fetcher.calls.length, 2, 'a failure starts a new cool-down too');
});

t.test('a refresh asked for before start starts fetching', async (t) => {
  const { fetcher, remote } = setUp();
  const refreshing = remote.refreshForUnknownKid();
  t.equal(fetcher.calls.length, 1);
  t.equal(remote.start(), refreshing, 'start joins the fetch in flight');
  fetcher.answer(ONE_KEY);
  await refreshing;
  t.equal(remote.ready(), true);
});

t.test('the keys are dropped once older than max stale after the last success', async (t) => {
  const { clock, scheduler, fetcher, remote } = setUp();
  const started = remote.start();
  fetcher.answer(ONE_KEY);
  await started;
  clock.advance(OPTIONS.refreshMs);
  scheduler.fire();
  fetcher.failWith('HTTP 500');
  await remote.refreshForUnknownKid();
  clock.advance(OPTIONS.maxStaleMs - OPTIONS.refreshMs);
  t.not(remote.snapshot(), null, 'exactly max stale: still used');
  clock.advance(1);
  t.equal(remote.snapshot(), null, 'then dropped');
  t.equal(remote.ready(), false, 'and not ready');
});

t.test('close aborts a fetch in flight, reports nothing more, schedules nothing', async (t) => {
  const { scheduler, fetcher, results, remote } = setUp();
  const started = remote.start();
  remote.close();
  t.equal(fetcher.calls[0]?.signal.aborted, true, 'the fetch in flight was aborted');
  await started;
  t.same(results, [], 'an aborted fetch is no failure');
  t.equal(scheduler.pending, null, 'nothing scheduled');
  await remote.refreshForUnknownKid();
  t.equal(fetcher.calls.length, 1, 'a closed set fetches no more');
});

t.test('close while a success is on its way: it is not taken', async (t) => {
  const clock = createTestClock();
  const results: JwksFetchResult[] = [];
  let resolveFetch: (text: string) => void = () => {};
  const remote = createRemoteJwks(OPTIONS, {
    clock,
    fetch: () => new Promise<string>((r) => (resolveFetch = r)),
    schedule: createManualScheduler(),
    onFetch: (result) => results.push(result),
  });
  const started = remote.start();
  remote.close();
  resolveFetch(ONE_KEY);
  await started;
  t.equal(remote.snapshot(), null);
  t.same(results, []);
});

t.test('the real fetcher and timer: fetched, scheduled, and cancelled by close', async (t) => {
  const jwks = await startJwksServer(t, [{ kty: 'EC', kid: 'real' }]);
  const remote = createRemoteJwks({ ...OPTIONS, url: jwks.url }, { clock: createTestClock() });
  await remote.start();
  t.same(remote.snapshot(), { keys: [{ kty: 'EC', kid: 'real' }] });
  t.equal(jwks.requests, 1);
  // The refresh timer is unref'd (it never holds the process) and close cancels it.
  remote.close();
  t.equal(remote.ready(), true, 'close keeps what was fetched');
});

t.test('every document fetched is reported once, by document and result', async (t) => {
  const ISSUER = 'https://idp.example';
  const CONFIG = JSON.stringify({ issuer: ISSUER, jwks_uri: 'https://idp.example/keys' });
  const rows: {
    name: string;
    issuer?: string;
    answers: (string | Error)[];
    documents: string[];
    succeeded: boolean;
  }[] = [
    { name: 'the set', answers: [ONE_KEY], documents: ['jwks/success'], succeeded: true },
    {
      name: 'the set fails',
      answers: [new Error('HTTP 500')],
      documents: ['jwks/error'],
      succeeded: false,
    },
    {
      name: 'the set is not a JWK set',
      answers: ['{}'],
      documents: ['jwks/error'],
      succeeded: false,
    },
    {
      name: 'discovery: the configuration fails',
      issuer: ISSUER,
      answers: [new Error('ECONNREFUSED')],
      documents: ['discovery/error'],
      succeeded: false,
    },
    {
      name: 'discovery: the configuration is for another issuer',
      issuer: ISSUER,
      answers: [JSON.stringify({ issuer: 'https://other.example', jwks_uri: 'https://x/k' })],
      documents: ['discovery/error'],
      succeeded: false,
    },
    {
      name: 'discovery: the set it names fails',
      issuer: ISSUER,
      answers: [CONFIG, new Error('HTTP 404')],
      documents: ['discovery/success', 'jwks/error'],
      succeeded: false,
    },
    {
      name: 'discovery: both fetched',
      issuer: ISSUER,
      answers: [CONFIG, ONE_KEY],
      documents: ['discovery/success', 'jwks/success'],
      succeeded: true,
    },
  ];
  for (const row of rows) {
    const clock = createTestClock();
    const documents: string[] = [];
    const answers = [...row.answers];
    const remote = createRemoteJwks(
      { ...OPTIONS, ...(row.issuer === undefined ? {} : { issuer: row.issuer }) },
      {
        clock,
        schedule: createManualScheduler(),
        fetch: async () => {
          const answer = answers.shift() as string | Error;
          if (answer instanceof Error) throw answer;
          return answer;
        },
        onDocument: (document, result) => documents.push(`${document}/${result}`),
      },
    );
    t.equal(remote.lastSuccessMs(), null, `${row.name}: no success before the first fetch`);
    await remote.start();
    t.same(documents, row.documents, `${row.name}: reported`);
    t.equal(remote.lastSuccessMs(), row.succeeded ? clock.now() : null, `${row.name}: time`);
    remote.close();
  }
});
