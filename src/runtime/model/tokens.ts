/**
 * Whitespace words: how the offline model splits its answer into deltas and how the engine counts
 * deterministic tokens. Pure.
 */

/**
 * Splits text into one piece per word, each word keeping the whitespace before it (and the last
 * one the trailing whitespace), so the pieces joined give the text back exactly.
 */
export function splitWords(text: string): string[] {
  const pieces: string[] = text.match(/\s*\S+/g) ?? [];
  const rest = text.slice(pieces.join('').length);
  if (rest !== '') pieces.push((pieces.pop() ?? '') + rest);
  return pieces;
}

/** The number of whitespace-separated words in `text`: the offline token count. */
export function countTokens(text: string): number {
  return text.split(/\s+/).filter((word) => word !== '').length;
}
