/**
 * Repository invariant: the docs' links lead somewhere. Every relative link of the shipped
 * Markdown pages (`README.md`, `docs/`, `deploy/`) names a file of the repository, and every test
 * file the start page (`docs/README.md`) says runs a recipe exists.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import t from 'tap';

const ROOT = resolve(import.meta.dirname, '..');

/** The Markdown pages users read, relative to the repository root. */
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  'deploy/README.md',
];

/** The targets of a page's relative Markdown links, without their `#anchor`. */
export function relativeLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => (m[1] as string).split('#')[0] as string)
    .filter((target) => target !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

t.test('the link reader takes relative targets only, without anchors', async (t) => {
  t.same(
    relativeLinks('[a](config.md) [b](../deploy/README.md#installing) [c](https://x.io) [d](#top)'),
    ['config.md', '../deploy/README.md'],
  );
});

t.test('every relative link of every page names a file', async (t) => {
  for (const page of PAGES) {
    const text = readFileSync(join(ROOT, page), 'utf8');
    const broken = relativeLinks(text).filter(
      (target) => !existsSync(resolve(ROOT, dirname(page), target)),
    );
    t.same(broken, [], `${page}: every relative link names a file`);
  }
});

t.test('every test the start page says runs a recipe exists', async (t) => {
  const start = readFileSync(join(ROOT, 'docs/README.md'), 'utf8');
  const named = [...start.matchAll(/`(test\/[^`\s]+\.test\.ts)`/g)].map((m) => m[1] as string);
  t.ok(named.length >= 7, `${named.length} tests named`);
  for (const file of named) t.ok(existsSync(join(ROOT, file)), `${file} exists`);
});
