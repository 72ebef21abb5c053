/**
 * The bench's load generators against a real server: every request sent and timed, an
 * unexpected status fails the run after it completes, and the percentile and median helpers.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { closedLoop, median, openLoop, percentile } from '../../bench/load.js';

async function server(t: Test): Promise<{ port: number; seen: string[] }> {
  const seen: string[] = [];
  const s = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.statusCode = req.url === '/teapot' ? 418 : 200;
    req.resume();
    req.on('end', () => res.end('x'.repeat(100)));
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise((r) => s.close(r)));
  return { port: (s.address() as AddressInfo).port, seen };
}

t.test('closedLoop: every request once, each timed', async (t) => {
  const { port, seen } = await server(t);
  const result = await closedLoop({
    port,
    connections: 4,
    total: 30,
    request: (i) => ({ method: 'POST', path: `/r/${i}`, headers: {}, body: 'b' }),
    expect: 200,
  });
  t.equal(result.requests, 30);
  t.equal(result.latencies.length, 30);
  t.ok(
    result.latencies.every((ms) => ms > 0),
    'every latency recorded',
  );
  t.same([...seen].sort(), Array.from({ length: 30 }, (_, i) => `POST /r/${i}`).sort());
});

t.test('openLoop: rate × seconds requests on the schedule', async (t) => {
  const { port, seen } = await server(t);
  const result = await openLoop({
    port,
    connections: 2,
    rate: 100,
    seconds: 0.2,
    request: (i) => ({ method: 'GET', path: `/o/${i}`, headers: {} }),
    expect: 200,
  });
  t.equal(result.requests, 20);
  t.equal(seen.length, 20);
  t.equal(seen[19], 'GET /o/19', 'sent in order');
});

t.test('an unexpected status fails the run, counted by status', async (t) => {
  const { port } = await server(t);
  const request = (i: number) => ({
    method: 'GET' as const,
    path: i % 2 === 0 ? '/teapot' : '/ok',
    headers: {},
  });
  await t.rejects(closedLoop({ port, connections: 2, total: 6, request, expect: 200 }), {
    message: 'of 6 benchmark requests, 3 × 418 (expected 200 every time)',
  });
  await t.rejects(
    openLoop({ port, connections: 2, rate: 100, seconds: 0.04, request, expect: 418 }),
    {
      message: 'of 4 benchmark requests, 2 × 200 (expected 418 every time)',
    },
  );
});

t.test('percentile (nearest rank) and median', async (t) => {
  const values = Float64Array.from([5, 1, 4, 2, 3, 10, 9, 8, 7, 6]);
  const rows: ReadonlyArray<readonly [string, number, number]> = [
    ['p50', 50, 5],
    ['p99', 99, 10],
    ['p100', 100, 10],
    ['p1', 1, 1],
  ];
  for (const [name, p, expected] of rows) t.equal(percentile(values, p), expected, name);
  t.equal(median([3, 1, 2]), 2, 'odd count: the middle one');
  t.equal(median([4, 1, 3, 2]), 2.5, 'even count: the mean of the two middle ones');
});
