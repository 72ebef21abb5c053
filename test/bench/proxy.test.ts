/**
 * The proxy benchmark end to end in a tiny configuration (a few hundred requests): every
 * scenario on every proxy (HAProxy where installed), pinned with taskset where installed, with a
 * CPU profile and GC trace of the Node proxies, and this checkout as its own baseline. Checks what the run printed and measured, never
 * how fast anything was.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { affinityOf, onPath } from '../../bench/processes.js';
import { runProxyBench } from '../../bench/proxy.js';
import { TINY } from './sizes.js';

// Real proxies under load (and HAProxy where installed): over a minute on a quiet 2-core
// machine, more than the suite's 120 s per file when the machine is busy.
t.setTimeout(300_000);

const HAPROXY = onPath('haproxy');
const TASKSET = onPath('taskset');

t.test('a tiny run with every peer available here', async (t) => {
  const dir = t.testdir({ profile: {}, gc: {} });
  const affinity = TASKSET === null ? null : affinityOf(TASKSET, process.pid);
  const lines: string[] = [];
  const rows = await runProxyBench((line) => lines.push(line), {
    sizes: TINY,
    haproxy: HAPROXY,
    taskset: TASKSET,
    profileDir: join(dir, 'profile'),
    traceGcDir: join(dir, 'gc'),
    // This checkout as its own baseline: the path another checkout takes.
    baseline: process.cwd(),
  });
  const text = lines.join('\n');
  t.match(text, 'proxy benchmark: signing 58 RS256 tokens', '40 first-use + 2 rounds × 9 cold');
  if (TASKSET !== null) {
    t.match(
      text,
      'pinning: applied (taskset): proxies on CPU 0, load generator and upstream on CPU 1',
    );
    t.equal(affinityOf(TASKSET, process.pid), affinity, "this process's CPUs are given back");
  }
  if (HAPROXY === null) t.match(text, 'haproxy not installed: HAProxy columns skipped');
  t.match(text, /\n {2}upstream\.identity_token on +\d+\.\d +\d+\.\d\d×\n/);
  t.match(text, /\n {2}telemetry\.tracing on, sample ratio 1 +\d+\.\d +\d+\.\d\d×/);
  t.match(text, /\n {2}this scopegate, every feature off +\d+\.\d\n/);
  t.match(text, /\n {2}baseline checkout +\d+\.\d +\d+\.\d\d×/);
  const proxies =
    HAPROXY === null ? ['floor', 'plain', 'scopegate'] : ['floor', 'haproxy', 'plain', 'scopegate'];
  t.same(
    rows.map((row) => [row.key, Object.keys(row.cells).sort()]),
    [
      ['cached', proxies],
      ['many', proxies],
      ['sse', proxies],
      ['forged', proxies.filter((p) => p !== 'plain')],
      ['openLoop', proxies],
      ['serviceAccount', ['scopegate']],
      ['firstUse', ['scopegate']],
    ],
  );
  const many = rows[1]?.cells.scopegate;
  t.equal(many?.hitRatio, 0.85, "scopegate's own counters: 85 % of the mix hit its cache");
  t.equal(rows[4]?.cells.plain?.requests, 20, 'open loop: rate × seconds requests');
  t.equal(rows[5]?.cells.scopegate?.hitRatio, null, 'service accounts: no JWT cache look-up');
  t.equal(rows[6]?.cells.scopegate?.hitRatio, 0, 'first use: every look-up misses');
  for (const row of rows) {
    for (const [proxy, measured] of Object.entries(row.cells)) {
      // HAProxy's CPU comes in clock ticks (10 ms): a tiny run may use none.
      const cpu = proxy === 'haproxy' ? measured.cpuPerRequest >= 0 : measured.cpuPerRequest > 0;
      t.ok(cpu && measured.p99 >= measured.p50, `${row.key}, ${proxy}: figures`);
    }
  }
  t.match(text, /\n {2}one cached RS256 token, 50 connections +[\d.]+ +[\d.]+/);
  t.match(text, /\n {2}many tokens, cache hit 85 % \(measured 85\.0 %\) /);
  // Against HAProxy a ratio; without it the plain Node proxy, which does no authentication.
  t.match(
    text,
    HAPROXY === null
      ? /\n {2}target: CPU\/request, forged tokens ≤ 1\.50× plain Node's: no plain Node figure \(it does no authentication\)\n/
      : /\n {2}target: CPU\/request, forged tokens ≤ 1\.50× \S+ [^\n]+(met|MISSED)( \(Node floor: [^)]+\))?\n/,
  );
  const logLines = Number(
    /access log \(its stdout, to a file\): ([\d,]+) lines/.exec(text)?.[1]?.replace(/,/g, ''),
  );
  t.ok(
    logLines >= 2 * (60 + 60 + 20 + 40 + 40 + 20) + 40,
    `every request to scopegate logged (${logLines} lines)`,
  );
  t.ok(
    readdirSync(join(dir, 'profile')).some((name) => name.endsWith('.cpuprofile')),
    'a CPU profile of the scopegate process',
  );
  const gc = readFileSync(join(dir, 'gc', 'scopegate.trace-gc.log'), 'utf8');
  t.match(gc, /Scavenge|Mark-Compact/, "scopegate's GC trace");
  t.notMatch(gc, /^\{/m, 'without its access log');
  t.ok(readdirSync(join(dir, 'gc')).includes('plain.trace-gc.log'));
});
