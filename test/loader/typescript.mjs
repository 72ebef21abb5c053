// The tests' TypeScript loader: tap's `node-arg` puts `--import=./test/loader/typescript.mjs` on
// every test process, and the processes a test spawns inherit it through `process.execArgv`.
//
// Each .ts file is transpiled on its own by esbuild (types erased, nothing type-checked: `npm
// test` runs `tsc` first), with an inline source map that carries coverage back to the .ts lines.
// Whitespace is kept, so every statement keeps a line of its own and line and branch coverage
// stay exact. tap's own TypeScript plugin (ts-node) did the same job several times slower per
// process, and tsx minifies whitespace, which folds a module onto a few lines and hides its
// uncovered code. Every process of a run loads the same files, so each output is kept in
// node_modules/.cache, one file per source file, reused while the source and the options that
// shape the output are unchanged.
//
// Imports name their `.js` output, as Node's ESM resolution wants: a relative `.js` import, `.js`
// path or `.js` file: URL whose `.ts` twin exists resolves to that `.ts` file.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transform, version } from 'esbuild';

const TYPESCRIPT = /\.ts$/;
// A file of ours named relative to the importer, by path or by file: URL (tap's mockImport adds
// a query), and the `.js` ending of its path.
const LOCAL = /^(\.{1,2}\/|\/|file:)/;
const JS_ENDING = /\.js(?=[?#]|$)/;

const OPTIONS = {
  loader: 'ts',
  format: 'esm',
  target: `node${process.versions.node}`,
  sourcemap: 'inline',
  tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
};
const CACHE = fileURLToPath(new URL('../../node_modules/.cache/scopegate-tests/', import.meta.url));
const CWD = pathToFileURL(`${process.cwd()}/`);
// What shapes an output besides its source: esbuild's version, the options (the target is this
// Node.js) and this file.
const SALT = JSON.stringify({ version, OPTIONS }) + readFileSync(fileURLToPath(import.meta.url));

/** @type {import('node:module').ResolveHook} */
export function resolve(specifier, context, nextResolve) {
  if (LOCAL.test(specifier) && JS_ENDING.test(specifier)) {
    const twin = new URL(specifier.replace(JS_ENDING, '.ts'), context.parentURL ?? CWD);
    const ours = twin.protocol === 'file:' && !twin.pathname.includes('/node_modules/');
    if (ours && existsSync(twin)) return { url: twin.href, format: 'module', shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

/** @type {import('node:module').LoadHook} */
export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !TYPESCRIPT.test(new URL(url).pathname)) {
    return nextLoad(url, context);
  }
  const file = fileURLToPath(url);
  const source = readFileSync(file, 'utf8');
  // One cache file per source file, headed by the hash of the source it was made from.
  const cached = join(CACHE, `${hash(file).slice(0, 32)}.js`);
  const head = `//${hash(SALT + source)}\n`;
  const kept = existsSync(cached) ? readFileSync(cached, 'utf8') : '';
  if (kept.startsWith(head)) {
    return { format: 'module', source: kept.slice(head.length), shortCircuit: true };
  }
  const { code } = await transform(source, { ...OPTIONS, sourcefile: file });
  // Written whole under a name of its own, then renamed: a parallel process reads the old file
  // or the new one, never a part.
  mkdirSync(CACHE, { recursive: true });
  const partial = `${cached}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(partial, head + code);
  renameSync(partial, cached);
  return { format: 'module', source: code, shortCircuit: true };
}

/** @param {string} text */
function hash(text) {
  return createHash('sha256').update(text).digest('hex');
}

register(import.meta.url);
