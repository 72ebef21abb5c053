/**
 * Locates the installed scopegate package (its package.json), so shipped files such as
 * policies/*.yaml are found from src/ (tsx) and dist/ (built) alike. Reads only package.json files.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** The absolute folder holding scopegate's package.json. */
export function packageRoot(): string {
  if (cached !== undefined) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (
      existsSync(candidate) &&
      (JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string }).name === 'scopegate'
    ) {
      return (cached = dir);
    }
    const parent = dirname(dir);
    /* c8 ignore next - only reached when the module is copied outside its package */
    if (parent === dir)
      throw new Error('scopegate package.json not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

let version: string | undefined;

/** The version in scopegate's package.json, read once. */
export function packageVersion(): string {
  version ??= (
    JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }
  ).version;
  return version;
}
