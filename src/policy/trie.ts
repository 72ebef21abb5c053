/**
 * A segment trie: patterns in, values out, in O(path segments) whatever the number of patterns.
 * Pure and immutable once built (the builder is separate). Never matches `*` across a `/`.
 */
import type { Segment } from './pattern.js';

/**
 * One node. Children are kept by kind so specificity comes from the node kind, never the order
 * patterns were added: a literal child beats the `*` child, which beats the `**` value.
 */
export interface TrieNode<V> {
  /** Value of a pattern ending exactly here. */
  readonly value: V | undefined;
  readonly literals: ReadonlyMap<string, TrieNode<V>> | undefined;
  readonly param: TrieNode<V> | undefined;
  /** Value of a pattern ending in `**` here: one or more remaining segments. */
  readonly glob: V | undefined;
}

interface MutableNode<V> {
  value: V | undefined;
  literals: Map<string, MutableNode<V>> | undefined;
  param: MutableNode<V> | undefined;
  glob: V | undefined;
}

function emptyNode<V>(): MutableNode<V> {
  return { value: undefined, literals: undefined, param: undefined, glob: undefined };
}

/** Collects patterns, then freezes them into a {@link Trie}. */
export class TrieBuilder<V> {
  readonly #root: MutableNode<V> = emptyNode();

  /** Adds a pattern; a pattern already present is replaced and its old value returned. */
  insert(segments: readonly Segment[], value: V): V | undefined {
    let node = this.#root;
    for (const segment of segments) {
      if (segment.kind === 'glob') {
        const old = node.glob;
        node.glob = value;
        return old;
      }
      if (segment.kind === 'param') {
        node = node.param ??= emptyNode();
        continue;
      }
      node.literals ??= new Map();
      let child = node.literals.get(segment.value);
      if (!child) node.literals.set(segment.value, (child = emptyNode()));
      node = child;
    }
    const old = node.value;
    node.value = value;
    return old;
  }

  /** Freezes the collected patterns into an immutable trie. */
  build(): Trie<V> {
    return new Trie(freeze(this.#root));
  }
}

function freeze<V>(node: MutableNode<V>): TrieNode<V> {
  let literals: Map<string, TrieNode<V>> | undefined;
  if (node.literals) {
    literals = new Map();
    for (const [k, child] of node.literals) literals.set(k, freeze(child));
  }
  return Object.freeze({
    value: node.value,
    literals,
    param: node.param && freeze(node.param),
    glob: node.glob,
  });
}

/** An immutable segment trie. */
export class Trie<V> {
  readonly root: TrieNode<V>;

  constructor(root: TrieNode<V>) {
    this.root = root;
  }

  /**
   * The value of the most specific pattern matching `segments` (decoded path segments), or
   * `undefined`. When the more specific branch leads to no pattern, the less specific sibling
   * is tried: depth is bounded by the longest pattern, so the work never grows with the number
   * of patterns.
   */
  lookup(segments: readonly string[]): V | undefined {
    return find(this.root, segments, 0);
  }
}

/**
 * The most specific pattern covering every request `segments` (a pattern) matches: a literal
 * may be covered by a literal, `*` or `**`; a `*` only by `*` or `**`; a `**` only by `**`.
 */
export function lookupPattern<V>(trie: Trie<V>, segments: readonly Segment[]): V | undefined {
  return findPattern(trie.root, segments, 0);
}

function findPattern<V>(node: TrieNode<V>, segments: readonly Segment[], i: number): V | undefined {
  if (i === segments.length) return node.value;
  const segment = segments[i] as Segment;
  if (segment.kind === 'glob') return node.glob;
  if (segment.kind === 'literal') {
    const literal = node.literals?.get(segment.value);
    const hit = literal === undefined ? undefined : findPattern(literal, segments, i + 1);
    if (hit !== undefined) return hit;
  }
  const hit = node.param === undefined ? undefined : findPattern(node.param, segments, i + 1);
  return hit !== undefined ? hit : node.glob;
}

function find<V>(node: TrieNode<V>, segments: readonly string[], i: number): V | undefined {
  if (i === segments.length) return node.value;
  const segment = segments[i] as string;
  const literal = node.literals?.get(segment);
  if (literal !== undefined) {
    const hit = find(literal, segments, i + 1);
    if (hit !== undefined) return hit;
  }
  // `*` and `**` need a non-empty segment; normalized paths never have empty ones, but a caller
  // of the trie could pass one and must not match a wildcard with it.
  if (segment === '') return undefined;
  if (node.param !== undefined) {
    const hit = find(node.param, segments, i + 1);
    if (hit !== undefined) return hit;
  }
  return node.glob;
}
