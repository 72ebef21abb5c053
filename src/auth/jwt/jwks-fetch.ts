/**
 * Fetches the text of a remote JWK set (`auth.jwks_url`) with undici: one GET, bounded in time
 * and size, no redirects followed. The only network I/O of the auth layer. Never returns or
 * reports the body of a failed fetch, and never sends a credential.
 */
import { request } from 'undici';

/** Longest a JWKS fetch may take, connection to last byte. */
export const JWKS_FETCH_TIMEOUT_MS = 5000;

/** Largest JWKS document accepted (a real one is a few KiB). */
export const JWKS_MAX_BYTES = 1_048_576;

/** Bounds of one fetch (tests shrink them). */
export interface JwksFetchLimits {
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

const DEFAULT_LIMITS: JwksFetchLimits = {
  timeoutMs: JWKS_FETCH_TIMEOUT_MS,
  maxBytes: JWKS_MAX_BYTES,
};

function ignoreError(): void {}

/** The reason of a failed request: the time-out, or the error's code (or name). */
function reasonOf(err: unknown, timeout: AbortSignal, limits: JwksFetchLimits): string {
  if (timeout.aborted) return `timed out after ${limits.timeoutMs} ms`;
  const { code, name } = err as { code?: unknown; name?: unknown };
  return typeof code === 'string' ? code : String(name);
}

/**
 * GETs `url` and returns the body as text. Rejects with an `Error` whose message is the reason,
 * safe to log: a status other than 200 (a redirect included: undici follows none), a body over
 * `maxBytes` (declared or streamed), the time-out, an abort through `signal`, a network error.
 */
export async function fetchJwksText(
  url: string,
  signal: AbortSignal,
  limits: JwksFetchLimits = DEFAULT_LIMITS,
): Promise<string> {
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const tooLarge = new Error(`larger than ${limits.maxBytes} bytes`);
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(url, {
      method: 'GET',
      headers: { accept: 'application/jwk-set+json, application/json' },
      signal: AbortSignal.any([signal, timeout]),
    });
  } catch (err) {
    throw new Error(reasonOf(err, timeout, limits));
  }
  const { statusCode, body } = response;
  // Destroying the body (below) makes it emit an abort error: the fetch has failed already.
  body.on('error', ignoreError);
  if (statusCode !== 200 || Number(response.headers['content-length']) > limits.maxBytes) {
    body.destroy();
    throw statusCode !== 200 ? new Error(`HTTP ${statusCode}`) : tooLarge;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      if (size > limits.maxBytes) break;
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    throw new Error(reasonOf(err, timeout, limits));
  }
  if (size > limits.maxBytes) {
    body.destroy();
    throw tooLarge;
  }
  return Buffer.concat(chunks).toString('utf8');
}
