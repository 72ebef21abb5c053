/**
 * `upstream.identity_token.jwks_file`: the identity token's public JWK Set written to a file, for
 * an upstream that reads it from a shared volume instead of the admin listener. Written whole or
 * not at all (a temporary file in the same folder, then a rename), so a reader never sees half a
 * set. Writes public keys only; never a private key.
 */
import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import type { PublicJwk } from './keys.js';

/**
 * Replaces the file at `path` with `jwks` (pretty JSON, mode 0644: the keys are public). Throws
 * an Error whose message names the failure (the `code`) and the path; the file is then unchanged.
 */
export function writeJwksFile(path: string, jwks: { readonly keys: readonly PublicJwk[] }): void {
  // Same folder, so the rename never crosses a file system; unique, so two processes (or a
  // rotation during a reload) never write the same temporary file.
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(temporary, `${JSON.stringify(jwks, null, 2)}\n`, { mode: 0o644 });
    renameSync(temporary, path);
  } catch (err) {
    rmSync(temporary, { force: true });
    throw new Error(`cannot write ${path}: ${(err as NodeJS.ErrnoException).code}`);
  }
}
