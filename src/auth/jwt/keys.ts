/**
 * The JWT verification key set: `verification_keys`, the `jwks_file` and extra (development)
 * keys, imported once at start-up, each with the algorithms it may verify. Never puts key
 * material in a problem or a log, and never uses a PEM text as an HMAC secret.
 */
import { JWS_ALGORITHMS } from '../../shared/jws-algorithms.js';
import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fastKeyOf } from './fast-verify.js';
import type { Problem } from '../../shared/problem.js';
import { listOf, type AuthSettings } from '../settings.js';

/** The JWS algorithms a key set may accept (the shared list). `none` is never one of them. */
export const SUPPORTED_ALGORITHMS: readonly string[] = JWS_ALGORITHMS;

const HMAC = ['HS256', 'HS384', 'HS512'];
const RSA = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'];
const EC: Readonly<Record<string, readonly string[]>> = {
  prime256v1: ['ES256'],
  secp384r1: ['ES384'],
  secp521r1: ['ES512'],
};
const ED25519 = ['EdDSA', 'Ed25519'];
// jose refuses RS*/PS* keys below this size at verification time; refuse them at load instead.
const MIN_RSA_BITS = 2048;

/** Warning code for a key that parsed but verifies none of the accepted algorithms. */
export const UNUSABLE_KEY_WARNING = 'SGWRN005';

/** One imported key: an asymmetric public key, or the bytes of an HMAC secret. */
export interface VerificationKey {
  /** The JWK `kid` (JWKS and extra keys), or null. */
  readonly kid: string | null;
  readonly key: KeyObject | Uint8Array;
  /** The accepted algorithms this key can verify (its kind ∩ its JWK `alg` ∩ `algorithm`). */
  readonly algorithms: ReadonlySet<string>;
}

/** The imported keys, indexed for the per-token lookup (by `kid`, else every key of the `alg`). */
export interface KeySet {
  /** The accepted algorithms (`auth.algorithm`, minus any jose does not verify). */
  readonly algorithms: ReadonlySet<string>;
  /** Keys chosen by `kid`: the JWKS file's, then the extra keys. */
  readonly jwks: readonly VerificationKey[];
  /** `verification_keys`, in order: tried after the `kid` match, and for an unknown `kid`. */
  readonly static: readonly VerificationKey[];
  /**
   * The keys to try for a token, in order: the `kid`-chosen keys with that `kid` (without a
   * `kid`: those without one, the default key), then every static key; only keys that can verify
   * `alg`. Built at construction; the call allocates nothing.
   */
  candidates(kid: string | undefined, alg: string): readonly VerificationKey[];
  /** Whether a `kid`-chosen key carries `kid` for `alg` (else the token's `kid` is unknown). */
  knowsKid(kid: string, alg: string): boolean;
}

interface AlgorithmIndex {
  readonly byKid: ReadonlyMap<string, readonly VerificationKey[]>;
  readonly noKid: readonly VerificationKey[];
  readonly statics: readonly VerificationKey[];
}

const NONE: readonly VerificationKey[] = Object.freeze([]);

/**
 * Indexes imported keys into a {@link KeySet}. `algorithms` is the accepted list; keys are used
 * only for the algorithms in their own `algorithms` set.
 */
export function buildKeySet(
  algorithms: readonly string[],
  jwks: readonly VerificationKey[],
  statics: readonly VerificationKey[],
): KeySet {
  const accepted = new Set(algorithms.filter((alg) => SUPPORTED_ALGORITHMS.includes(alg)));
  // Each key's node:crypto form, derived now rather than on a token's first use.
  for (const key of [...jwks, ...statics]) fastKeyOf(key.key);
  const index = new Map<string, AlgorithmIndex>();
  for (const alg of accepted) {
    const usable = (key: VerificationKey): boolean => key.algorithms.has(alg);
    const tail = Object.freeze(statics.filter(usable));
    const byKid = new Map<string, readonly VerificationKey[]>();
    for (const key of jwks.filter(usable)) {
      if (key.kid !== null) byKid.set(key.kid, [...(byKid.get(key.kid) ?? []), key]);
    }
    for (const [kid, keys] of byKid) byKid.set(kid, Object.freeze([...keys, ...tail]));
    const noKid = jwks.filter((key) => usable(key) && key.kid === null);
    index.set(alg, { byKid, noKid: Object.freeze([...noKid, ...tail]), statics: tail });
  }
  return Object.freeze({
    algorithms: accepted,
    jwks: Object.freeze([...jwks]),
    static: Object.freeze([...statics]),
    candidates(kid: string | undefined, alg: string): readonly VerificationKey[] {
      const entry = index.get(alg);
      if (entry === undefined) return NONE;
      if (kid === undefined) return entry.noKid;
      return entry.byKid.get(kid) ?? entry.statics;
    },
    knowsKid(kid: string, alg: string): boolean {
      return index.get(alg)?.byKid.has(kid) === true;
    },
  });
}

/** What {@link createKeySet} needs besides the settings. */
export interface KeySetDeps {
  /** The config file, named in problems. */
  readonly configFile: string;
  /** Resolves a path from the config (relative to the config's folder). */
  resolvePath(path: string): string;
  /** Public keys added to the `kid`-chosen keys (the development key). */
  readonly extraKeys?: readonly { readonly key: KeyObject; readonly kid: string }[] | undefined;
}

/** The settings the key set is built from. */
export type KeySetSettings = Pick<
  AuthSettings,
  'verification_keys' | 'jwks_file' | 'algorithm' | 'secret_key'
>;

/** The outcome of {@link createKeySet}: the usable keys, errors, and warnings (`SGWRN005`). */
export interface KeySetResult {
  readonly keySet: KeySet;
  /** Keys or files that cannot be read, parsed or used: start-up (or reload) must fail. */
  readonly problems: Problem[];
  /** Keys that parsed but verify none of the accepted algorithms. */
  readonly warnings: Problem[];
}

type Kind =
  { readonly algorithms: readonly string[]; readonly name: string } | { readonly unusable: string };

/** What kind of key this is and which algorithms its kind can verify. */
function kindOf(key: KeyObject | Uint8Array): Kind {
  if (key instanceof Uint8Array) return { algorithms: HMAC, name: 'a shared secret' };
  // Node sets modulusLength on every RSA key and namedCurve on every EC key it imports.
  const details = key.asymmetricKeyDetails as { modulusLength: number; namedCurve: string };
  switch (key.asymmetricKeyType) {
    case 'rsa': {
      const bits = details.modulusLength;
      if (bits < MIN_RSA_BITS)
        return { unusable: `an RSA key of ${bits} bits (at least ${MIN_RSA_BITS} needed)` };
      return { algorithms: RSA, name: 'an RSA key' };
    }
    case 'ec': {
      const curve = details.namedCurve;
      const algorithms = EC[curve];
      if (algorithms === undefined) return { unusable: `an EC key on unsupported curve ${curve}` };
      return { algorithms, name: `an EC key (${curve})` };
    }
    case 'ed25519':
      return { algorithms: ED25519, name: 'an Ed25519 key' };
    default:
      return { unusable: `a key of unsupported type ${String(key.asymmetricKeyType)}` };
  }
}

/** The `code` of a file-system error (ENOENT, EACCES, EISDIR...): never its message. */
function errorCode(err: unknown): string {
  return String((err as { code?: unknown }).code);
}

// A PEM block anywhere in the text. Such a text is only ever parsed as a public key, never
// taken as an HMAC secret: accepting it as one would let a token signed with HS256 and the
// (public!) PEM as its secret verify (the algorithm-confusion attack).
const PEM = /-----BEGIN [A-Z0-9 ]+-----/;

function publicKeyFromPem(text: string): KeyObject | undefined {
  // An environment variable often carries a PEM with literal "\n" escapes instead of newlines.
  const pem = !text.includes('\n') && text.includes('\\n') ? text.replaceAll('\\n', '\n') : text;
  try {
    // Also takes an X.509 certificate, or a private key (whose public half is used).
    return createPublicKey(pem);
  } catch {
    return undefined;
  }
}

/** The key with the accepted algorithms it can verify, and what kind of key it is. */
function usableKeyOf(
  key: KeyObject | Uint8Array,
  kid: string | null,
  jwkAlg: unknown,
  accepted: ReadonlySet<string>,
): { key: VerificationKey; kind: Kind } {
  const kind = kindOf(key);
  const own = 'unusable' in kind ? [] : kind.algorithms;
  const algorithms = new Set(
    own.filter((alg) => accepted.has(alg) && (typeof jwkAlg !== 'string' || jwkAlg === alg)),
  );
  return { key: Object.freeze({ kid, key, algorithms }), kind };
}

/**
 * The usable keys of a JWK set fetched from `auth.jwks_url`. Entries that cannot be imported,
 * encryption keys and keys for none of the `accepted` algorithms are skipped (a remote document
 * can change at any time, so nothing in it can stop the gateway). Symmetric `oct` keys are
 * skipped too: a secret served at a URL is no secret, and accepting one would let anyone who can
 * read the URL mint tokens.
 */
export function importRemoteJwks(
  entries: readonly unknown[],
  accepted: ReadonlySet<string>,
): VerificationKey[] {
  const keys: VerificationKey[] = [];
  for (const jwk of entries) {
    if ((jwk as { kty?: unknown } | null)?.kty === 'oct') continue;
    const imported = importJwk(jwk, 'auth.jwks_url');
    if (imported === null || 'error' in imported) continue;
    const { key } = usableKeyOf(imported.key, imported.kid, imported.alg, accepted);
    if (key.algorithms.size > 0) keys.push(key);
  }
  return keys;
}

/** Builds the verification keys and JWKS set. Reads files; never throws. */
export async function createKeySet(
  settings: KeySetSettings,
  deps: KeySetDeps,
): Promise<KeySetResult> {
  const accepted = listOf(settings.algorithm);
  const acceptedSet = new Set(accepted);
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  const problem = (list: Problem[], key: string, message: string, code?: string): void => {
    list.push({ file: deps.configFile, key, message, ...(code === undefined ? {} : { code }) });
  };

  const usableKey = (key: KeyObject | Uint8Array, kid: string | null, jwkAlg: unknown) =>
    usableKeyOf(key, kid, jwkAlg, acceptedSet);

  const statics: VerificationKey[] = [];
  const entries = settings.verification_keys.map((value, i) => ({
    value,
    key: `auth.verification_keys[${i}]`,
  }));
  const secretKey = settings.secret_key ?? null;
  if (secretKey !== null && secretKey !== '' && !settings.verification_keys.includes(secretKey)) {
    entries.push({ value: secretKey, key: 'auth.secret_key' });
  }
  for (const entry of entries) {
    const loaded = await loadStaticKey(entry.value, deps);
    if ('error' in loaded) {
      problem(problems, entry.key, loaded.error);
      continue;
    }
    const { key, kind } = usableKey(loaded.key, null, undefined);
    if ('unusable' in kind) {
      problem(problems, entry.key, `${loaded.what} is ${kind.unusable}, which cannot verify JWTs`);
    } else if (key.algorithms.size === 0) {
      problem(
        warnings,
        entry.key,
        `${loaded.what} is ${kind.name} for ${kind.algorithms.join(', ')}, but auth.algorithm ` +
          `accepts only ${accepted.join(', ')}: it verifies nothing`,
        UNUSABLE_KEY_WARNING,
      );
    } else {
      statics.push(key);
    }
  }

  const jwks: VerificationKey[] = [];
  if (settings.jwks_file !== null && settings.jwks_file !== '') {
    const where = `JWKS file ${JSON.stringify(settings.jwks_file)}`;
    const loaded = await loadJwks(deps.resolvePath(settings.jwks_file), where);
    if ('error' in loaded) {
      problem(problems, 'auth.jwks_file', loaded.error);
    } else {
      let usable = 0;
      loaded.keys.forEach((jwk, i) => {
        const imported = importJwk(jwk, `${where}: keys[${i}]`);
        if (imported === null) return;
        if ('error' in imported) {
          problem(problems, 'auth.jwks_file', imported.error);
          return;
        }
        const { key, kind } = usableKey(imported.key, imported.kid, imported.alg);
        if ('unusable' in kind) {
          problem(
            warnings,
            'auth.jwks_file',
            `${where}: keys[${i}] is ${kind.unusable}; it is skipped`,
            UNUSABLE_KEY_WARNING,
          );
        } else if (key.algorithms.size > 0) {
          usable += 1;
          jwks.push(key);
        }
      });
      if (usable === 0) {
        problem(
          warnings,
          'auth.jwks_file',
          `${where} holds no key that verifies ${accepted.join(', ')}`,
          UNUSABLE_KEY_WARNING,
        );
      }
    }
  }

  (deps.extraKeys ?? []).forEach(({ key: keyObject, kid }, i) => {
    const { key, kind } = usableKey(keyObject, kid, undefined);
    if ('unusable' in kind || key.algorithms.size === 0) {
      problem(
        warnings,
        'auth.dev_keys',
        `extra key ${i} (kid ${JSON.stringify(kid)}) verifies none of ${accepted.join(', ')}`,
        UNUSABLE_KEY_WARNING,
      );
    } else {
      jwks.push(key);
    }
  });

  return { keySet: buildKeySet(accepted, jwks, statics), problems, warnings };
}

type Loaded =
  { readonly key: KeyObject | Uint8Array; readonly what: string } | { readonly error: string };

/** One `verification_keys` entry: inline PEM, inline secret, or `file:<path>` holding either. */
async function loadStaticKey(value: string, deps: KeySetDeps): Promise<Loaded> {
  if (!value.startsWith('file:')) {
    if (PEM.test(value)) {
      const key = publicKeyFromPem(value);
      return key === undefined
        ? { error: 'is not a valid PEM public key or certificate' }
        : { key, what: 'the PEM key' };
    }
    return {
      key: new Uint8Array(Buffer.from(value, 'utf8')),
      what: 'the value (taken as a shared secret)',
    };
  }
  const path = value.slice('file:'.length);
  const what = `key file ${JSON.stringify(path)}`;
  let text: string;
  try {
    text = await readFile(deps.resolvePath(path), 'utf8');
  } catch (err) {
    return { error: `cannot read ${what} (${errorCode(err)})` };
  }
  if (PEM.test(text)) {
    const key = publicKeyFromPem(text);
    return key === undefined
      ? { error: `${what} is not a valid PEM public key or certificate` }
      : { key, what };
  }
  // A secret file usually ends with a newline that is not part of the secret.
  const secret = text.trim();
  if (secret === '') return { error: `${what} is empty` };
  return { key: new Uint8Array(Buffer.from(secret, 'utf8')), what };
}

/** The `keys` of a JWKS file, or why they cannot be read. */
async function loadJwks(
  path: string,
  where: string,
): Promise<{ readonly keys: readonly unknown[] } | { readonly error: string }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    return { error: `cannot read ${where} (${errorCode(err)})` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // The parser's message quotes the text: never shown.
    return { error: `${where} is not valid JSON` };
  }
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  if (typeof parsed !== 'object' || Array.isArray(parsed) || !Array.isArray(keys)) {
    return { error: `${where} must be a JSON object with a "keys" list` };
  }
  return { keys };
}

type ImportedJwk =
  | { readonly key: KeyObject | Uint8Array; readonly kid: string | null; readonly alg: unknown }
  | { readonly error: string };

/** One JWKS entry; null for an encryption key (`use: enc`), which is skipped. */
function importJwk(jwk: unknown, where: string): ImportedJwk | null {
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) {
    return { error: `${where} is not a JSON object` };
  }
  const fields = jwk as Record<string, unknown>;
  if (fields['use'] === 'enc') return null;
  const kid = fields['kid'] ?? null;
  if (kid !== null && typeof kid !== 'string')
    return { error: `${where} has a "kid" that is not a string` };
  const named = kid === null ? where : `${where} (kid ${JSON.stringify(kid)})`;
  if (fields['kty'] === 'oct') {
    const k = fields['k'];
    const bytes = typeof k === 'string' ? Buffer.from(k, 'base64url') : Buffer.alloc(0);
    if (bytes.length === 0) return { error: `${named} is an oct key without a usable "k"` };
    return { key: new Uint8Array(bytes), kid, alg: fields['alg'] };
  }
  try {
    const key = createPublicKey({ key: fields as JsonWebKey, format: 'jwk' });
    return { key, kid, alg: fields['alg'] };
  } catch {
    return { error: `${named} cannot be imported as a public key` };
  }
}
