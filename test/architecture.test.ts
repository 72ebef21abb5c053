/**
 * Repository invariant: imports follow the layer arrows (each folder of src/ imports only the folders
 * listed below, policy/ stays pure, and the runtime's inner arrows hold).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import t from 'tap';

const SRC = resolve(import.meta.dirname, '../src');

/** Which top-level folders each folder may import from (besides itself). */
const ALLOWED: Record<string, readonly string[]> = {
  cli: ['gateway', 'auth', 'policy', 'config', 'admin', 'runtime', 'shared'],
  gateway: ['auth', 'policy', 'config', 'admin', 'shared'],
  auth: ['shared'],
  policy: ['shared'],
  config: ['shared'],
  admin: ['shared'],
  runtime: ['shared'],
  shared: [],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : name.endsWith('.ts') ? [full] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'([^']+)'/gms)].map(
    (m) => m[1] as string,
  );
}

const files = sourceFiles(SRC);

t.test('every import follows the layer arrows', async (t) => {
  const broken: string[] = [];
  for (const file of files) {
    const layer = relative(SRC, file).split('/')[0] as string;
    for (const spec of importsOf(file)) {
      if (!spec.startsWith('.')) continue;
      const target = relative(SRC, resolve(dirname(file), spec)).split('/')[0] as string;
      if (target !== layer && !(ALLOWED[layer] ?? []).includes(target)) {
        broken.push(`${relative(SRC, file)} imports ${spec} (${layer} → ${target})`);
      }
    }
  }
  t.same(broken, [], 'no import breaks an arrow');
});

t.test('policy/ does no I/O outside loader.ts', async (t) => {
  const io = /from 'node:(fs|net|http|https|child_process)/;
  const offenders = files
    .filter((f) => relative(SRC, f).startsWith('policy/') && !f.endsWith('loader.ts'))
    .filter((f) => io.test(readFileSync(f, 'utf8')))
    .map((f) => relative(SRC, f));
  t.same(offenders, []);
});

t.test('every source file opens with a header comment', async (t) => {
  const missing = files
    .filter((f) => !/^(#!.*\n)?\/\*\*/.test(readFileSync(f, 'utf8')))
    .map((f) => relative(SRC, f));
  t.same(missing, []);
});

t.test('no default exports', async (t) => {
  const offenders = files
    .filter((f) => /^export default /m.test(readFileSync(f, 'utf8')))
    .map((f) => relative(SRC, f));
  t.same(offenders, []);
});

t.test('the run engine is pure: no store, HTTP, protocol or route code, no I/O', async (t) => {
  // The engine may use the entity definitions and the model clients it is handed; everything
  // else reaches it as data or as injected functions.
  const allowed = (target: string): boolean =>
    target.startsWith('engine/') ||
    target.startsWith('model/') ||
    target === 'catalogue/definitions.ts';
  const offenders: string[] = [];
  for (const file of files.filter((f) => relative(SRC, f).startsWith('runtime/engine/'))) {
    for (const spec of importsOf(file)) {
      const target = spec.startsWith('.')
        ? relative(join(SRC, 'runtime'), resolve(dirname(file), spec)).replace(/\.js$/, '.ts')
        : spec;
      if (!allowed(target)) offenders.push(`${relative(SRC, file)} imports ${spec}`);
    }
  }
  t.same(offenders, []);
});

t.test("the runtime's inner arrows", async (t) => {
  const runtime = join(SRC, 'runtime');
  const edges = files
    .filter((f) => relative(SRC, f).startsWith('runtime/'))
    .flatMap((file) =>
      importsOf(file)
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => ({
          from: relative(runtime, file),
          to: relative(runtime, resolve(dirname(file), spec)).replace(/\.js$/, '.ts'),
        })),
    );
  const sectionOf = (path: string): string | null => /^api\/([^/]+)\//.exec(path)?.[1] ?? null;
  t.same(
    edges
      .filter(({ from, to }) => /^api\/[^/]+\/routes\.ts$/.test(to) && from !== 'app.ts')
      .map(({ from, to }) => `${from} imports ${to}`),
    [],
    "a section's routes are registered by the app alone",
  );
  t.same(
    edges
      .filter(
        ({ from, to }) =>
          /^(http|engine|model|catalogue|outbound)\//.test(from) && sectionOf(to) !== null,
      )
      // The live catalogue is the configured entities plus the components stored through the API.
      .filter(({ from, to }) => !(from === 'catalogue/live.ts' && to === 'api/components/table.ts'))
      .map(({ from, to }) => `${from} imports ${to}`),
    [],
    'the shared layers (http, engine, model, catalogue, outbound) import no API section',
  );
  t.same(
    edges
      .filter(({ from, to }) => from.startsWith('store/') && /^(http|protocols)\//.test(to))
      .map(({ from, to }) => `${from} imports ${to}`),
    [],
    'the store imports no HTTP or protocol code',
  );
});
