// docs/config.md and src/config/schema.ts list the same keys, with the same defaults and units:
// a key added to one and not the other fails here.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { z } from 'zod';
import { configSchema } from '../../src/config/schema.js';

interface SchemaNode {
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly default?: unknown;
  readonly unit?: string;
}

interface Documented {
  readonly defaultCell: string;
  readonly unitCell: string;
}

/** Every leaf key path of the schema (sections are walked into; records are leaves). */
function schemaKeys(): Map<string, SchemaNode> {
  const root = z.toJSONSchema(configSchema, { io: 'output', unrepresentable: 'any' }) as SchemaNode;
  const keys = new Map<string, SchemaNode>();
  const walk = (node: SchemaNode, prefix: string): void => {
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      const path = `${prefix}${key}`;
      if (child.properties === undefined) keys.set(path, child);
      else walk(child, `${path}.`);
    }
  };
  walk(root, '');
  return keys;
}

/**
 * Every key row of the tables under `## Keys` in docs/config.md:
 * `| \`key\` | type | default | unit | meaning |` (cells may be padded; none holds a `|`).
 */
function documentedKeys(markdown: string): Map<string, Documented> {
  const rows = new Map<string, Documented>();
  let inKeys = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('## ')) inKeys = line === '## Keys';
    const cells = line.split('|').map((cell) => cell.trim());
    const key = /^`([^`]+)`$/.exec(cells[1] ?? '')?.[1];
    if (inKeys && key !== undefined) {
      t.equal(cells.length, 7, `${key}: five cells`);
      rows.set(key, { defaultCell: cells[3] as string, unitCell: cells[4] as string });
    }
  }
  return rows;
}

/** A default as docs/config.md writes it: YAML-looking, in backticks; `—` for none. */
function renderDefault(value: unknown): string {
  if (value === undefined) return '—';
  return `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;
}

const schema = schemaKeys();
const docs = documentedKeys(readFileSync(new URL('../../docs/config.md', import.meta.url), 'utf8'));

t.test('the docs table parser finds the keys', async (t) => {
  t.ok(docs.size > 40, `found ${docs.size} documented keys`);
  t.ok(schema.size > 40, `found ${schema.size} schema keys`);
});

t.test('every schema key is documented', async (t) => {
  for (const key of schema.keys()) t.ok(docs.has(key), `${key} is in docs/config.md`);
});

t.test('every documented key is in the schema', async (t) => {
  for (const key of docs.keys()) t.ok(schema.has(key), `${key} is in src/config/schema.ts`);
});

t.test('documented defaults and units match the schema', async (t) => {
  for (const [key, node] of schema) {
    const documented = docs.get(key);
    if (documented === undefined) continue; // reported above
    t.equal(documented.defaultCell, renderDefault(node.default), `${key} default`);
    t.equal(documented.unitCell, node.unit ?? '—', `${key} unit`);
  }
});
