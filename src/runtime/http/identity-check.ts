/**
 * The runtime's one identity check: before any route runs, the gateway's `x-auth-context` is
 * verified against its `x-auth-signature` (HMAC-SHA256 under the shared identity secret), or
 * against the gateway's identity token (`runtime.identity_token`: a JWT binding that context),
 * or both when both are configured, and the caller is decoded once for the request. Fails
 * closed; never logs or echoes the secret, a context, a signature or a token.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { verifyIdentitySignature } from '../../shared/identity-context.js';
import { ANONYMOUS_CALLER, decodeCaller, type Caller } from './caller.js';
import type { IdentityTokenCheck } from './identity-token.js';

/** The only route answered without a context: the liveness probe, which carries no data. */
export const UNSIGNED_PROBE_PATH = '/health';

/** Detail of a request without `x-auth-context`. */
export const MISSING_CONTEXT = 'Missing identity context';
/**
 * Detail of a context without a valid signature or identity token: one text for "none" and
 * "wrong", and for either proof, so a forger learns nothing from it.
 */
export const BAD_SIGNATURE = 'Missing or invalid identity signature';
/** Detail of a signed value that is not a context (a gateway bug, never a forgery). */
export const BAD_CONTEXT = 'Invalid identity context';

/** The caller a request may proceed as, or the detail of its 401. */
export type IdentityVerdict =
  { readonly ok: true; readonly caller: Caller } | { readonly ok: false; readonly detail: string };

/** What a check answers: at once (the HMAC alone), or once the token is verified. */
export type IdentityCheckResult = IdentityVerdict | Promise<IdentityVerdict>;

/**
 * Builds the check for one runtime. With a secret, only a context whose signature verifies is
 * believed; with a token check, only a context that a verified identity token binds; with both,
 * both must pass. A request without a context is refused. With neither (the development switch
 * of `scopegate runtime`), any context is believed unsigned and a request without one is an
 * anonymous, unconfined caller.
 */
export function createIdentityCheck(
  secret: string | null,
  token: IdentityTokenCheck | null = null,
): (headers: IncomingHttpHeaders) => IdentityCheckResult {
  const anonymous: IdentityVerdict = Object.freeze({ ok: true, caller: ANONYMOUS_CALLER });
  if (secret === null && token === null) {
    return (headers) => {
      const raw = headers['x-auth-context'];
      const caller = typeof raw === 'string' ? decodeCaller(raw) : null;
      return caller === null ? anonymous : { ok: true, caller };
    };
  }
  const missing: IdentityVerdict = Object.freeze({ ok: false, detail: MISSING_CONTEXT });
  const badSignature: IdentityVerdict = Object.freeze({ ok: false, detail: BAD_SIGNATURE });
  const badContext: IdentityVerdict = Object.freeze({ ok: false, detail: BAD_CONTEXT });
  const decoded = (raw: string): IdentityVerdict => {
    const caller = decodeCaller(raw);
    return caller === null ? badContext : { ok: true, caller };
  };
  return (headers) => {
    const raw = headers['x-auth-context'];
    if (typeof raw !== 'string' || raw === '') return missing;
    if (secret !== null) {
      const signature = headers['x-auth-signature'];
      // One HMAC of a short header, compared in constant time, before the context is even parsed.
      if (typeof signature !== 'string' || !verifyIdentitySignature(raw, signature, secret))
        return badSignature;
    }
    if (token === null) return decoded(raw);
    const jwt = headers[token.header];
    if (typeof jwt !== 'string' || jwt === '') return badSignature;
    return token.verify(jwt, raw).then((ok) => (ok ? decoded(raw) : badSignature));
  };
}

/**
 * Registers the check on `app` as its first `onRequest` hook: every request gets `caller`, or a
 * 401 `{"detail": ...}` before routing reaches a handler. `GET`/`HEAD /health` pass unchecked.
 * `token`: see {@link createIdentityCheck}.
 */
export function registerIdentityCheck(
  app: FastifyInstance,
  secret: string | null,
  token: IdentityTokenCheck | null = null,
): void {
  const check = createIdentityCheck(secret, token);
  // Fastify refuses an object as a decorator's default (it would be shared by every request);
  // the hook below sets `caller` on every request it lets through.
  app.decorateRequest('caller', null as unknown as Caller);
  app.addHook('onRequest', (request, reply, done) => {
    if (
      request.routeOptions.url === UNSIGNED_PROBE_PATH &&
      (request.method === 'GET' || request.method === 'HEAD')
    ) {
      request.caller = ANONYMOUS_CALLER;
      done();
      return;
    }
    const settle = (verdict: IdentityVerdict): void => {
      if (!verdict.ok) {
        void reply.code(401).send({ detail: verdict.detail });
        return;
      }
      request.caller = verdict.caller;
      done();
    };
    const result = check(request.headers);
    // The HMAC alone answers at once: no promise, no extra tick on that path.
    if (result instanceof Promise) void result.then(settle);
    else settle(result);
  });
}
