/**
 * Reads a request body the gateway must inspect itself, bounded: refused on a declared
 * `Content-Length` over the bound before reading, or as soon as the streamed bytes pass it.
 * Only the routes the gateway answers itself call this; forwarded bodies are streamed untouched.
 */
import type { IncomingMessage } from 'node:http';
import type { BodyTimeoutCode, BodyWatch } from './body-watch.js';

/** The body, or why there is none. */
export type BodyRead =
  | { readonly ok: true; readonly body: Buffer }
  | { readonly ok: false; readonly reason: 'too_large' | 'aborted' }
  /** The body stalled or ran past its time bound (`code` says which; answered 408). */
  | { readonly ok: false; readonly reason: 'timed_out'; readonly code: BodyTimeoutCode };

/**
 * Reads `req`'s body up to `maxBytes`. Past the bound the rest is drained unread (the stream
 * keeps flowing into nothing), so the connection stays usable for the 413. `watch`, when given,
 * is the body's time-out: a body that stalls or runs past its bound ends the read as `timed_out`.
 */
export function readBoundedBody(
  req: IncomingMessage,
  maxBytes: number,
  watch: BodyWatch | null = null,
): Promise<BodyRead> {
  // Timed out while the caller was being authenticated, before anyone read a byte.
  if (watch?.expired != null) {
    return Promise.resolve({ ok: false, reason: 'timed_out', code: watch.expired });
  }
  // The client left before anyone read its body (the socket closed mid-body while the caller
  // was being authenticated): the stream will emit nothing more.
  if (req.destroyed) return Promise.resolve({ ok: false, reason: 'aborted' });
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    return Promise.resolve({ ok: false, reason: 'too_large' });
  }
  return new Promise<BodyRead>((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (read: BodyRead): void => {
      if (settled) return;
      settled = true;
      if (watch !== null) watch.onExpire = null;
      resolve(read);
    };
    if (watch !== null) watch.onExpire = (code) => settle({ ok: false, reason: 'timed_out', code });
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > maxBytes) settle({ ok: false, reason: 'too_large' });
      else chunks.push(chunk);
    });
    req.once('end', () => settle({ ok: true, body: Buffer.concat(chunks) }));
    // A client that goes away mid-body: 'close' without 'end' (or an 'error').
    req.once('error', () => settle({ ok: false, reason: 'aborted' }));
    req.once('close', () => settle({ ok: false, reason: 'aborted' }));
  });
}
