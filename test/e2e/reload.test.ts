/**
 * Reload end to end: a real gateway on real sockets reloading from the
 * numbered steps in test/fixtures/configs/reload/. A good config changes decisions with no
 * failed request under load across the swap; a bad one changes nothing and is reported by file
 * and key; a key rotated out of the JWKS file stops validating, cached tokens included; a
 * request in flight keeps its state and the old pool closes only after it.
 */
import { Agent, request } from 'node:http';
import t, { type Test } from 'tap';
import { INVALID_TOKEN_CHALLENGE } from '../fixtures/e2e.js';
import { RSA_KEY, RSA_KEY_2 } from '../fixtures/keys.js';
import { reloadStep, startReloadingGateway } from '../fixtures/reload.js';
import { goodToken } from '../fixtures/tokens.js';
import { startRecordingUpstream, type RecordingUpstream } from '../fixtures/upstream.js';

const JWKS_BOTH = JSON.stringify({ keys: [RSA_KEY.publicJwk, RSA_KEY_2.publicJwk] });
const JWKS_SECOND_ONLY = JSON.stringify({ keys: [RSA_KEY_2.publicJwk] });

async function upstream(t: Test): Promise<RecordingUpstream> {
  const up = await startRecordingUpstream();
  t.teardown(() => up.close());
  return up;
}

interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** GET `path` with a bearer token, on `agent` (keep-alive) or a fresh connection. */
function get(base: string, path: string, token: string, agent: Agent | false = false) {
  return new Promise<Reply>((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      { headers: { authorization: `Bearer ${token}` }, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Upper bound of requests one client sends: the loop ends long before unless something hangs. */
const MAX_REQUESTS = 20_000;

t.test('a valid reload changes a decision with no failed request across the swap', async (t) => {
  const up = await upstream(t);
  const gw = await startReloadingGateway(t, {
    step: 1,
    upstreamUrl: up.url,
    files: { 'jwks.json': JWKS_BOTH },
  });
  const before = gw.slot.current();
  const token = await goodToken(); // scopes agents:read teams:run: no reports:read
  const allowed = await goodToken({ scopes: ['reports:read'] });
  t.equal((await get(gw.url, '/reports', token)).status, 200, 'step 1: no mapping, allowed');

  // Four clients on keep-alive connections loop until the reload was observed and they have
  // seen the new decision a few times. Each records every outcome, errors included.
  let reloaded = false;
  let warmedUp = 0;
  let markWarm: () => void = () => undefined;
  const warm = new Promise<void>((r) => (markWarm = r));
  const client = async (): Promise<(number | string)[]> => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const seen: (number | string)[] = [];
    try {
      for (let i = 0; i < MAX_REQUESTS; i++) {
        const status = await get(gw.url, '/reports', token, agent).then(
          (r) => r.status,
          (err: NodeJS.ErrnoException) => `error ${err.code ?? err.message}`,
        );
        seen.push(status);
        if (seen.length === 5 && ++warmedUp === 4) markWarm();
        // A few answers under the new config too, so requests are in flight on both sides.
        if (reloaded && seen.filter((s) => s === 403).length >= 5) break;
      }
    } finally {
      agent.destroy();
    }
    return seen;
  };
  const clients = [client(), client(), client(), client()];
  await warm;
  gw.useStep(2);
  const call = await gw.nextReload();
  reloaded = true;
  const runs = await Promise.all(clients);

  t.same(call, { result: 'success', problems: [] });
  t.comment(`requests per client: ${runs.map((seen) => seen.length).join(', ')}`);
  t.equal(gw.reloader.generation, 2);
  t.match(gw.out, [
    / changed, reloading /,
    /^scopegate: config reloaded from .* \(generation 2\)$/,
  ]);
  runs.forEach((seen, i) => {
    const firstDenied = seen.indexOf(403);
    t.ok(seen.length >= 10, `client ${i}: sent ${seen.length} requests across the swap`);
    t.equal(seen[0], 200, `client ${i}: started under the old config`);
    t.equal(seen.at(-1), 403, `client ${i}: ended under the new one`);
    t.same(
      seen.filter((s) => s !== 200 && s !== 403),
      [],
      `client ${i}: every answer is the old or the new decision (no 5xx, no reset)`,
    );
    t.ok(
      seen.slice(firstDenied).every((s) => s === 403),
      `client ${i}: once the new decision is seen, never the old one again`,
    );
  });

  t.equal((await get(gw.url, '/reports', allowed)).status, 200, 'reports:read still passes');
  t.equal(gw.slot.current().upstream, before.upstream, 'the upstream pool was kept');
  t.equal(before.upstream.pool.closed, false);
  t.equal(gw.slot.live, 1, 'the old state drained');
});

t.test('an invalid reload changes nothing and is reported by file and key', async (t) => {
  const up = await upstream(t);
  const gw = await startReloadingGateway(t, {
    step: 2,
    upstreamUrl: up.url,
    files: { 'jwks.json': JWKS_BOTH },
  });
  const denied = await goodToken();
  const allowed = await goodToken({ scopes: ['reports:read'] });
  const decisions = async (): Promise<number[]> => [
    (await get(gw.url, '/reports', denied)).status,
    (await get(gw.url, '/reports', allowed)).status,
  ];
  t.same(await decisions(), [403, 200], 'step 2 decisions');
  const running = gw.slot.current();
  const file = gw.file.replace(/[.]/g, '\\.');

  const rows: readonly { name: string; step: number; line: RegExp }[] = [
    { name: 'YAML syntax error', step: 3, line: new RegExp(`^error: ${file}:\\d+: `) },
    {
      name: 'unknown key',
      step: 4,
      line: new RegExp(
        `^error: ${file}:11 auth\\.scope_mapings: unknown key \\(did you mean "scope_mappings"\\?\\)$`,
      ),
    },
    {
      name: 'malformed scope',
      step: 5,
      line: new RegExp(
        `^error: ${file}:11 auth\\.scope_mappings\\."GET /reports"\\[0\\]: malformed scope "reports read"`,
      ),
    },
    {
      name: 'a key only a restart applies',
      step: 6,
      line: new RegExp(
        `^error: ${file}:4 listen: changed, but only a restart applies it: restore the running value, or restart$`,
      ),
    },
  ];
  for (const row of rows) {
    gw.err.length = 0;
    gw.useStep(row.step);
    const call = await gw.nextReload();
    t.equal(call.result, 'error', `${row.name}: the hook is told 'error'`);
    t.equal(call.problems.length, 1, `${row.name}: one problem`);
    t.equal(call.problems[0]?.file, gw.file, `${row.name}: names the file`);
    t.match(
      gw.err,
      [
        row.line,
        /^scopegate: reload rejected \(1 problem\); the running config \(generation 1\) keeps serving$/,
      ],
      `${row.name}: logged`,
    );
    t.equal(gw.slot.current(), running, `${row.name}: the running state stays`);
    t.same(await decisions(), [403, 200], `${row.name}: the same decisions`);
  }
  t.equal(gw.reloader.generation, 1);

  // Still watching after the failures: a good file is picked up.
  gw.useStep(1);
  t.same(await gw.nextReload(), { result: 'success', problems: [] });
  t.same(await decisions(), [200, 200], 'step 1 decisions');
});

t.test('a key rotated out of the JWKS file stops validating, cached or not', async (t) => {
  const up = await upstream(t);
  const gw = await startReloadingGateway(t, {
    step: 1,
    upstreamUrl: up.url,
    files: { 'jwks.json': JWKS_BOTH },
  });
  const retired = await goodToken({ key: RSA_KEY.privateKey }); // kid rsa-1
  const kept = await goodToken({ key: RSA_KEY_2.privateKey }); // kid rsa-2
  t.equal((await get(gw.url, '/reports', retired)).status, 200);
  t.equal((await get(gw.url, '/reports', kept)).status, 200);
  t.equal((await get(gw.url, '/reports', retired)).status, 200, 'served from the cache');
  const oldCache = gw.slot.current().chain.tokenCache;
  t.equal(oldCache?.size, 2, 'both tokens are in the verified-token cache');
  t.equal(oldCache?.hits, 1);

  gw.replace('jwks.json', JWKS_SECOND_ONLY);
  const call = await gw.nextReload();
  t.same(call, { result: 'success', problems: [] });
  t.match(gw.out, [/jwks\.json changed, reloading /]);

  const refused = await get(gw.url, '/reports', retired);
  t.equal(refused.status, 401, 'the removed key no longer validates its (cached) token');
  t.equal(refused.headers['www-authenticate'], INVALID_TOKEN_CHALLENGE);
  t.equal((await get(gw.url, '/reports', kept)).status, 200, 'the remaining key still works');
  const newCache = gw.slot.current().chain.tokenCache;
  t.not(newCache, oldCache, 'the new generation has its own cache');
  t.equal(newCache?.size, 1, 'holding only the token verified since');
});

t.test('a request in flight keeps its state; the old pool closes after it', async (t) => {
  const first = await upstream(t);
  const second = await upstream(t);
  const gw = await startReloadingGateway(t, {
    step: 1,
    upstreamUrl: first.url,
    files: { 'jwks.json': JWKS_BOTH },
  });
  const token = await goodToken();
  const old = gw.slot.current();

  // A stream that stays open until the first upstream is released.
  const streamed = new Promise<Reply>((resolve, reject) => {
    const req = request(
      `${gw.url}/sse/run`,
      { headers: { authorization: `Bearer ${token}` }, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
          if (body.includes('event: first')) markStarted();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
  let markStarted: () => void = () => undefined;
  await new Promise<void>((r) => (markStarted = r));

  gw.replace('gateway.yaml', reloadStep(1).replace("'${UPSTREAM_URL}'", `'${second.url}'`));
  t.same(await gw.nextReload(), { result: 'success', problems: [] });
  t.not(gw.slot.current().upstream, old.upstream, 'a new pool for the new upstream');
  t.equal((await get(gw.url, '/after', token)).status, 200);
  t.same(
    second.received.map((r) => r.url),
    ['/after'],
    'new requests go to the new upstream',
  );
  t.equal(gw.slot.live, 2, 'the old state still serves the stream');
  t.equal(old.upstream.pool.closed, false, 'its pool stays open meanwhile');

  first.release();
  const done = await streamed;
  t.equal(done.status, 200);
  t.match(done.body, /event: first[\s\S]*event: second/, 'the stream finished on the old state');
  // The release runs as the gateway's handler settles, just after the last byte left: poll.
  for (let i = 0; i < 1000 && !old.upstream.pool.closed; i++) {
    await new Promise((r) => setImmediate(r));
  }
  t.equal(old.upstream.pool.closed, true, 'the old pool closed once its last request was done');
  t.equal(gw.slot.live, 1);
});
