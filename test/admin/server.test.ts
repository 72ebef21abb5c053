/**
 * The admin listener on a real socket: /metrics in the Prometheus text format,
 * /healthz, /readyz 200 or 503 naming what fails, GET and HEAD only, 404 for anything else.
 */
import { Gauge, Registry } from 'prom-client';
import t, { type Test } from 'tap';
import type { Readiness, ReadinessReport } from '../../src/admin/health.js';
import { createGatewayMetrics } from '../../src/admin/metrics.js';
import { startAdminServer, type AdminServer } from '../../src/admin/server.js';
import { httpCall, occupy } from '../fixtures/child.js';
import { parseMetrics, valueOf } from '../fixtures/observability.js';

const READY: ReadinessReport = {
  ready: true,
  checks: { config: 'ok', upstream: 'ok' },
  failing: [],
  degraded: [],
};

async function start(
  t: Test,
  registry: Registry = createGatewayMetrics().registry,
  readiness: Readiness = async () => READY,
): Promise<{ admin: AdminServer; url: string }> {
  const admin = await startAdminServer({ registry, readiness }, { host: '127.0.0.1', port: 0 });
  t.teardown(() => admin.close());
  return { admin, url: `http://127.0.0.1:${admin.address().port}` };
}

t.test('GET /metrics serves the registry as Prometheus text', async (t) => {
  const metrics = createGatewayMetrics();
  metrics.tokenCache.hit();
  const { url } = await start(t, metrics.registry);
  const answer = await httpCall(`${url}/metrics`);
  t.equal(answer.status, 200);
  t.equal(answer.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
  t.equal(answer.headers['cache-control'], 'no-store');
  t.equal(valueOf(t, parseMetrics(answer.body), 'scopegate_token_cache_hits_total'), 1);
  const withQuery = await httpCall(`${url}/metrics?name[]=x`);
  t.equal(withQuery.status, 200, 'a query string is ignored');
});

t.test('GET /healthz: the process is up', async (t) => {
  const { url } = await start(t);
  const answer = await httpCall(`${url}/healthz`);
  t.equal(answer.status, 200);
  t.equal(answer.headers['content-type'], 'application/json');
  t.same(JSON.parse(answer.body), { status: 'ok' });
});

t.test(
  'GET /readyz: 200 when ready, 503 naming the failing parts, degraded parts named in both',
  async (t) => {
    let report: ReadinessReport = READY;
    const { url } = await start(t, undefined, async () => report);
    const ready = await httpCall(`${url}/readyz`);
    t.equal(ready.status, 200);
    t.same(JSON.parse(ready.body), { status: 'ready', checks: { config: 'ok', upstream: 'ok' } });
    report = {
      ready: false,
      checks: { config: 'ok', upstream: 'failing', service_account_store: 'failing' },
      failing: ['upstream'],
      degraded: ['service_account_store'],
    };
    const notReady = await httpCall(`${url}/readyz`);
    t.equal(notReady.status, 503);
    t.same(JSON.parse(notReady.body), {
      status: 'not_ready',
      failing: ['upstream'],
      degraded: ['service_account_store'],
      checks: { config: 'ok', upstream: 'failing', service_account_store: 'failing' },
    });
    report = {
      ready: true,
      checks: { config: 'ok', upstream: 'ok', service_account_store: 'failing' },
      failing: [],
      degraded: ['service_account_store'],
    };
    const degraded = await httpCall(`${url}/readyz`);
    t.equal(degraded.status, 200, 'a store that is down leaves the gateway ready');
    t.same(JSON.parse(degraded.body), {
      status: 'ready',
      degraded: ['service_account_store'],
      checks: { config: 'ok', upstream: 'ok', service_account_store: 'failing' },
    });
  },
);

t.test('HEAD answers the headers of GET without a body', async (t) => {
  const { url } = await start(t);
  for (const path of ['/metrics', '/healthz', '/readyz']) {
    const get = await httpCall(`${url}${path}`);
    const head = await httpCall(`${url}${path}`, { method: 'HEAD' });
    t.equal(head.status, 200, `${path}: 200`);
    t.equal(head.body, '', `${path}: no body`);
    t.equal(head.headers['content-length'], String(Buffer.byteLength(get.body)), path);
  }
});

t.test('other methods are 405, other paths 404', async (t) => {
  const { url } = await start(t);
  for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
    const answer = await httpCall(`${url}/metrics`, { method });
    t.equal(answer.status, 405, `${method}: 405`);
    t.equal(answer.headers['allow'], 'GET, HEAD');
    t.same(JSON.parse(answer.body), { detail: 'Method Not Allowed: use GET, HEAD' });
  }
  for (const path of ['/', '/metrics/', '/health', '/agents', '/readyz/x']) {
    const answer = await httpCall(`${url}${path}`);
    t.equal(answer.status, 404, `${path}: 404`);
    t.same(JSON.parse(answer.body), {
      detail:
        'Not Found: the admin listener serves /metrics, /healthz, /readyz and /.well-known/jwks.json',
    });
  }
});

t.test('/.well-known/jwks.json without identity tokens is 404', async (t) => {
  const { url } = await start(t);
  const answer = await httpCall(`${url}/.well-known/jwks.json`);
  t.equal(answer.status, 404);
  t.same(JSON.parse(answer.body), { detail: 'Not Found: upstream.identity_token is not enabled' });
  t.equal(answer.headers['cache-control'], 'no-store');
});

t.test('a metric that fails to collect is a 500, and the listener keeps serving', async (t) => {
  const registry = new Registry();
  new Gauge({
    name: 'broken',
    help: 'throws on collect',
    registers: [registry],
    collect() {
      throw new Error('collect failed');
    },
  });
  const { url } = await start(t, registry);
  const answer = await httpCall(`${url}/metrics`);
  t.equal(answer.status, 500);
  t.same(JSON.parse(answer.body), { detail: 'Internal admin listener error' });
  t.equal((await httpCall(`${url}/healthz`)).status, 200);
});

t.test('a port in use is refused at start; close frees the port', async (t) => {
  const port = await occupy(t);
  await t.rejects(
    startAdminServer(
      { registry: new Registry(), readiness: async () => READY },
      { host: '127.0.0.1', port },
    ),
    { code: 'EADDRINUSE' },
  );
  const { admin, url } = await start(t);
  await admin.close();
  await t.rejects(httpCall(`${url}/healthz`), { code: 'ECONNREFUSED' });
});
