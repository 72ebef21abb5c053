/**
 * JWT verification micro-benchmark, through the auth chain as the gateway calls it: CPU
 * microseconds (all threads, so WebCrypto's thread-pool work counts) per forged RS256 token
 * never seen before, per valid token verified for the first time, per cache hit, and per
 * repeated forged token, with `concurrency` tokens in flight at once (as many connections would
 * have them). Run: `node --expose-gc --import tsx bench/jwt.ts [count] [concurrency]`. Measures; never asserts.
 */
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { createAuthChain, type AuthChain, type AuthSettings } from '../src/auth/chain.js';
import { systemClock } from '../src/shared/clock.js';

const COUNT = Number(process.argv[2] ?? 4000);
const CONCURRENCY = Number(process.argv[3] ?? 50);

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const settings: AuthSettings = {
  verification_keys: [publicKey.export({ type: 'spki', format: 'pem' }).toString()],
  jwks_file: null,
  jwks_url: null,
  secret_key: null,
  issuer: null,
  algorithm: 'RS256',
  validate: true,
  token_source: 'HEADER',
  token_header_key: 'Authorization',
  cookie_name: 'access_token',
  scopes_claim: 'scopes',
  user_id_claim: 'sub',
  session_id_claim: 'session_id',
  audience_claim: 'aud',
  audience: null,
  verify_audience: false,
  leeway_seconds: 10,
  dependencies_claims: [],
  session_state_claims: [],
  allow_anonymous: false,
  security_key: null,
  internal_service_token: null,
  dev_keys: null,
};

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const HEADER = b64({ alg: 'RS256', typ: 'JWT' });
const now = Math.floor(Date.now() / 1000);

function payloadOf(i: number): string {
  return b64({
    sub: `user-${i}`,
    scopes: ['agents:read', 'agents:run'],
    iat: now,
    exp: now + 3600,
  });
}

function validToken(i: number): string {
  const input = `${HEADER}.${payloadOf(i)}`;
  return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
}

function forgedToken(i: number): string {
  return `${HEADER}.${payloadOf(i)}.${randomBytes(256).toString('base64url')}`;
}

const request = (token: string) => ({
  headers: { authorization: `Bearer ${token}` },
  clientAddress: '127.0.0.1',
});

/** With `--expose-gc`, each scenario starts without the previous one's garbage. */
const collect = (globalThis as { gc?: () => void }).gc ?? (() => {});

async function run(chain: AuthChain, tokens: readonly string[], expectOk: boolean) {
  const requests = tokens.map(request);
  collect();
  const check = (result: { ok: boolean }) => {
    if (result.ok !== expectOk) throw new Error('unexpected verdict');
  };
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < requests.length; i += CONCURRENCY) {
    const pending: Promise<unknown>[] = [];
    for (const req of requests.slice(i, i + CONCURRENCY)) {
      const answer = chain.authenticate(req);
      if (answer instanceof Promise) pending.push(answer.then(check));
      else check(answer);
    }
    if (pending.length > 0) await Promise.all(pending);
  }
  const wallNs = Number(process.hrtime.bigint() - start);
  const used = process.cpuUsage(cpu);
  return {
    cpuUs: (used.user + used.system) / tokens.length,
    wallUs: wallNs / 1000 / tokens.length,
  };
}

async function freshChain(): Promise<AuthChain> {
  const built = await createAuthChain(settings, {
    clock: systemClock,
    serviceId: 'bench',
    configFile: 'bench',
    resolvePath: (p) => p,
  });
  return built.chain;
}

const valid = Array.from({ length: COUNT }, (_, i) => validToken(i));
const forged = Array.from({ length: COUNT }, (_, i) => forgedToken(i + COUNT));
const hit = Array.from({ length: COUNT * 5 }, () => valid[0] as string);
const repeatedForged = Array.from({ length: COUNT }, (_, i) => forged[i % 100] as string);

// Warm-up on a throwaway chain: JIT, jose's per-key CryptoKey cache.
{
  const warm = await freshChain();
  await run(
    warm,
    valid.slice(0, 500).map((_, i) => validToken(COUNT * 3 + i)),
    true,
  );
  await run(
    warm,
    forged.slice(0, 500).map((_, i) => forgedToken(COUNT * 4 + i)),
    false,
  );
}

const rows: [string, { cpuUs: number; wallUs: number }][] = [];
rows.push(['forged RS256, never seen', await run(await freshChain(), forged, false)]);
rows.push(['valid RS256, first verify', await run(await freshChain(), valid, true)]);
const cached = await freshChain();
await run(cached, [valid[0] as string], true);
rows.push(['valid RS256, cache hit', await run(cached, hit, true)]);
const repeated = await freshChain();
rows.push(['forged RS256, 100 distinct repeated', await run(repeated, repeatedForged, false)]);

console.log(`node ${process.version}, ${COUNT} tokens per scenario, ${CONCURRENCY} in flight`);
for (const [name, { cpuUs, wallUs }] of rows) {
  console.log(
    `${name.padEnd(38)} cpu ${cpuUs.toFixed(2).padStart(7)} µs   wall ${wallUs.toFixed(2).padStart(7)} µs`,
  );
}
