/**
 * deploy/observability: the alert rules (a plain rules file and the same rules as a Prometheus
 * Operator resource) and the Grafana dashboard only use series a running gateway exports. A real
 * gateway (two, sharing one registry: the second forwards to a closed port) takes traffic that
 * allows, refuses and fails, then its admin /metrics is scraped; every `scopegate_*` metric an
 * expression names must be there, and every label value it matches must be on some series, so an
 * alert that could never fire fails here. The traffic: 200, 401, 403, 502, and a 503 from a
 * service-account store whose file was removed; its keys also come from a remote JWK set
 * (`auth.jwks_url`), fetched once. `promtool check rules` checks the syntax when installed
 * (`.ci/run` installs Debian's prometheus package for it, so under CI=true it never skips).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import t, { type Test } from 'tap';
import { parse } from 'yaml';
import { createReadiness } from '../../src/admin/health.js';
import { startAdminServer } from '../../src/admin/server.js';
import { httpCall } from '../fixtures/child.js';
import { bearer, startPair, yamlOf } from '../fixtures/e2e.js';
import { startJwksServer } from '../fixtures/jwks-server.js';
import { RSA_KEY_2, RSA_KEY } from '../fixtures/keys.js';
import { captureTelemetry, parseMetrics, samplesOf, valueOf } from '../fixtures/observability.js';
import { createTestClock, goodToken, TEST_SERVICE_ID } from '../fixtures/tokens.js';

const DIR = resolve(import.meta.dirname, '../../deploy/observability');
const RULES_FILE = join(DIR, 'alerts.yaml');

interface Rule {
  readonly alert: string;
  readonly expr: string;
}
interface RuleGroup {
  readonly name: string;
  readonly rules: readonly Rule[];
}

const rules = parse(readFileSync(RULES_FILE, 'utf8')) as { groups: RuleGroup[] };
const operatorRule = parse(readFileSync(join(DIR, 'prometheus-rule.yaml'), 'utf8')) as {
  kind: string;
  spec: { groups: RuleGroup[] };
};
const dashboard = JSON.parse(readFileSync(join(DIR, 'grafana-dashboard.json'), 'utf8')) as {
  panels: { title: string; targets?: { expr: string }[] }[];
};

/** Every query: each rule's expression, then each dashboard panel target's. */
const QUERIES: readonly { readonly where: string; readonly expr: string }[] = [
  ...rules.groups.flatMap((g) => g.rules.map((r) => ({ where: `alert ${r.alert}`, expr: r.expr }))),
  ...dashboard.panels.flatMap((p) =>
    (p.targets ?? []).map((target) => ({ where: `panel "${p.title}"`, expr: target.expr })),
  ),
];

/** A label matcher of a selector: `name="value"`, `name=~"regex"`, and the negative forms. */
export interface Matcher {
  readonly label: string;
  readonly op: '=' | '=~' | '!=' | '!~';
  readonly value: string;
}

/** The `scopegate_*` series selectors of a PromQL expression, with their label matchers. */
export function selectorsOf(expr: string): { metric: string; matchers: Matcher[] }[] {
  return [...expr.matchAll(/\b(scopegate_[a-zA-Z0-9_]+)\s*(?:\{([^}]*)\})?/g)].map((m) => ({
    metric: m[1] as string,
    matchers: [...(m[2] ?? '').matchAll(/(\w+)\s*(=~|!~|!=|=)\s*"([^"]*)"/g)].map((l) => ({
      label: l[1] as string,
      op: l[2] as Matcher['op'],
      value: l[3] as string,
    })),
  }));
}

t.test('the selector reader finds metrics and matchers, nothing else', async (t) => {
  t.same(
    selectorsOf(
      'sum by (le) (rate(scopegate_a_bucket{instance=~"$i", status!="200"}[5m])) / scopegate_b',
    ),
    [
      {
        metric: 'scopegate_a_bucket',
        matchers: [
          { label: 'instance', op: '=~', value: '$i' },
          { label: 'status', op: '!=', value: '200' },
        ],
      },
      { metric: 'scopegate_b', matchers: [] },
    ],
  );
});

t.test('the operator resource carries exactly the rules of alerts.yaml', async (t) => {
  t.equal(operatorRule.kind, 'PrometheusRule');
  t.same(operatorRule.spec.groups, rules.groups);
  t.ok(QUERIES.length >= 20, `${QUERIES.length} queries`);
  for (const { where, expr } of QUERIES) {
    t.ok(selectorsOf(expr).length > 0, `${where} reads a scopegate series`);
  }
});

/** Why promtool's check is skipped, or false when it runs (always under CI=true). */
function promtoolMissing(): string | false {
  try {
    execFileSync('promtool', ['--version'], { stdio: 'ignore' });
    return false;
  } catch {
    return process.env['CI'] === 'true'
      ? false
      : "promtool is not installed (Debian's prometheus package)";
  }
}

t.test('promtool check rules', { skip: promtoolMissing() }, async (t) => {
  const out = execFileSync('promtool', ['check', 'rules', RULES_FILE], { encoding: 'utf8' });
  t.match(out, /SUCCESS: \d+ rules found/);
});

/** Every series name the exposition text declares (a histogram's three sample names included). */
function exportedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name as string);
    if (type === 'histogram') for (const s of ['_bucket', '_sum', '_count']) names.add(name + s);
  }
  return names;
}

/** A gateway's traffic: allowed, refused for each usual reason, and failed at the upstream. */
async function scrapeAfterTraffic(t: Test): Promise<string> {
  const clock = createTestClock();
  const { telemetry, metrics } = captureTelemetry();
  // A remote JWK set beside the static key, so the scopegate_jwks_* series exist.
  const jwks = await startJwksServer(t, [RSA_KEY_2.publicJwk]);
  const yaml = yamlOf({
    service_id: TEST_SERVICE_ID,
    auth: {
      verification_keys: [RSA_KEY.publicPem],
      jwks_url: jwks.url,
      algorithm: 'RS256',
      authorization: true,
      service_accounts: { enabled: true, store: 'sqlite:data/sa.db' },
    },
  });
  const pair = await startPair(t, { clock, telemetry, yaml });
  // The same metrics, forwarding to a port nobody listens on: its requests fail with 502.
  const broken = await startPair(t, { clock, telemetry, yaml, upstreamUrl: 'http://127.0.0.1:1' });
  metrics.watchStores(() => pair.gateway.state);
  const adminServer = await startAdminServer(
    {
      registry: metrics.registry,
      readiness: createReadiness({ current: () => pair.gateway.state, clock }),
    },
    { host: '127.0.0.1', port: 0 },
  );
  t.teardown(() => adminServer.close());

  const reader = bearer(await goodToken({ sub: 'reader-1', scopes: ['agents:read'] }));
  const admin = bearer(await goodToken({ sub: 'admin-1', scopes: ['agent_os:admin'] }));
  const answers = [
    await pair.send({ path: '/agents/a1', headers: reader }),
    await pair.send({ path: '/agents/a1' }),
    await pair.send({ method: 'POST', path: '/agents/a1/runs', headers: reader }),
    await broken.send({ path: '/agents/a1', headers: reader }),
  ];
  // The service-account store's file taken away: its API answers 503.
  const store = join(pair.gateway.dir, 'data/sa.db');
  for (const suffix of ['', '-wal', '-shm']) rmSync(store + suffix, { force: true });
  answers.push(await pair.send({ path: '/service-accounts', headers: admin }));
  t.same(
    answers.map((a) => a.status),
    [200, 401, 403, 502, 503],
  );
  const scraped = await httpCall(`http://127.0.0.1:${adminServer.address().port}/metrics`);
  t.equal(scraped.status, 200);
  return scraped.body;
}

t.test('every series and label value the rules and the dashboard use exists', async (t) => {
  const text = await scrapeAfterTraffic(t);
  const names = exportedNames(text);
  const samples = parseMetrics(text);
  t.equal(valueOf(t, samples, 'scopegate_jwks_keys'), 1, 'the remote JWK set: its one key');
  t.equal(samplesOf(samples, 'scopegate_jwks_last_success_timestamp_seconds').length, 1);
  for (const { where, expr } of QUERIES) {
    for (const { metric, matchers } of selectorsOf(expr)) {
      t.ok(names.has(metric), `${where}: ${metric} is exported`);
      for (const { label, op, value } of matchers) {
        // `instance` is the scrape target's label, added by Prometheus; a negative matcher
        // never stops a series from existing.
        if (label === 'instance' || op === '!=' || op === '!~') continue;
        const matches =
          op === '='
            ? (v: string) => v === value
            : (v: string) => new RegExp(`^(?:${value})$`).test(v);
        t.ok(
          samples.some((s) => s.name === metric && matches(s.labels[label] ?? '')),
          `${where}: ${metric}{${label}${op}"${value}"} has a series`,
        );
      }
    }
  }
});
