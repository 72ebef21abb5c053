/**
 * Readiness (`/readyz` on the admin listener): config, upstream and store checks on a real upstream
 * socket, the probe's meaning of "answering", its bound, and its short cache on the test clock.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import {
  createReadiness,
  probeUpstream,
  PROBE_CACHE_MS,
  PROBE_PATH,
  type ReadinessSubject,
} from '../../src/admin/health.js';
import { createUpstream, type Upstream } from '../../src/gateway/stages/forward.js';
import { closedPortUrl } from '../fixtures/e2e.js';
import { createTestClock } from '../fixtures/tokens.js';

/** A real upstream whose answer the test sets; counts the requests it got and their paths. */
async function startProbed(
  t: Test,
  answer: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end('ok'),
) {
  const paths: string[] = [];
  let handler = answer;
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  t.teardown(close);
  return {
    url,
    paths,
    answerWith: (next: typeof answer) => {
      handler = next;
    },
    close,
  };
}

function upstreamAt(t: Test, url: string): Upstream {
  const upstream = createUpstream(url, 5000);
  t.teardown(() => upstream.pool.close());
  return upstream;
}

function subject(
  upstream: Upstream,
  store: { available: boolean } | null = null,
  jwks: { ready(): boolean } | null = null,
): ReadinessSubject {
  return {
    upstream,
    serviceAccounts: store === null ? null : { store },
    chain: { remoteJwks: jwks },
  };
}

t.test('the probe: any answer below 500 is up; 5xx, refused or silent is down', async (t) => {
  const probed = await startProbed(t);
  const upstream = upstreamAt(t, `${probed.url}/base/`);
  t.equal(await probeUpstream(upstream, 1000), true, '200');
  t.same(probed.paths, [`/base${PROBE_PATH}`], 'GET <upstream.url>/health');
  for (const status of [204, 301, 401, 404, 499]) {
    probed.answerWith((_req, res) => {
      res.statusCode = status;
      res.end();
    });
    t.equal(await probeUpstream(upstream, 1000), true, `${status} is an answer`);
  }
  for (const status of [500, 502, 503]) {
    probed.answerWith((_req, res) => {
      res.statusCode = status;
      res.end('down');
    });
    t.equal(await probeUpstream(upstream, 1000), false, `${status} is not ready`);
  }
  t.equal(await probeUpstream(upstreamAt(t, await closedPortUrl()), 1000), false, 'refused');
  probed.answerWith(() => {}); // never answers
  t.equal(await probeUpstream(upstream, 50), false, 'no answer within the bound');
});

t.test(
  'ready when config, upstream and store are fine; each failure is named; a store that is down leaves it ready',
  async (t) => {
    const probed = await startProbed(t);
    const upstream = upstreamAt(t, probed.url);
    const store = { available: true };
    let current: ReadinessSubject | null = subject(upstream, store);
    const clock = createTestClock();
    const readiness = createReadiness({ current: () => current, clock });

    t.same(await readiness(), {
      ready: true,
      checks: { config: 'ok', upstream: 'ok', service_account_store: 'ok' },
      failing: [],
      degraded: [],
    });
    store.available = false;
    t.same(await readiness(), {
      ready: true,
      checks: { config: 'ok', upstream: 'ok', service_account_store: 'failing' },
      failing: [],
      degraded: ['service_account_store'],
    });
    current = subject(upstream);
    t.same(
      await readiness(),
      { ready: true, checks: { config: 'ok', upstream: 'ok' }, failing: [], degraded: [] },
      'no store check when service accounts are off',
    );
    let keysHeld = false;
    current = subject(upstream, null, { ready: () => keysHeld });
    t.same(
      await readiness(),
      {
        ready: false,
        checks: { config: 'ok', upstream: 'ok', jwks: 'failing' },
        failing: ['jwks'],
        degraded: [],
      },
      'auth.jwks_url configured and no keys held yet: not ready',
    );
    keysHeld = true;
    t.same(await readiness(), {
      ready: true,
      checks: { config: 'ok', upstream: 'ok', jwks: 'ok' },
      failing: [],
      degraded: [],
    });
    current = null;
    t.same(await readiness(), {
      ready: false,
      checks: { config: 'failing', upstream: 'failing' },
      failing: ['config', 'upstream'],
      degraded: [],
    });
  },
);

t.test('the probe answer is reused for a short time, then asked again', async (t) => {
  const probed = await startProbed(t);
  const upstream = upstreamAt(t, probed.url);
  const clock = createTestClock();
  const readiness = createReadiness({ current: () => subject(upstream), clock });

  const storm = await Promise.all(Array.from({ length: 20 }, () => readiness()));
  t.ok(
    storm.every((r) => r.ready),
    'twenty concurrent checks are ready',
  );
  t.equal(probed.paths.length, 1, 'and cost the upstream one probe');
  clock.advance(PROBE_CACHE_MS - 1);
  await readiness();
  t.equal(probed.paths.length, 1, 'still cached just before the interval ends');

  probed.answerWith((_req, res) => {
    res.statusCode = 503;
    res.end();
  });
  t.equal((await readiness()).ready, true, 'the cached answer stands until it expires');
  clock.advance(1);
  t.same((await readiness()).failing, ['upstream'], 'asked again once the interval passed');
  t.equal(probed.paths.length, 2);
});

t.test('a different upstream (a reload) is probed at once; options bound the probe', async (t) => {
  const first = await startProbed(t);
  const second = await startProbed(t, () => {}); // never answers
  let upstream = upstreamAt(t, first.url);
  const readiness = createReadiness({
    current: () => subject(upstream),
    clock: createTestClock(),
    probeTimeoutMs: 50,
    probeCacheMs: 60_000,
  });
  t.equal((await readiness()).ready, true);
  upstream = upstreamAt(t, second.url);
  t.same((await readiness()).failing, ['upstream'], 'the new upstream, within the cache time');
  t.equal(second.paths.length, 1);
});
