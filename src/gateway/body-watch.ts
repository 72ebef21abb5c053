/**
 * The request-body time-out: a body that stalls (no new bytes for `listen.body_idle_timeout_ms`)
 * or is not complete within `listen.body_timeout_ms` of the request's arrival expires, and
 * whoever reads or forwards it is told once, so the upstream request is aborted and the caller
 * answered 408. Never reads the body and never writes a response itself.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** The two ways a body times out (catalogue codes, 408). */
export type BodyTimeoutCode = 'SG_ERR_BODY_IDLE_TIMEOUT' | 'SG_ERR_BODY_TIMEOUT';

/** The body bounds of one config, in milliseconds. */
export interface BodyTimeouts {
  /** Longest gap with no new body bytes (`listen.body_idle_timeout_ms`). */
  readonly idleMs: number;
  /** Longest time from the request's arrival to its body's last byte (`listen.body_timeout_ms`). */
  readonly totalMs: number;
}

/** The watch on one request's body. */
export interface BodyWatch {
  /** Why the body timed out, once it has; null while it is within its bounds. */
  readonly expired: BodyTimeoutCode | null;
  /** Whether the watch still runs: false once the body is complete, expired or gone. */
  readonly active: boolean;
  /**
   * Who to tell when the body times out: the one reading it or waiting to send it on now (set
   * and cleared by that reader). Called at most once.
   */
  onExpire: ((code: BodyTimeoutCode) => void) | null;
}

/** Whether a request carries a body: a `Transfer-Encoding`, or a `Content-Length` other than 0. */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * One timer per watched body, re-armed in place (`refresh`) every half idle bound: no timer,
 * closure or listener per chunk. Progress is read from the socket's byte counter, so the body is
 * never consumed here (a 'data' listener would start the stream flowing). A full buffer of bytes
 * the gateway has not read yet (the upstream reads slowly, or the request waits for an upstream
 * connection) makes Node stop reading the socket: that wait is the gateway's, not the caller's,
 * and counts as progress. A stall is seen between one and one and a half idle bounds after the
 * last byte.
 */
class Watch implements BodyWatch {
  expired: BodyTimeoutCode | null = null;
  onExpire: ((code: BodyTimeoutCode) => void) | null = null;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  // Kept here: undici detaches `req.socket` when it aborts a forwarded body.
  readonly #socket: Socket;
  readonly #idleMs: number;
  readonly #tickMs: number;
  readonly #deadline: number;
  #lastBytes: number;
  #lastProgress: number;
  #timer: NodeJS.Timeout | null;

  constructor(req: IncomingMessage, res: ServerResponse, timeouts: BodyTimeouts) {
    this.#req = req;
    this.#res = res;
    this.#socket = req.socket;
    this.#idleMs = timeouts.idleMs;
    const now = performance.now();
    this.#deadline = now + timeouts.totalMs;
    this.#lastProgress = now;
    this.#lastBytes = this.#socket.bytesRead;
    this.#tickMs = Math.max(1, Math.ceil(Math.min(timeouts.idleMs, timeouts.totalMs) / 2));
    this.#timer = setTimeout(tick, this.#tickMs, this);
    // A watch never keeps the process alive; shutdown closes the sockets it watches.
    this.#timer.unref();
    // 'close' comes once the body was read to its end, or the connection closed: nothing left
    // to watch either way.
    req.once('close', () => this.stop());
  }

  get active(): boolean {
    return this.#timer !== null;
  }

  stop(): void {
    if (this.#timer === null) return;
    clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** One tick: progress, completion, or expiry. */
  check(): void {
    const req = this.#req;
    const now = performance.now();
    const bytes = this.#socket.bytesRead;
    if (bytes !== this.#lastBytes || req.readableLength >= req.readableHighWaterMark) {
      this.#lastBytes = bytes;
      this.#lastProgress = now;
    }
    // The parser has the whole body: how fast it is read from here on is not the caller's doing.
    if (req.complete) return this.stop();
    let code: BodyTimeoutCode | null = null;
    if (now >= this.#deadline) code = 'SG_ERR_BODY_TIMEOUT';
    else if (now - this.#lastProgress >= this.#idleMs) code = 'SG_ERR_BODY_IDLE_TIMEOUT';
    if (code === null) {
      const timer = this.#timer as NodeJS.Timeout;
      // The last tick is cut to the total bound, so it is never overshot by more than a tick.
      if (this.#deadline - now < this.#tickMs) {
        this.#timer = setTimeout(tick, Math.max(1, Math.ceil(this.#deadline - now)), this);
        this.#timer.unref();
        clearTimeout(timer);
      } else timer.refresh();
      return;
    }
    this.#timer = null;
    this.expired = code;
    const onExpire = this.onExpire;
    this.onExpire = null;
    if (onExpire !== null) onExpire(code);
    // Nobody reads the body now. Before the answer (the caller is still being authenticated),
    // the next stage to read it answers 408, and whatever answer comes closes the connection.
    // After it (a refusal written before the body was read, which Node drains), only the slow
    // body holds the connection: close it.
    else if (this.#res.headersSent) this.#socket.destroy();
    else this.#res.setHeader('connection', 'close');
  }
}

function tick(watch: Watch): void {
  watch.check();
}

/**
 * Starts watching `req`'s body with `timeouts`; null (and nothing allocated) for a request
 * without a body. The watch ends by itself when the body was read to its end or the connection
 * closed.
 */
export function watchBody(
  req: IncomingMessage,
  res: ServerResponse,
  timeouts: BodyTimeouts,
): BodyWatch | null {
  return hasBody(req) ? new Watch(req, res, timeouts) : null;
}
