/**
 * THE list of gateway.yaml keys: type, default, unit and meaning of each, in one zod schema.
 * Pure: never reads files or the environment, and never resolves paths.
 */
import { A2A_PREFIX_PATTERN, A2A_PREFIX_RULE, DEFAULT_A2A_PREFIX } from '../shared/a2a-prefix.js';
import { CIDR_RULE, parseCidr } from '../shared/cidr.js';
import { JWS_ALGORITHMS } from '../shared/jws-algorithms.js';
import { LOG_LEVELS } from '../shared/log.js';
import { storeSettingProblem } from '../shared/store-location.js';
import { z } from 'zod';

/** JWT algorithms `auth.algorithm` may name (the shared list). */
export const JWT_ALGORITHMS = JWS_ALGORITHMS;

/** One name of {@link JWT_ALGORITHMS}. */
export type JwtAlgorithm = (typeof JWT_ALGORITHMS)[number];

// Interpolation always yields strings, so `port: ${PORT:-8080}` arrives as "8080". Numbers and
// booleans therefore accept their canonical text, and nothing looser ("08080", "yes", "True"),
// so a value is never read differently from how an operator would read it.
const INTEGER_TEXT = /^-?(?:0|[1-9][0-9]*)$/;

function integerFromText(value: unknown): unknown {
  return typeof value === 'string' && INTEGER_TEXT.test(value) ? Number(value) : value;
}

function booleanFromText(value: unknown): unknown {
  if (value === 'true') return true;
  return value === 'false' ? false : value;
}

/** `key: null` (or `key:` with nothing) means "not given": the default applies. */
function nullAsAbsent(value: unknown): unknown {
  return value === null ? undefined : value;
}

/** `${TOKEN:-}` yields "": for a nullable field that means "not set". */
function emptyAsNull(value: unknown): unknown {
  return value === '' ? null : value;
}

// RFC 9110 §5.6.2 `token`: the characters a header name (and an RFC 6265 cookie name) may use.
const HTTP_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

// An HTTP header name, lower-case (node:http lower-cases the names it receives).
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

const ORIGIN =
  /^https?:\/\/(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(?::([0-9]{1,5}))?$/i;

function isOrigin(value: string): boolean {
  if (value === 'null') return true;
  const match = ORIGIN.exec(value);
  return match !== null && Number(match[1] ?? '0') <= 65535;
}

function isHttpUrl(value: string): boolean {
  return URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
}

const NON_EMPTY = 'must be a non-empty string';

function nonEmptyString() {
  return z.string({ error: NON_EMPTY }).min(1, { error: NON_EMPTY });
}

function integer(min: number, max: number, fallback: number, description: string, unit: string) {
  const message = `must be an integer from ${min} to ${max}`;
  const schema = z
    .int({ error: message })
    .min(min, { error: message })
    .max(max, { error: message });
  return z.preprocess(integerFromText, schema).default(fallback).meta({ description, unit });
}

const NUMBER_TEXT = /^(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;

function numberFromText(value: unknown): unknown {
  return typeof value === 'string' && NUMBER_TEXT.test(value) ? Number(value) : value;
}

/** A number from 0 to 1 (an `${ENV}` text too). */
function fraction(fallback: number, description: string) {
  const message = 'must be a number from 0 to 1';
  const schema = z.number({ error: message }).min(0, { error: message }).max(1, { error: message });
  return z.preprocess(numberFromText, schema).default(fallback).meta({ description });
}

function flag(fallback: boolean, description: string) {
  return z
    .preprocess(booleanFromText, z.boolean({ error: 'must be true or false' }))
    .default(fallback)
    .meta({ description });
}

/** A string that passes `check`; wrong type and failed check give the same `message`. */
function checked(check: (value: string) => boolean, message: string) {
  return z.string({ error: message }).refine(check, { error: message });
}

function text(fallback: string, description: string) {
  return nonEmptyString().default(fallback).meta({ description });
}

function matching(pattern: RegExp, message: string, fallback: string, description: string) {
  return z
    .string({ error: message })
    .regex(pattern, { error: message })
    .default(fallback)
    .meta({ description });
}

function oneOf<const T extends readonly [string, ...string[]]>(
  values: T,
  fallback: T[number],
  description: string,
) {
  return z
    .enum(values, { error: `must be one of ${values.join(', ')}` })
    .default(fallback)
    .meta({ description });
}

/** A string that may be left unset: absent, `null` and `""` all mean null. */
function nullableText(
  description: string,
  item: z.ZodType<string> = z.string({ error: 'must be a string or null' }),
) {
  return z.preprocess(emptyAsNull, item.nullable()).default(null).meta({ description });
}

/** A list that may be left out: absent and `null` both mean the empty list. */
function list(description: string, item: z.ZodType<string> = nonEmptyString()) {
  return z
    .preprocess(
      nullAsAbsent,
      z.array(item, { error: 'must be a list' }).default(() => []),
    )
    .meta({ description });
}

/** A list that keeps `null` (absent) distinct from `[]`: another module supplies the default. */
function nullableList(description: string) {
  return z
    .array(nonEmptyString(), { error: 'must be a list or null' })
    .nullable()
    .default(null)
    .meta({ description });
}

/** A non-empty string, or a non-empty list of them, or null (`""` too). */
function oneOrMany(description: string) {
  const message = 'must be a non-empty string, a non-empty list of them, or null';
  const list = z.array(nonEmptyString(), { error: message }).min(1, { error: message });
  return z
    .preprocess(emptyAsNull, z.union([nonEmptyString(), list], { error: message }).nullable())
    .default(null)
    .meta({ description });
}

/** A mapping of keys; absent and `null` mean `{}`, so every key inside takes its default. */
function section<T extends z.core.$ZodLooseShape>(shape: T, description: string) {
  const mapping = z.strictObject(shape, { error: 'must be a mapping' });
  // Every key of a section has a default, so `{}` is valid input; prefault (not default) parses
  // it, so the section's own defaults are filled in.
  return z
    .preprocess(nullAsAbsent, mapping.prefault({} as z.input<typeof mapping>))
    .meta({ description });
}

/** `listen.tls`: every key may be left unset; a cert without a key (or the reverse) is an error. */
const tlsShape = {
  cert: nullableText(
    'PEM certificate chain of the listener (path, relative to the config file); null: plain HTTP.',
  ),
  key: nullableText('PEM private key of `listen.tls.cert` (path, relative to the config file).'),
  client_ca: nullableText(
    'PEM bundle of the CAs whose client certificates are verified (path, relative to the config file).',
  ),
  client_auth: oneOf(
    ['none', 'request', 'require'] as const,
    'none',
    'Client certificates: none, request (asked for, optional) or require (refused at the handshake without a valid one).',
  ),
};

function tlsSection() {
  const mapping = z
    .strictObject(tlsShape, { error: 'must be a mapping' })
    .superRefine((tls, ctx) => {
      if ((tls.cert === null) !== (tls.key === null)) {
        const missing = tls.cert === null ? 'cert' : 'key';
        ctx.addIssue({
          code: 'custom',
          path: [missing],
          message: 'must be set when listen.tls.' + (missing === 'cert' ? 'key' : 'cert') + ' is',
        });
      }
      if (tls.client_auth !== 'none' && tls.client_ca === null) {
        ctx.addIssue({
          code: 'custom',
          path: ['client_ca'],
          message: `must be set when listen.tls.client_auth is ${tls.client_auth}`,
        });
      }
      if (tls.client_auth !== 'none' && tls.cert === null) {
        ctx.addIssue({
          code: 'custom',
          path: ['cert'],
          message: `must be set when listen.tls.client_auth is ${tls.client_auth}`,
        });
      }
    });
  return z
    .preprocess(nullAsAbsent, mapping.prefault({} as z.input<typeof mapping>))
    .meta({ description: 'TLS on the main listener (absent or null: plain HTTP).' });
}

const listenShape = {
  host: text('0.0.0.0', 'Address the gateway listens on.'),
  port: integer(0, 65535, 8080, 'TCP port of the gateway (0 picks a free port).', 'TCP port'),
  shutdown_grace_ms: integer(
    0,
    600_000,
    10_000,
    'On SIGTERM/SIGINT, how long in-flight requests may finish before they are cut off.',
    'milliseconds',
  ),
  trusted_proxies: list(
    'Addresses or CIDR ranges of the load balancers in front of the gateway: only their ' +
      'X-Forwarded-* headers are believed.',
    // The entry is named in the message: a list of ranges is easy to get one wrong in.
    z.string({ error: CIDR_RULE }).refine((entry) => parseCidr(entry) !== null, {
      error: (issue) => `${CIDR_RULE}, got ${JSON.stringify(issue.input)}`,
    }),
  ),
  body_idle_timeout_ms: integer(
    1,
    3_600_000,
    10_000,
    'A request body with no new bytes for this long is answered 408 and its upstream request aborted.',
    'milliseconds',
  ),
  body_timeout_ms: integer(
    1,
    86_400_000,
    60_000,
    'A request body not complete this long after the request arrived is answered 408 and its upstream request aborted.',
    'milliseconds',
  ),
  tls: tlsSection(),
};

const adminShape = {
  host: text('127.0.0.1', 'Address of the admin listener (/metrics, /healthz, /readyz).'),
  port: integer(
    0,
    65535,
    9090,
    'TCP port of the admin listener (0 picks a free port).',
    'TCP port',
  ),
};

const logShape = {
  level: oneOf(
    LOG_LEVELS,
    'info',
    'Lowest level written to stdout (4xx access lines are info, 5xx error).',
  ),
  access: flag(true, 'Write one JSON access-log line per request to stdout.'),
};

const identityTokenShape = {
  enabled: flag(
    false,
    'Send every forwarded request a signed ES256 JWT of the caller (binding its x-auth-context), verifiable with the JWKS the admin listener serves.',
  ),
  header: matching(
    HEADER_NAME,
    'must be an HTTP header name',
    'x-auth-identity-token',
    'Header carrying the identity JWT; the gateway strips it from every inbound request.',
  ),
  ttl_seconds: integer(
    10,
    3600,
    60,
    'Lifetime of one identity JWT (reused for at most half of it); a retired key stays published this long.',
    'seconds',
  ),
  audience: nullableText(
    "The JWT's aud; null means the origin of upstream.url.",
    checked((v) => v.length > 0, NON_EMPTY),
  ),
  issuer: nullableText(
    "The JWT's iss; null means scopegate:<service_id>.",
    checked((v) => v.length > 0, NON_EMPTY),
  ),
  key_file: nullableText(
    'JWK Set of EC P-256 private keys (the last signs, all are published), shared by replicas; null generates a key in memory.',
  ),
  rotate_hours: integer(
    1,
    8760,
    24,
    'How often a key generated in memory is replaced (without key_file).',
    'hours',
  ),
  jwks_file: nullableText(
    'Also write the public JWK Set to this file (relative to the config), at start and whenever the keys change, atomically; null writes none.',
    checked((v) => v.length > 0, NON_EMPTY),
  ),
};

const upstreamShape = {
  url: checked(isHttpUrl, 'must be an http:// or https:// URL')
    .default('http://127.0.0.1:8081')
    .meta({ description: 'Base URL every authorized request is forwarded to.' }),
  embedded: flag(false, 'Start the bundled runtime on a loopback port and proxy to it.'),
  api: oneOf(
    ['agent_os', 'generic'],
    'agent_os',
    'What the upstream serves: agent_os (agents, teams, workflows, A2A: their built-in rules ' +
      'apply) or generic (any HTTP service: only the configured routes and scopes).',
  ),
  timeout_ms: integer(
    1,
    86_400_000,
    300_000,
    'Per-request upstream time-out (long: runs stream).',
    'milliseconds',
  ),
  max_connections: integer(
    1,
    65_536,
    256,
    'Connections of the upstream pool: at most this many forwarded requests at once.',
    'connections',
  ),
  queue_timeout_ms: integer(
    0,
    600_000,
    5000,
    'How long a request waits for a free upstream connection before it is answered 503 (0: never waits).',
    'milliseconds',
  ),
  max_in_flight_per_principal: integer(
    0,
    65_536,
    64,
    'Requests one caller may have in flight to the upstream; past it 429 (0: no cap).',
    'requests',
  ),
  forward_authorization: flag(true, "Pass the caller's Authorization header on to the upstream."),
  identity_secret: nullableText(
    'HMAC-SHA256 key: when set, x-auth-signature accompanies x-auth-context. With embedded and null, serve generates one per process; with embedded, restart-only.',
    checked((key) => key.length >= 16, 'must be a string of at least 16 characters, or null'),
  ),
  identity_token: section(identityTokenShape, 'A signed identity JWT for the upstream.'),
};

const a2aShape = {
  prefix: matching(
    A2A_PREFIX_PATTERN,
    A2A_PREFIX_RULE,
    DEFAULT_A2A_PREFIX,
    'Path prefix of the A2A endpoints.',
  ),
  max_dispatch_body_bytes: integer(
    1,
    67_108_864,
    1_048_576,
    'Largest dynamic-dispatch or A2A JSON-RPC body the gateway reads; larger ones are 413.',
    'bytes',
  ),
  catalogue_ttl_seconds: integer(
    1,
    3600,
    30,
    "How long the upstream's agents/teams/workflows catalogue is cached.",
    'seconds',
  ),
};

const corsShape = {
  allowed_origins: list(
    'Origins allowed for CORS; empty means no CORS at all.',
    checked(
      isOrigin,
      'must be an origin scheme://host[:port] (http or https, no path), or "null" in quotes',
    ),
  ),
};

const serviceAccountsShape = {
  enabled: flag(true, 'Serve /service-accounts and accept svc_pat_ tokens.'),
  store: nonEmptyString()
    .superRefine((value, ctx) => {
      const problem = storeSettingProblem(value);
      if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
    })
    .default('sqlite:data/gateway.db')
    .meta({
      description:
        'Service-account store: sqlite:<path> (relative to the config folder) or a ' +
        'postgres://user:password@host:port/database URL shared by every replica.',
    }),
  cache_ttl_seconds: integer(
    0,
    3600,
    30,
    'How long a verified service-account token is cached (bounds how long another process' +
      "'s revocation takes to be seen when the change feed cannot say); 0 turns the cache off: " +
      'every request asks the store.',
    'seconds',
  ),
};

const telemetryShape = {
  tracing: flag(
    false,
    "Export one trace span per request (and the bundled runtime's runs) over OTLP/HTTP.",
  ),
  otlp_endpoint: nullableText(
    'OTLP/HTTP traces URL; null: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces, else http://localhost:4318/v1/traces.',
    checked(isHttpUrl, 'must be an http:// or https:// URL, or null'),
  ),
  service_name: nullableText(
    'The service.name of the spans; null: OTEL_SERVICE_NAME, else scopegate.',
  ),
  sample_ratio: fraction(
    1,
    "Share of new traces recorded (a caller's sampled traceparent is always followed).",
  ),
};

const clusterShape = {
  replica_id: nullableText(
    "This gateway's name among replicas (logs, Postgres application_name); null: <hostname>-<pid>.",
  ),
  max_staleness_ms: integer(
    100,
    60_000,
    1000,
    'A cached service-account verification is used only while the change feed was confirmed ' +
      "this recently; otherwise the store is asked. Bounds how long another replica's revoke " +
      'takes to be refused here.',
    'ms',
  ),
  feed_poll_ms: integer(
    20,
    30_000,
    500,
    'How often the change log is read: the poll on SQLite, the heartbeat behind LISTEN/NOTIFY on ' +
      'Postgres. Must be below max_staleness_ms.',
    'ms',
  ),
  pool_max: integer(
    1,
    100,
    5,
    'Connections each gateway keeps to a postgres:// store (plus one for LISTEN).',
    'connections',
  ),
};

const tokenCacheShape = {
  max_entries: integer(
    1,
    10_000_000,
    10_000,
    'Most verified JWTs cached; the least recently used goes first. More distinct live tokens ' +
      'cycling in turn than this get no hits at all.',
    'entries',
  ),
  max_bytes: integer(
    65_536,
    4_294_967_296,
    16_777_216,
    'Most memory the verified-JWT cache holds, estimated per entry as 320 bytes plus the ' +
      "token's length; whichever of max_entries and max_bytes is reached first evicts.",
    'bytes',
  ),
  rejected_max_entries: integer(
    0,
    1_000_000,
    10_000,
    'Most refused JWTs remembered, so a repeated bad token costs no signature check; never a ' +
      'not-yet-valid token or an unknown key, and forgotten when the keys change. 0 turns it off.',
    'entries',
  ),
  rejected_ttl_seconds: integer(1, 3600, 60, 'How long a refused JWT is remembered.', 'seconds'),
};

const ALGORITHM_MESSAGE = `must be one of ${JWT_ALGORITHMS.join(', ')}`;
const ALGORITHMS_MESSAGE = `${ALGORITHM_MESSAGE}, or a non-empty list of them`;
const algorithmName = z.enum(JWT_ALGORITHMS, { error: ALGORITHM_MESSAGE });

const authShape = {
  verification_keys: list(
    'PEM public keys, HS shared secrets, or file:<path>; tried in order. ' +
      'Env default JWT_VERIFICATION_KEY when empty.',
  ),
  jwks_file: nullableText('Static JWKS file; key chosen by kid. Env default JWT_JWKS_FILE.'),
  jwks_url: nullableText(
    'Remote JWKS URL, cached and refreshed on an unknown kid (rate-limited); discover: the ' +
      "jwks_uri of auth.issuer's OpenID configuration, fetched and refreshed the same way.",
    checked(
      (value) => value === 'discover' || isHttpUrl(value),
      'must be an http:// or https:// URL, discover, or null',
    ),
  ),
  jwks_refresh_seconds: integer(
    1,
    86_400,
    300,
    'How often the jwks_url key set is fetched again in the background.',
    'seconds',
  ),
  jwks_cooldown_seconds: integer(
    1,
    3600,
    30,
    'Least time between two jwks_url fetches on an unknown kid, and between retries after a failure.',
    'seconds',
  ),
  jwks_max_stale_seconds: integer(
    1,
    604_800,
    3600,
    'How long the last good jwks_url keys are used after the last successful fetch.',
    'seconds',
  ),
  issuer: oneOrMany('Accepted iss value(s); null means not checked.'),
  secret_key: nullableText('Deprecated (SGDEP001): use verification_keys; appended to them.'),
  algorithm: z
    .union([algorithmName, z.array(algorithmName).min(1, { error: ALGORITHMS_MESSAGE })], {
      error: ALGORITHMS_MESSAGE,
    })
    .default('RS256')
    .meta({ description: 'Accepted JWT algorithm, or a list of them.' }),
  validate: flag(true, 'Verify JWT signatures; false decodes claims without checking them.'),
  authorization: z
    .preprocess(
      (value) => booleanFromText(emptyAsNull(value)),
      z.boolean({ error: 'must be true, false or null' }).nullable(),
    )
    .default(null)
    .meta({ description: 'RBAC scope checking; null turns it on when scope_mappings is present.' }),
  token_source: oneOf(['HEADER', 'COOKIE', 'BOTH'], 'HEADER', 'Where the JWT is read from.'),
  token_header_key: matching(
    HTTP_TOKEN,
    'must be a valid HTTP header name',
    'Authorization',
    'Header carrying the token.',
  ),
  cookie_name: matching(
    HTTP_TOKEN,
    'must be a valid cookie name',
    'access_token',
    'Cookie carrying the token.',
  ),
  scopes_claim: text('scopes', 'Claim holding the scopes.'),
  scopes_claim_delimiter: nullableText(
    'Splits a string scopes claim on it (empty parts dropped); null keeps a string as one scope.',
    nonEmptyString(),
  ),
  user_id_claim: text('sub', 'Claim holding the user id.'),
  session_id_claim: text('session_id', 'Claim holding the session id.'),
  audience_claim: text('aud', 'Claim holding the audience.'),
  audience: oneOrMany('Expected audience(s); null means the service_id.'),
  verify_audience: flag(false, 'Check the audience claim against audience.'),
  leeway_seconds: integer(0, 3600, 10, 'Clock skew allowed on exp and nbf.', 'seconds'),
  dependencies_claims: list('Claims copied into the dependencies map.'),
  session_state_claims: list('Claims copied into the session_state map.'),
  scope_mappings: z
    .preprocess(
      nullAsAbsent,
      z
        .record(
          z.string(),
          z.array(z.string({ error: 'must be a scope string' }), {
            error: 'must be a list of scopes',
          }),
          { error: 'must be a mapping of "METHOD /pattern" to a list of scopes' },
        )
        .optional(),
    )
    .meta({
      description: 'Overrides "METHOD /pattern": [scopes]; present (even empty) turns RBAC on.',
    }),
  excluded_route_paths: nullableList(
    'Routes that skip authentication; null means the built-in list.',
  ),
  admin_scope: matching(
    /^\S+$/,
    'must be a non-empty string without whitespace',
    'agent_os:admin',
    'Scope granting full access.',
  ),
  user_isolation: flag(false, 'Confine non-admin callers to their own rows.'),
  unmapped_routes: z
    .enum(['allow', 'deny'], { error: 'must be one of allow, deny, or null' })
    .nullable()
    .default(null)
    .meta({
      description:
        'What a route no mapping covers answers; null: allow with upstream.api agent_os, deny with generic.',
    }),
  allow_anonymous: flag(false, 'Let requests without a credential pass as anonymous.'),
  security_key: nullableText('Static key, honoured only when no JWT source is configured.'),
  internal_service_token: nullableText('Token of the internal scheduler principal.'),
  dev_keys: nullableText('Path of a generated development key pair (never in production).'),
  service_accounts: section(serviceAccountsShape, 'Service accounts served by the gateway.'),
  token_cache: section(tokenCacheShape, 'Bounds of the verified and refused JWT caches.'),
};

const topShape = {
  service_id: text('scopegate', "The service's own id: the effective default audience."),
  listen: section(listenShape, 'Main listener.'),
  admin: section(adminShape, 'Admin listener.'),
  log: section(logShape, 'Logging (JSON lines on stdout).'),
  upstream: section(upstreamShape, 'Where authorized requests go.'),
  policies: nullableList('Policy files in merge order; null means the three shipped files.'),
  a2a: section(a2aShape, 'A2A endpoints.'),
  cors: section(corsShape, 'CORS.'),
  auth: section(authShape, 'Authentication and authorization.'),
  cluster: section(clusterShape, 'Replicas sharing one service-account store.'),
  telemetry: section(telemetryShape, 'OpenTelemetry tracing; off by default.'),
  runtime: z
    .preprocess(
      nullAsAbsent,
      z.record(z.string(), z.unknown(), { error: 'must be a mapping' }).default(() => ({})),
    )
    .meta({ description: "The bundled runtime's own settings, validated by the runtime." }),
};

/** The whole gateway.yaml: every key, its type, default and meaning. Unknown keys are errors. */
export const configSchema = z.strictObject(topShape, {
  error: 'the config must be a mapping of keys',
});

const SECTION_KEYS: Readonly<Record<string, readonly string[]>> = {
  '': Object.keys(topShape),
  listen: Object.keys(listenShape),
  'listen.tls': Object.keys(tlsShape),
  admin: Object.keys(adminShape),
  log: Object.keys(logShape),
  upstream: Object.keys(upstreamShape),
  'upstream.identity_token': Object.keys(identityTokenShape),
  a2a: Object.keys(a2aShape),
  cors: Object.keys(corsShape),
  auth: Object.keys(authShape),
  'auth.service_accounts': Object.keys(serviceAccountsShape),
  'auth.token_cache': Object.keys(tokenCacheShape),
  cluster: Object.keys(clusterShape),
  telemetry: Object.keys(telemetryShape),
};

/**
 * The keys allowed in the mapping at `keyPath` (formatted as in problems, `''` for the top),
 * or none when there is no such section. Used to suggest a fix for an unknown key.
 */
export function sectionKeys(keyPath: string): readonly string[] {
  return SECTION_KEYS[keyPath] ?? [];
}

/** Makes every property and element of `T` readonly, all the way down. */
export type DeepReadonly<T> = T extends readonly (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** A validated gateway.yaml with defaults applied; property names are the YAML keys. */
export type GatewayConfig = DeepReadonly<z.output<typeof configSchema>>;

/** The `auth:` section of a {@link GatewayConfig}. */
export type AuthConfig = GatewayConfig['auth'];

/** The accepted JWT algorithms as a list, whether `auth.algorithm` names one or several. */
export function algorithmsOf(config: GatewayConfig): readonly JwtAlgorithm[] {
  const { algorithm } = config.auth;
  return typeof algorithm === 'string' ? [algorithm] : algorithm;
}

/**
 * What a route no mapping covers answers: `auth.unmapped_routes` when set, else `allow` in front
 * of an agent runtime (its API's behaviour) and `deny` in front of any other HTTP service, where
 * nothing but the configured routes is known.
 */
export function unmappedRoutesOf(config: GatewayConfig): 'allow' | 'deny' {
  return config.auth.unmapped_routes ?? (config.upstream.api === 'generic' ? 'deny' : 'allow');
}

/**
 * Whether RBAC scope checking is on: `authorization` when set, otherwise whether
 * `scope_mappings` is present (present, even empty, turns it on).
 */
export function authorizationEnabled(config: GatewayConfig): boolean {
  return config.auth.authorization ?? config.auth.scope_mappings !== undefined;
}
