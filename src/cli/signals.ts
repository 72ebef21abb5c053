/**
 * Process signals for long-running commands. Wiring only.
 */

/** Resolves on the first of the given signals, then stops listening for all of them. */
export function untilSignal(signals: readonly NodeJS.Signals[]): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals): void => {
      for (const s of signals) process.off(s, on);
      resolve(signal);
    };
    for (const s of signals) process.once(s, on);
  });
}
