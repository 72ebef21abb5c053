/**
 * Offline memory optimization: one user's memories de-duplicated and joined
 * into a single summary memory, with the whitespace-token counts before and after. Pure: no
 * store, no clock, no ids.
 */
import { countTokens } from '../../model/tokens.js';

/** What optimization reads of a memory. */
export interface MemoryText {
  readonly memory: string;
  readonly topics: readonly string[];
}

/** The summary and the numbers `POST /optimize-memories` reports. */
export interface Optimization {
  /** The one memory that replaces them all. */
  readonly memory: string;
  /** Every topic of the memories, once each, sorted. */
  readonly topics: string[];
  readonly memoriesBefore: number;
  readonly memoriesAfter: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly tokensSaved: number;
  /** Percent of the tokens saved, two decimals; 0 when there were none. */
  readonly reductionPercentage: number;
}

/** Whitespace collapsed and case folded: two memories equal under this say the same thing. */
const normalize = (text: string): string => text.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * Joins `memories` (in the given order) into one summary: each distinct text once, trimmed,
 * separated by one space. Joining never adds a token, so `tokensSaved >= 0`. The summary may be
 * longer than a memory a client may write (it is not a client's write).
 *
 * @throws {RangeError} for an empty list (there is nothing to summarize)
 */
export function optimizeMemories(memories: readonly MemoryText[]): Optimization {
  if (memories.length === 0) throw new RangeError('no memories to optimize');
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const { memory } of memories) {
    const key = normalize(memory);
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(memory.trim());
  }
  const memory = kept.join(' ');
  const topics = [...new Set(memories.flatMap((m) => m.topics))].sort();
  const tokensBefore = memories.reduce((sum, m) => sum + countTokens(m.memory), 0);
  const tokensAfter = countTokens(memory);
  const tokensSaved = tokensBefore - tokensAfter;
  return {
    memory,
    topics,
    memoriesBefore: memories.length,
    memoriesAfter: 1,
    tokensBefore,
    tokensAfter,
    tokensSaved,
    reductionPercentage:
      tokensBefore === 0 ? 0 : Math.round((tokensSaved / tokensBefore) * 10_000) / 100,
  };
}
