import fc from 'fast-check';
import t from 'tap';
import { parsePathPattern, type Segment } from '../../src/policy/pattern.js';
import { Trie, TrieBuilder } from '../../src/policy/trie.js';

// Patterns over a small alphabet so that overlaps, shared prefixes and fallbacks are frequent:
// literals a|b|c, `*`, `{p}` (the same pattern as `*`), and an optional final `**`.
const patternSegment = fc.constantFrom('a', 'b', 'c', '*', '{p}');
const patternArb = fc
  .tuple(fc.array(patternSegment, { maxLength: 4 }), fc.boolean())
  .map(([segments, glob]) => {
    const all = glob ? [...segments, '**'] : segments;
    return all.length === 0 ? '/' : '/' + all.join('/');
  });
const patternSetArb = fc.array(patternArb, { minLength: 1, maxLength: 12 });
// Paths use one literal (`d`) no pattern names, so wildcards must do the work.
const pathArb = fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 5 });
const pathsArb = fc.array(pathArb, { minLength: 1, maxLength: 8 });

interface Parsed {
  readonly canonical: string;
  readonly segments: readonly Segment[];
}

function parse(pattern: string): Parsed {
  const parsed = parsePathPattern(pattern);
  if (!parsed.ok)
    throw new Error(`generator produced a malformed pattern ${pattern}: ${parsed.message}`);
  return parsed.value;
}

function build(patterns: readonly Parsed[]): Trie<string> {
  const builder = new TrieBuilder<string>();
  for (const p of patterns) builder.insert(p.segments, p.canonical);
  return builder.build();
}

/** REFERENCE: does `pattern` match `path`, read straight from the pattern grammar (docs/policy.md, Pattern grammar)? */
function matches(pattern: readonly Segment[], path: readonly string[]): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const s = pattern[i] as Segment;
    if (s.kind === 'glob') return path.length - i >= 1; // one or more remaining segments
    if (i >= path.length) return false;
    const segment = path[i] as string;
    if (s.kind === 'literal' && s.value !== segment) return false;
    if (s.kind === 'param' && segment === '') return false; // any non-empty, exactly one
  }
  return pattern.length === path.length;
}

const RANK = { literal: 0, param: 1, glob: 2 } as const;

/** REFERENCE order: the first position where the segment kinds differ decides (literal > `*` > `**`). */
function moreSpecific(a: readonly Segment[], b: readonly Segment[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = RANK[(a[i] as Segment).kind] - RANK[(b[i] as Segment).kind];
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** REFERENCE lookup: every matching pattern, the most specific one wins. */
function reference(patterns: readonly Parsed[], path: readonly string[]): string | undefined {
  let best: Parsed | undefined;
  for (const p of patterns) {
    if (!matches(p.segments, path)) continue;
    if (best === undefined || moreSpecific(p.segments, best.segments) < 0) best = p;
  }
  return best?.canonical;
}

t.test('lookup agrees with the reference matcher (most specific matching pattern)', async (t) => {
  fc.assert(
    fc.property(patternSetArb, pathsArb, (patterns, paths) => {
      const parsed = patterns.map(parse);
      const trie = build(parsed);
      for (const path of paths) {
        const expected = reference(parsed, path);
        const actual = trie.lookup(path);
        if (actual !== expected) {
          throw new Error(
            `patterns ${JSON.stringify(patterns)}, path /${path.join('/')}: trie ${actual}, reference ${expected}`,
          );
        }
      }
    }),
    { numRuns: 400 },
  );
  t.pass('400 random pattern sets agree');
});

t.test(
  'two distinct patterns matching one path are always ordered (the reference is total)',
  async (t) => {
    fc.assert(
      fc.property(patternArb, patternArb, pathArb, (a, b, path) => {
        const pa = parse(a);
        const pb = parse(b);
        if (
          pa.canonical === pb.canonical ||
          !matches(pa.segments, path) ||
          !matches(pb.segments, path)
        )
          return;
        if (moreSpecific(pa.segments, pb.segments) === 0)
          throw new Error(`${a} and ${b} tie on /${path.join('/')}`);
      }),
      { numRuns: 400 },
    );
    t.pass('no ties');
  },
);

t.test('the result does not depend on insertion order', async (t) => {
  fc.assert(
    fc.property(
      patternSetArb.chain((patterns) =>
        fc.tuple(
          fc.constant(patterns),
          fc.shuffledSubarray(patterns, { minLength: patterns.length, maxLength: patterns.length }),
        ),
      ),
      pathsArb,
      ([patterns, shuffled], paths) => {
        const one = build(patterns.map(parse));
        const two = build(shuffled.map(parse));
        for (const path of paths) {
          if (one.lookup(path) !== two.lookup(path)) {
            throw new Error(
              `order ${JSON.stringify(patterns)} vs ${JSON.stringify(shuffled)} differ on /${path.join('/')}`,
            );
          }
        }
      },
    ),
    { numRuns: 300 },
  );
  t.pass('shuffled insertion orders agree');
});

t.test(
  '`*` never matches across "/": a matched pattern without `**` has as many segments as the path',
  async (t) => {
    fc.assert(
      fc.property(patternSetArb, pathsArb, (patterns, paths) => {
        const parsed = patterns.map(parse);
        const byCanonical = new Map(parsed.map((p) => [p.canonical, p.segments]));
        const trie = build(parsed);
        for (const path of paths) {
          const hit = trie.lookup(path);
          if (hit === undefined) continue;
          const segments = byCanonical.get(hit) as readonly Segment[];
          const globAt = segments.findIndex((s) => s.kind === 'glob');
          const ok = globAt === -1 ? segments.length === path.length : path.length > globAt;
          if (!ok) throw new Error(`${hit} matched /${path.join('/')}`);
        }
      }),
      { numRuns: 300 },
    );
    t.pass('one segment per `*`, one or more for `**`');
  },
);
