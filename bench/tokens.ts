/**
 * Credentials of the proxy benchmark: RS256 JWTs signed here (on the thread pool, several at a
 * time, so ten thousand take seconds, not tens of seconds), forged tokens that look like them but
 * carry a random signature, the token mix of the many-tokens scenario, and a stored service
 * account.
 */
import { randomBytes, sign, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { openSqliteStore } from '../src/auth/service-accounts/sqlite-store.js';
import {
  hashServiceAccountToken,
  mintServiceAccountToken,
  tokenPrefixOf,
} from '../src/auth/service-accounts/token.js';

/** The scopes every benchmark token carries: GET /agents/* needs the first, POST /agui the second. */
export const BENCH_SCOPES = ['agents:read', 'agents:run'] as const;

/** RSA signing on the thread pool. */
const signAsync = promisify(sign);

const HEADER = Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT' })).toString('base64url');

function payloadOf(sub: string, exp: number): string {
  return Buffer.from(JSON.stringify({ sub, scopes: BENCH_SCOPES, exp })).toString('base64url');
}

/** `count` distinct RS256 tokens (subjects `<prefix>-0` …), valid for an hour. */
export async function mintTokens(
  privateKey: KeyObject,
  count: number,
  prefix: string,
): Promise<string[]> {
  const exp = Math.floor(Date.now() / 1000) + 3600;
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const input = `${HEADER}.${payloadOf(`${prefix}-${i}`, exp)}`;
      const signature = await signAsync('sha256', Buffer.from(input), privateKey);
      return `${input}.${signature.toString('base64url')}`;
    }),
  );
}

let forgedSoFar = 0;
const forgeryRun = randomBytes(6).toString('hex');

/**
 * `count` tokens never seen before: a well-formed RS256 header and payload (a new subject each)
 * and 256 random bytes where the signature goes, so each one costs the proxy a failed signature
 * check and nothing cheaper.
 */
export function forgedTokens(count: number): string[] {
  const exp = Math.floor(Date.now() / 1000) + 3600;
  return Array.from({ length: count }, () => {
    const sub = `forged-${forgeryRun}-${forgedSoFar++}`;
    return `${HEADER}.${payloadOf(sub, exp)}.${randomBytes(256).toString('base64url')}`;
  });
}

/** Of every 20 requests of the many-tokens mix, this many reuse a hot token (85 %). */
const HOT_OF_20 = 17;

/**
 * The many-tokens mix: 17 requests in 20 reuse one of the `hot` tokens (cached after first use),
 * the other 3 take the next token of the `cold` stream, which a caller advances only forward so
 * that, as long as the stream lasts, a proxy never sees a cold token twice (it wraps around when
 * exhausted; the bench sizes it so that it does not).
 */
export function tokenMix(
  hot: readonly string[],
  cold: readonly string[],
): { readonly pick: (i: number) => string; readonly coldUsed: () => number } {
  let coldNext = 0;
  return {
    pick: (i) =>
      i % 20 < HOT_OF_20
        ? (hot[i % hot.length] as string)
        : (cold[coldNext++ % cold.length] as string),
    coldUsed: () => coldNext,
  };
}

/** How many of `count` requests of {@link tokenMix} take a cold token. */
export function coldRequestsOf(count: number): number {
  return Math.floor(count / 20) * (20 - HOT_OF_20) + Math.max(0, (count % 20) - HOT_OF_20);
}

/** Stores one service account (scopes {@link BENCH_SCOPES}) in a fresh store at `path`; its token. */
export async function mintServiceAccount(path: string): Promise<string> {
  const store = await openSqliteStore(path);
  const token = mintServiceAccountToken();
  const now = Math.floor(Date.now() / 1000);
  await store.insert(
    {
      id: 'bench',
      name: 'bench',
      token_hash: hashServiceAccountToken(token),
      token_prefix: tokenPrefixOf(token),
      scopes: [...BENCH_SCOPES],
      created_at: now,
      expires_at: now + 86_400,
      last_used_at: null,
      revoked_at: null,
      created_by: 'bench',
    },
    now,
  );
  await store.close();
  return token;
}
