/**
 * The proxy benchmark where neither HAProxy nor taskset is used: the plain Node proxy is the
 * only peer and says so.
 */
import t from 'tap';
import { runProxyBench } from '../../bench/proxy.js';
import { TINY } from './sizes.js';

const SMALL = { ...TINY, rounds: 1 };

t.test('no HAProxy, no pinning: plain Node is the baseline', async (t) => {
  const lines: string[] = [];
  const rows = await runProxyBench((line) => lines.push(line), {
    sizes: SMALL,
    haproxy: null,
    taskset: null,
    profileDir: null,
    traceGcDir: null,
    baseline: null,
  });
  const text = lines.join('\n');
  t.match(text, 'haproxy not installed: HAProxy columns skipped');
  t.match(text, 'pinning: not applied (needs taskset and 2 CPUs)');
  t.notMatch(text, '--trace-gc');
  t.match(text, "target: CPU/request, forged tokens ≤ 1.50× plain Node's: no plain Node figure");
  t.same(Object.keys(rows[0]?.cells ?? {}).sort(), ['floor', 'plain', 'scopegate']);
});
