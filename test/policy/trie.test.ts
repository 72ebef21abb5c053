import t from 'tap';
import { parsePathPattern, type Segment } from '../../src/policy/pattern.js';
import { Trie, TrieBuilder } from '../../src/policy/trie.js';
import { segmentsOf } from '../fixtures/policy.js';

function segmentsOfPattern(pattern: string): readonly Segment[] {
  const parsed = parsePathPattern(pattern);
  if (!parsed.ok) throw new Error(`test pattern ${pattern}: ${parsed.message}`);
  return parsed.value.segments;
}

/** A trie whose values are the patterns as written, inserted in the given order. */
function trieOf(patterns: readonly string[]): Trie<string> {
  const builder = new TrieBuilder<string>();
  for (const p of patterns) builder.insert(segmentsOfPattern(p), p);
  return builder.build();
}

const lookup = (trie: Trie<string>, path: string): string | undefined =>
  trie.lookup(segmentsOf(path));

t.test('lookup picks the most specific pattern, whatever the insertion order', async (t) => {
  const rows: { name: string; patterns: string[]; path: string; expected: string | undefined }[] = [
    {
      name: 'a literal beats `*` at the same depth',
      patterns: ['/components/*/configs/*', '/components/*/configs/current'],
      path: '/components/c1/configs/current',
      expected: '/components/*/configs/current',
    },
    {
      name: '`*` takes what the literal does not',
      patterns: ['/components/*/configs/*', '/components/*/configs/current'],
      path: '/components/c1/configs/v2',
      expected: '/components/*/configs/*',
    },
    {
      name: '`*` beats `**` at the same depth',
      patterns: ['/a/**', '/a/*'],
      path: '/a/x',
      expected: '/a/*',
    },
    {
      name: 'a literal beats `**` at the same depth',
      patterns: ['/a/**', '/a/b'],
      path: '/a/b',
      expected: '/a/b',
    },
    {
      name: 'an earlier literal beats a later literal under `*` (first difference decides)',
      patterns: ['/*/b', '/a/*'],
      path: '/a/b',
      expected: '/a/*',
    },
    {
      name: 'an exact pattern beats a `**` that would also cover it',
      patterns: ['/a/**', '/a/b/c'],
      path: '/a/b/c',
      expected: '/a/b/c',
    },
    {
      name: 'falls back from a literal branch that leads nowhere to the `*` sibling',
      patterns: ['/a/b/c', '/a/*/d'],
      path: '/a/b/d',
      expected: '/a/*/d',
    },
    {
      name: 'falls back from `*` to the `**` sibling',
      patterns: ['/a/*/c', '/a/**'],
      path: '/a/x/d',
      expected: '/a/**',
    },
    {
      name: 'falls back from a literal straight to `**` when there is no `*`',
      patterns: ['/a/b/c', '/a/**'],
      path: '/a/b/x',
      expected: '/a/**',
    },
    {
      name: 'falls back several levels up',
      patterns: ['/a/b/c/d', '/a/*/c/e', '/**'],
      path: '/a/b/c/x',
      expected: '/**',
    },
    {
      name: 'falls back from a deep literal to a shallow `*` branch',
      patterns: ['/a/b/c/d', '/a/*/c/x'],
      path: '/a/b/c/x',
      expected: '/a/*/c/x',
    },
    {
      name: 'no pattern when every branch leads nowhere',
      patterns: ['/a/b/c', '/a/*/d'],
      path: '/a/b/e',
      expected: undefined,
    },
  ];
  for (const row of rows) {
    t.equal(lookup(trieOf(row.patterns), row.path), row.expected, row.name);
    t.equal(
      lookup(trieOf([...row.patterns].reverse()), row.path),
      row.expected,
      `${row.name} [reversed order]`,
    );
  }
});

t.test('`*` matches exactly one non-empty segment and never crosses a "/"', async (t) => {
  const trie = trieOf(['/agents/*', '/*']);
  t.equal(lookup(trie, '/agents/a1'), '/agents/*');
  t.equal(lookup(trie, '/agents/a1/runs'), undefined, '`*` does not take two segments');
  t.equal(
    lookup(trie, '/agents'),
    '/*',
    '`/agents/*` does not match zero segments; `/*` takes `/agents`',
  );
  t.equal(lookup(trie, '/'), undefined, '`/*` does not match the root');
  t.equal(trie.lookup(['agents', '']), undefined, 'an empty segment matches no wildcard');
  t.equal(trie.lookup(['']), undefined, 'an empty segment at the root matches no wildcard');
});

t.test('`**` matches one or more remaining segments, never zero', async (t) => {
  const trie = trieOf(['/files/**']);
  t.equal(lookup(trie, '/files'), undefined, 'zero segments');
  t.equal(lookup(trie, '/files/a'), '/files/**', 'one segment');
  t.equal(lookup(trie, '/files/a/b/c'), '/files/**', 'three segments');
  t.equal(trie.lookup(['files', '']), undefined, 'an empty segment does not count as one');
  const root = trieOf(['/**']);
  t.equal(lookup(root, '/'), undefined, '`/**` does not match the root');
  t.equal(lookup(root, '/x'), '/**');
  t.equal(lookup(root, '/x/y'), '/**');
});

t.test('the root pattern `/` matches only the root', async (t) => {
  const trie = trieOf(['/', '/a']);
  t.equal(lookup(trie, '/'), '/');
  t.equal(lookup(trie, '/a'), '/a');
  t.equal(lookup(trie, '/b'), undefined);
});

t.test('literals match case-sensitively and exactly', async (t) => {
  const trie = trieOf(['/agents/*']);
  t.equal(lookup(trie, '/Agents/a1'), undefined);
  t.equal(lookup(trie, '/agent/a1'), undefined);
  t.equal(lookup(trie, '/agentsx/a1'), undefined);
});

t.test('an empty trie finds nothing', async (t) => {
  const trie = new TrieBuilder<string>().build();
  t.equal(trie.lookup([]), undefined);
  t.equal(trie.lookup(['a']), undefined);
});

t.test('insert replaces a pattern already present and returns the old value', async (t) => {
  const builder = new TrieBuilder<string>();
  t.equal(builder.insert(segmentsOfPattern('/agents/{id}'), 'first'), undefined, 'new pattern');
  t.equal(
    builder.insert(segmentsOfPattern('/agents/*'), 'second'),
    'first',
    '`{id}` and `*` are one node',
  );
  t.equal(builder.insert(segmentsOfPattern('/agents/**'), 'glob-1'), undefined, 'new glob');
  t.equal(builder.insert(segmentsOfPattern('/agents/**'), 'glob-2'), 'glob-1', 'glob replaced');
  t.equal(builder.insert(segmentsOfPattern('/'), 'root'), undefined, 'the root is a pattern');
  t.equal(builder.insert(segmentsOfPattern('/'), 'root-2'), 'root', 'root replaced');
  const trie = builder.build();
  t.equal(trie.lookup(['agents', 'a1']), 'second');
  t.equal(trie.lookup(['agents', 'a1', 'x']), 'glob-2');
  t.equal(trie.lookup([]), 'root-2');
});

t.test('a built trie is frozen and independent of its builder', async (t) => {
  const builder = new TrieBuilder<string>();
  builder.insert(segmentsOfPattern('/a/*'), 'a-star');
  const trie = builder.build();
  builder.insert(segmentsOfPattern('/a/b'), 'a-b');
  builder.insert(segmentsOfPattern('/a/*'), 'changed');
  t.equal(trie.lookup(['a', 'b']), 'a-star', 'later inserts do not reach a built trie');
  t.ok(Object.isFrozen(trie.root), 'root frozen');
  const a = trie.root.literals?.get('a');
  t.ok(a !== undefined && Object.isFrozen(a), 'children frozen');
  t.ok(a?.param !== undefined && Object.isFrozen(a.param), 'param child frozen');
  t.equal(builder.build().lookup(['a', 'b']), 'a-b', 'a second build sees the new pattern');
});

t.test('the node kinds keep specificity out of insertion order', async (t) => {
  const trie = trieOf(['/a/**', '/a/*', '/a/b']);
  const a = trie.root.literals?.get('a');
  t.equal(a?.glob, '/a/**');
  t.equal(a?.param?.value, '/a/*');
  t.equal(a?.literals?.get('b')?.value, '/a/b');
  t.equal(trie.root.value, undefined);
  t.equal(trie.root.param, undefined);
});

t.test('lookupPattern finds the most specific pattern covering a pattern', async (t) => {
  const { TrieBuilder, lookupPattern } = await import('../../src/policy/trie.js');
  const { parsePathPattern } = await import('../../src/policy/pattern.js');
  const segs = (p: string) => {
    const r = parsePathPattern(p);
    if (!r.ok) throw new Error(r.message);
    return r.value.segments;
  };
  const b = new TrieBuilder<string>();
  for (const p of ['/agents/*', '/agents/*/runs/**', '/x/lit']) b.insert(segs(p), p);
  const trie = b.build();
  const rows: [string, string | undefined][] = [
    ['/agents/special', '/agents/*'],
    ['/agents/*', '/agents/*'],
    ['/agents/{id}/runs/r1/cancel', '/agents/*/runs/**'],
    ['/agents/*/runs/**', '/agents/*/runs/**'],
    ['/agents/*/other', undefined],
    ['/agents/**', undefined],
    ['/x/*', undefined],
    ['/x/lit', '/x/lit'],
    ['/x/lit/deeper', undefined],
  ];
  for (const [pattern, expected] of rows)
    t.equal(lookupPattern(trie, segs(pattern)), expected, pattern);
});
