/**
 * Admission bookkeeping for the upstream: one slot per pooled upstream connection, with a bounded
 * queue of requests waiting for a slot (one timer per waiter, never one per request), and a count
 * of each caller's requests in flight. O(1) per request and allocation-free on the fast path.
 * Decides nothing about a request and never writes a response.
 */

/** A request waiting for a slot. */
export interface SlotWait {
  /** Leaves the queue (the client went away); does nothing once granted or timed out. */
  cancel(): void;
}

/** The upstream connection slots of one pool. */
export interface UpstreamSlots {
  /** Slots in all: `upstream.max_connections`. */
  readonly capacity: number;
  /** Slots held now. */
  readonly inUse: number;
  /** Requests waiting for a slot now. */
  readonly waiting: number;
  /** Takes a free slot, if there is one. */
  tryAcquire(): boolean;
  /**
   * Queues for the next slot that frees: `onGranted` runs when one is handed over (it is then
   * held), `onTimedOut` after `timeoutMs` without one. Null when the queue is full.
   */
  wait(timeoutMs: number, onGranted: () => void, onTimedOut: () => void): SlotWait | null;
  /** Gives a held slot back: to the longest waiter, else to the free ones. */
  release(): void;
}

/**
 * How many requests may wait per slot. Waiting is bounded in time already; this bounds the
 * memory a burst can pin while it waits (each waiter holds a socket and a timer).
 */
export const MAX_WAITING_PER_SLOT = 4;

/** Runs `run` after `ms` milliseconds; returns what cancels it. Injected in tests. */
export type Schedule = (run: () => void, ms: number) => () => void;

/** The process's timers, unref'd: a waiting request never keeps the process alive by itself. */
const nodeSchedule: Schedule = (run, ms) => {
  const timer = setTimeout(run, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

/** One queued request: a node of the doubly linked queue, so leaving it is O(1). */
class Waiter implements SlotWait {
  prev: Waiter | null = null;
  next: Waiter | null = null;
  /** Cancels the time-out; null once the waiter left the queue (granted, timed out, cancelled). */
  cancelTimer: (() => void) | null = null;
  readonly slots: Slots;
  readonly onGranted: () => void;
  readonly onTimedOut: () => void;

  constructor(slots: Slots, onGranted: () => void, onTimedOut: () => void) {
    this.slots = slots;
    this.onGranted = onGranted;
    this.onTimedOut = onTimedOut;
  }

  cancel(): void {
    if (this.cancelTimer === null) return;
    this.cancelTimer();
    this.cancelTimer = null;
    this.slots.unlink(this);
  }

  timedOut(): void {
    this.cancelTimer = null;
    this.slots.unlink(this);
    this.onTimedOut();
  }
}

class Slots implements UpstreamSlots {
  inUse = 0;
  waiting = 0;
  #head: Waiter | null = null;
  #tail: Waiter | null = null;
  readonly capacity: number;
  readonly #maxWaiting: number;
  readonly #schedule: Schedule;

  constructor(capacity: number, schedule: Schedule) {
    this.capacity = capacity;
    this.#maxWaiting = capacity * MAX_WAITING_PER_SLOT;
    this.#schedule = schedule;
  }

  tryAcquire(): boolean {
    if (this.inUse >= this.capacity) return false;
    this.inUse += 1;
    return true;
  }

  wait(timeoutMs: number, onGranted: () => void, onTimedOut: () => void): SlotWait | null {
    if (this.waiting >= this.#maxWaiting) return null;
    const waiter = new Waiter(this, onGranted, onTimedOut);
    waiter.cancelTimer = this.#schedule(() => waiter.timedOut(), timeoutMs);
    waiter.prev = this.#tail;
    if (this.#tail === null) this.#head = waiter;
    else this.#tail.next = waiter;
    this.#tail = waiter;
    this.waiting += 1;
    return waiter;
  }

  release(): void {
    const first = this.#head;
    if (first === null) {
      if (this.inUse > 0) this.inUse -= 1;
      return;
    }
    // The slot goes straight to the longest waiter: `inUse` stays, and nobody can jump the queue.
    (first.cancelTimer as () => void)();
    first.cancelTimer = null;
    this.unlink(first);
    first.onGranted();
  }

  unlink(waiter: Waiter): void {
    if (waiter.prev === null) this.#head = waiter.next;
    else waiter.prev.next = waiter.next;
    if (waiter.next === null) this.#tail = waiter.prev;
    else waiter.next.prev = waiter.prev;
    waiter.prev = waiter.next = null;
    this.waiting -= 1;
  }
}

/** Creates the slots of a pool of `capacity` connections (`schedule`: the timers, for tests). */
export function createUpstreamSlots(
  capacity: number,
  schedule: Schedule = nodeSchedule,
): UpstreamSlots {
  return new Slots(capacity, schedule);
}

/** Each caller's requests in flight to the upstream. */
export interface CallerCounts {
  /** Counts one more request for `key` unless it has `cap` (1 or more) already. */
  tryAcquire(key: string, cap: number): boolean;
  /** Ends one request of `key`. */
  release(key: string): void;
  /** Requests of `key` in flight now. */
  of(key: string): number;
  /** Callers with a request in flight now. */
  readonly callers: number;
}

/**
 * Creates the counts. A caller's entry exists only while it has a request in flight, so the map
 * holds at most one entry per request in flight, whoever the callers are.
 */
export function createCallerCounts(): CallerCounts {
  const counts = new Map<string, number>();
  return {
    tryAcquire(key, cap) {
      const n = counts.get(key) ?? 0;
      if (n >= cap) return false;
      counts.set(key, n + 1);
      return true;
    },
    release(key) {
      const n = counts.get(key);
      if (n === undefined) return;
      if (n <= 1) counts.delete(key);
      else counts.set(key, n - 1);
    },
    of: (key) => counts.get(key) ?? 0,
    get callers() {
      return counts.size;
    },
  };
}
