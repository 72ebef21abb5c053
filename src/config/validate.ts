/**
 * Validates an interpolated config tree: schema, environment defaults, cross-field checks and
 * warnings, collecting every problem; then deep-freezes. Never reads files or resolves paths.
 */
import { hasJwtSource } from '../shared/jwt-source.js';
import { isHttpsOrLoopbackUrl } from '../shared/secure-url.js';
import type { z } from 'zod';
import { formatKeyPath } from '../shared/problem.js';
import type { Env } from './env.js';
import { configSchema, sectionKeys, type GatewayConfig } from './schema.js';
import { editDistance } from '../shared/text.js';

/** One problem or warning located by key path only; the loader adds file and line. */
export interface KeyIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
  /** `SGWRN###` / `SGDEP###` for warnings. */
  readonly code?: string;
}

/** The outcome of {@link validateConfig}: a frozen config and its warnings, or every error. */
export type Validation =
  | { readonly ok: true; readonly config: GatewayConfig; readonly warnings: readonly KeyIssue[] }
  | { readonly ok: false; readonly errors: readonly KeyIssue[] };

type Path = readonly (string | number)[];

export { hasJwtSource } from '../shared/jwt-source.js';

/** Freezes `value` and everything reachable from it, so no module can change a loaded config. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

/**
 * Validates a parsed, interpolated config tree (`null` reads as an empty file). Collects every
 * schema problem, applies the environment defaults (`JWT_VERIFICATION_KEY`,
 * `JWT_JWKS_FILE`), appends the deprecated `secret_key` to `verification_keys`, runs the
 * cross-field checks, and returns the deep-frozen config with its warnings, or every error.
 */
export function validateConfig(tree: unknown, env: Env): Validation {
  const input = tree ?? {};
  const parsed = configSchema.safeParse(input);
  const errors: KeyIssue[] = parsed.success ? [] : flattenIssues(parsed.error.issues, []);
  const warnings: KeyIssue[] = [];

  // The auth checks need a valid auth section, not a valid file: run them on their own when
  // another section is broken, so one run lists every problem.
  const auth = parsed.success ? parsed.data.auth : parseAuthAlone(input);
  const effective = auth === undefined ? undefined : withEnvDefaults(auth, env);
  if (effective !== undefined) checkAuth(effective, errors, warnings);

  if (!parsed.success || effective === undefined || errors.length > 0) return { ok: false, errors };
  if (parsed.data.upstream.embedded && parsed.data.upstream.api === 'generic') {
    warnings.push({
      path: ['upstream', 'api'],
      code: 'SGWRN014',
      message:
        'generic in front of the bundled agent runtime (upstream.embedded: true): its agent, ' +
        'team and workflow routes get none of the agent_os rules; use api: agent_os for it',
    });
  }
  const config = deepFreeze({ ...parsed.data, auth: effective }) as GatewayConfig;
  return { ok: true, config, warnings };
}

function parseAuthAlone(input: unknown): z.output<typeof configSchema.shape.auth> | undefined {
  const section = (input as { auth?: unknown }).auth;
  return configSchema.shape.auth.safeParse(section).data;
}

type MutableAuth = z.output<typeof configSchema.shape.auth>;

function withEnvDefaults(auth: MutableAuth, env: Env): MutableAuth {
  const envKey = nonEmpty(env['JWT_VERIFICATION_KEY']);
  const keys =
    auth.verification_keys.length === 0 && envKey !== undefined ? [envKey] : auth.verification_keys;
  // secret_key is the deprecated spelling of one more verification key.
  const withSecret =
    auth.secret_key === null || keys.includes(auth.secret_key) ? keys : [...keys, auth.secret_key];
  return {
    ...auth,
    verification_keys: withSecret,
    jwks_file: auth.jwks_file ?? nonEmpty(env['JWT_JWKS_FILE']) ?? null,
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === '' ? undefined : value;
}

function checkAuth(auth: MutableAuth, errors: KeyIssue[], warnings: KeyIssue[]): void {
  const jwt = hasJwtSource(auth);
  const other =
    auth.internal_service_token !== null ||
    auth.security_key !== null ||
    auth.service_accounts.enabled;
  if (!jwt && !other) {
    errors.push({
      path: ['auth'],
      message:
        'no credential source is configured: set verification_keys, jwks_file, jwks_url, ' +
        'dev_keys, internal_service_token or security_key, or enable service_accounts',
    });
  }
  if (auth.authorization === true && !jwt) {
    errors.push({
      path: ['auth', 'authorization'],
      message:
        'authorization: true needs a JWT source (verification_keys, jwks_file, jwks_url, ' +
        'dev_keys, or validate: false)',
    });
  }
  // Development keys are ES256: without ES256 accepted, the printed admin token would be refused.
  const algorithms = typeof auth.algorithm === 'string' ? [auth.algorithm] : auth.algorithm;
  if (auth.dev_keys !== null && !algorithms.includes('ES256')) {
    errors.push({
      path: ['auth', 'algorithm'],
      message: 'auth.dev_keys signs with ES256: add ES256 to auth.algorithm (e.g. [ES256, RS256])',
    });
  }
  // Keys past max_stale are dropped: shorter than the refresh interval, good keys would lapse
  // between two successful fetches and valid tokens would be refused every cycle.
  if (auth.jwks_url !== null && auth.jwks_max_stale_seconds < auth.jwks_refresh_seconds) {
    errors.push({
      path: ['auth', 'jwks_max_stale_seconds'],
      message: `must be at least auth.jwks_refresh_seconds (${auth.jwks_refresh_seconds})`,
    });
  }
  if (auth.jwks_url === 'discover') checkDiscovery(auth.issuer, errors);
  if (auth.security_key !== null && jwt) {
    warnings.push({
      path: ['auth', 'security_key'],
      code: 'SGWRN001',
      message:
        'ignored: a JWT source is configured; the key is answered 401 like any other invalid JWT',
    });
  }
  if (auth.secret_key !== null) {
    warnings.push({
      path: ['auth', 'secret_key'],
      code: 'SGDEP001',
      message: 'deprecated: use verification_keys (the value is added to them)',
    });
  }
}

/**
 * `jwks_url: discover` reads the keys' location from one issuer's OpenID configuration, so it
 * needs exactly one issuer, reached over https (plain http only on loopback: keys fetched in
 * clear text over a network could be swapped on the way).
 */
function checkDiscovery(issuer: MutableAuth['issuer'], errors: KeyIssue[]): void {
  const issuers = issuer === null ? [] : typeof issuer === 'string' ? [issuer] : issuer;
  const [only] = issuers;
  if (issuers.length !== 1 || only === undefined) {
    errors.push({
      path: ['auth', 'jwks_url'],
      message:
        'discover needs auth.issuer set to exactly one issuer URL: the keys are found through ' +
        "that issuer's /.well-known/openid-configuration",
    });
  } else if (!isHttpsOrLoopbackUrl(only)) {
    errors.push({
      path: ['auth', 'issuer'],
      message:
        'with auth.jwks_url: discover, must be an https:// URL (http:// only for a loopback ' +
        `host), got ${JSON.stringify(only)}`,
    });
  }
}

function flattenIssues(issues: readonly z.core.$ZodIssue[], prefix: Path): KeyIssue[] {
  const out: KeyIssue[] = [];
  for (const issue of issues) {
    // YAML keys are strings and list positions numbers: zod paths hold no symbols here.
    const path = [...prefix, ...(issue.path as (string | number)[])];
    if (issue.code === 'unrecognized_keys') {
      const known = sectionKeys(formatKeyPath(path));
      for (const key of issue.keys) {
        out.push({ path: [...path, key], message: unknownKeyMessage(key, known) });
      }
    } else if (issue.code === 'invalid_union') {
      // A union is "one value or a list of them". The branch whose type matched reports
      // issues below the value itself; point at those (`auth.algorithm[1]`). When no branch
      // matched the type, the union's own message says what is accepted.
      const matched = issue.errors.filter((branch) => branch.every((i) => i.path.length > 0));
      const [only] = matched;
      if (matched.length === 1 && only !== undefined) out.push(...flattenIssues(only, path));
      else out.push({ path, message: issue.message });
    } else {
      out.push({ path, message: issue.message });
    }
  }
  return out;
}

/** `unknown key`, with the closest allowed key when it is within edit distance 2. */
export function unknownKeyMessage(key: string, known: readonly string[]): string {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of known) {
    const distance = editDistance(key, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best === undefined ? 'unknown key' : `unknown key (did you mean "${best}"?)`;
}

export { editDistance };
