/**
 * Cancels asked through another runtime on the same database (a replica): while runs are live
 * here, the store is asked every {@link CANCEL_POLL_MS} which of them a cancel was asked for, and
 * their flags are raised (the engine stops at its next delta). Old intents are pruned now and
 * then. Never throws: a store that cannot answer is asked again at the next poll.
 */
import type { RunStore } from './table.js';

/** How often the live runs' cancels are looked for: a cancel through another replica lands within it. */
export const CANCEL_POLL_MS = 250;
/** How long an intent is kept: a run that has not started by then starts as if never cancelled. */
export const CANCEL_RETENTION_SECONDS = 3_600;
/** How often intents older than the retention are deleted. */
const PRUNE_EVERY_SECONDS = 600;

/**
 * Watches the runs in `live` (run id → its cancel flag). Answers `wake`, to call whenever a run
 * goes live: polling runs while any run is live and stops by itself when none is.
 */
export function watchCancels(
  store: Pick<RunStore, 'cancelsAmong' | 'pruneCancels'>,
  live: ReadonlyMap<string, { cancelled: boolean }>,
  nowSeconds: () => number,
  pollMs: number = CANCEL_POLL_MS,
): () => void {
  let timer: NodeJS.Timeout | null = null;
  let prunedAt = Number.NEGATIVE_INFINITY;
  const poll = async (): Promise<void> => {
    try {
      const asked = new Set(await store.cancelsAmong([...live.keys()]));
      for (const [runId, flag] of live) if (asked.has(runId)) flag.cancelled = true;
      const now = nowSeconds();
      if (now - prunedAt >= PRUNE_EVERY_SECONDS) {
        prunedAt = now;
        await store.pruneCancels(now - CANCEL_RETENTION_SECONDS);
      }
    } catch {
      // The store did not answer: the next poll asks again.
    }
    timer = null;
    if (live.size > 0) arm();
  };
  const arm = (): void => {
    timer = setTimeout(() => void poll(), pollMs);
    // A live run keeps the process up by itself; the watch never does.
    timer.unref();
  };
  return () => {
    if (timer === null) arm();
  };
}
