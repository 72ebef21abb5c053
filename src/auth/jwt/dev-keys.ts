/**
 * Development signing keys: an ES256 key pair kept as a private JWK file,
 * created on first use with mode 0600. Only for a configured `auth.dev_keys`; never prints or
 * puts the key in an error.
 */
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPair,
  sign,
  verify,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { calculateJwkThumbprint } from 'jose';

/** The development key pair and its `kid`. */
export interface DevKeys {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  /** The RFC 7638 thumbprint of the public key, unless the file names another. */
  readonly kid: string;
  /** Whether this call generated the pair (and wrote the file). */
  readonly created: boolean;
}

const generate = promisify(generateKeyPair);

function malformed(path: string): Error {
  // Never the file's contents, nor a parser message quoting them.
  return new Error(`development key file ${path} is not an ES256 (P-256) private JWK with a kid`);
}

/** Parses a private JWK file's text; throws naming the path when it is not one. */
function parseDevKeys(text: string, path: string): DevKeys {
  let jwk: unknown;
  try {
    jwk = JSON.parse(text);
  } catch {
    throw malformed(path);
  }
  const fields = (typeof jwk === 'object' && jwk !== null ? jwk : {}) as Record<string, unknown>;
  const { kid } = fields;
  if (
    fields['kty'] !== 'EC' ||
    fields['crv'] !== 'P-256' ||
    typeof fields['d'] !== 'string' ||
    typeof kid !== 'string' ||
    kid === ''
  ) {
    throw malformed(path);
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: fields as JsonWebKey, format: 'jwk' });
  } catch {
    throw malformed(path);
  }
  // Node imports `d` and `x`/`y` without checking they belong together; a mismatched pair
  // would mint tokens its own public key refuses. One probe signature settles it.
  const publicKey = createPublicKey(privateKey);
  const probe = Buffer.from('scopegate development key probe');
  if (!verify('sha256', probe, publicKey, sign('sha256', probe, privateKey))) throw malformed(path);
  return { privateKey, publicKey, kid, created: false };
}

/**
 * Loads the development key pair from `path` (absolute, or relative to the working folder),
 * or, when no file is there, generates an ES256 pair and writes its private JWK (with `kid` and
 * `alg: ES256`) there with mode 0600, creating parent folders (mode 0700). A file that exists but
 * cannot be read, or is not such a JWK, is an Error naming the path: it is never overwritten.
 */
export async function loadOrCreateDevKeys(path: string): Promise<DevKeys> {
  let text: string | undefined;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code !== 'ENOENT') {
      throw new Error(`cannot read development key file ${path} (${String(code)})`);
    }
  }
  if (text !== undefined) return parseDevKeys(text, path);

  const { privateKey, publicKey } = await generate('ec', { namedCurve: 'P-256' });
  const publicJwk = publicKey.export({ format: 'jwk' });
  const kid = await calculateJwkThumbprint(
    { kty: 'EC', crv: publicJwk.crv, x: publicJwk.x, y: publicJwk.y },
    'sha256',
  );
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig' };
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  // `wx`: never replace a file another process created meanwhile (that start fails instead).
  await writeFile(path, `${JSON.stringify(jwk, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  return { privateKey, publicKey, kid, created: true };
}
