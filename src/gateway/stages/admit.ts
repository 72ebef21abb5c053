/**
 * Stage: admit an authorized request to the upstream. A caller already holding
 * `upstream.max_in_flight_per_principal` requests is refused (429); otherwise the request takes
 * an upstream connection slot, waiting at most `upstream.queue_timeout_ms` for one (503 after
 * that). A refused request is never forwarded. Never writes responses; the pipeline releases what
 * was admitted once the upstream exchange has ended.
 */
import type { ServerResponse } from 'node:http';
import type { Principal } from '../../auth/principal.js';
import type { BodyWatch } from '../body-watch.js';
import { reject, type Refusal, type Verdict } from '../rejections.js';
import type { SlotWait } from '../upstream-slots.js';
import type { Upstream } from './forward.js';

/** The admission limits of one config. */
export interface AdmissionLimits {
  /** `upstream.max_in_flight_per_principal`; 0: no cap (nothing is counted). */
  readonly maxInFlightPerCaller: number;
  /** `upstream.queue_timeout_ms`; 0: never wait for a connection. */
  readonly queueTimeoutMs: number;
}

/**
 * What an admitted request holds: the caller key it is counted under, or null when nothing is
 * counted. Handed back to {@link releaseAdmission} exactly once.
 */
export type Admission = string | null;

const UNCOUNTED: Verdict<Admission> = Object.freeze({ ok: true, value: null });

/**
 * The key a caller's requests are counted under: the user id (a service account's is `sa:<name>`),
 * the principal kind for the internal token and the security-key root (one principal each), and
 * the client address for a caller with no identity (an excluded route, an anonymous caller, a JWT
 * without a subject). The kind prefix keeps the namespaces apart.
 */
export function callerKeyOf(principal: Principal | null, clientAddress: string): string {
  if (principal === null || principal.type === 'anonymous') return `addr:${clientAddress}`;
  if (principal.type === 'internal' || principal.type === 'security_key') return principal.type;
  return principal.userId === null
    ? `addr:${clientAddress}`
    : `${principal.type}:${principal.userId}`;
}

/**
 * Counts the caller (429 past its cap) and nothing else: a protocol upgrade opens its own
 * upstream connection, outside the pool, but still counts against its caller for its whole life.
 */
export function admitCaller(
  upstream: Upstream,
  limits: AdmissionLimits,
  caller: string,
): Verdict<Admission> {
  const cap = limits.maxInFlightPerCaller;
  if (cap === 0) return UNCOUNTED;
  if (!upstream.callers.tryAcquire(caller, cap)) return reject('SG_ERR_IN_FLIGHT_LIMIT');
  return { ok: true, value: caller };
}

/**
 * Admits a request to the pool: the caller's count first (429), then a connection slot, at once
 * when one is free (answered synchronously), else after waiting in line (503 when none frees in
 * time). `null` when the client went away while waiting; a body that times out while waiting is
 * its 408 code. Whatever was taken is given back on every path that does not admit.
 */
export function admitRequest(
  upstream: Upstream,
  limits: AdmissionLimits,
  caller: string,
  res: ServerResponse,
  watch: BodyWatch | null,
): Verdict<Admission> | Promise<Verdict<Admission> | null> {
  const counted = admitCaller(upstream, limits, caller);
  if (!counted.ok) return counted;
  const { slots } = upstream;
  if (slots.tryAcquire()) return counted;
  const admission = counted.value;
  const busy = reject('SG_ERR_UPSTREAM_BUSY');
  if (limits.queueTimeoutMs === 0) return refuse(upstream, admission, busy);
  return new Promise((resolve) => {
    let wait: SlotWait | null = null;
    const done = (verdict: Verdict<Admission> | null): void => {
      res.off('close', onClose);
      if (watch !== null) watch.onExpire = null;
      resolve(verdict);
    };
    const onClose = (): void => {
      (wait as SlotWait).cancel();
      releaseCaller(upstream, admission);
      done(null);
    };
    wait = slots.wait(
      limits.queueTimeoutMs,
      () => done(counted),
      () => done(refuse(upstream, admission, busy)),
    );
    if (wait === null) return resolve(refuse(upstream, admission, busy));
    res.once('close', onClose);
    if (watch !== null) {
      watch.onExpire = (code) => {
        (wait as SlotWait).cancel();
        done(refuse(upstream, admission, reject(code)));
      };
    }
  });
}

function refuse(upstream: Upstream, admission: Admission, refusal: Refusal): Refusal {
  releaseCaller(upstream, admission);
  return refusal;
}

function releaseCaller(upstream: Upstream, admission: Admission): void {
  if (admission !== null) upstream.callers.release(admission);
}

/** Gives back what {@link admitRequest} took, once the upstream exchange has ended. */
export function releaseAdmission(upstream: Upstream, admission: Admission): void {
  upstream.slots.release();
  releaseCaller(upstream, admission);
}

/** Gives back what {@link admitCaller} took (a protocol upgrade's tunnel has closed). */
export function releaseCallerAdmission(upstream: Upstream, admission: Admission): void {
  releaseCaller(upstream, admission);
}
