/**
 * A guarded GET that follows redirects: at most {@link MAX_REDIRECTS} hops, http(s) only, each
 * hop a new connection through the same guarded dispatcher, so every hop's address is checked
 * again. Throws what undici throws, or an {@link OutboundRefusal}; never reads the final body.
 */
import { request, type Dispatcher } from 'undici';
import { OutboundRefusal } from './guard.js';

/** The most redirects one fetch follows. */
export const MAX_REDIRECTS = 5;

/** The statuses followed when they carry a `Location`. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * GETs `url` through `dispatcher`, following redirects; resolves with the first answer that is
 * not a redirect (any status). `signal` aborts every hop.
 */
export async function getFollowingRedirects(
  dispatcher: Dispatcher,
  url: URL,
  signal: AbortSignal,
): Promise<Dispatcher.ResponseData> {
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    // undici's own timeouts are off: the caller's signal is the one deadline. `reset` closes
    // the connection afterwards: fetches are rare and go anywhere, so nothing is pooled, and
    // each hop connects (and is checked) anew.
    const response = await request(current, {
      dispatcher,
      method: 'GET',
      reset: true,
      headersTimeout: 0,
      bodyTimeout: 0,
      signal,
    });
    const location = response.headers.location;
    if (!REDIRECTS.has(response.statusCode) || typeof location !== 'string') return response;
    // A redirect body is never read: dump discards it (closing the connection past a bound).
    await response.body.dump();
    const next = URL.canParse(location, current.href) ? new URL(location, current) : null;
    if (next === null || (next.protocol !== 'http:' && next.protocol !== 'https:')) {
      throw new OutboundRefusal('redirect_scheme', current.hostname);
    }
    current = next;
  }
  throw new OutboundRefusal('too_many_redirects', url.hostname);
}
