/**
 * Small text helpers for messages people read. Pure; never formats secrets.
 */

/** `1 problem`, `2 problems`: a count with its noun, plural by appending `s`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
