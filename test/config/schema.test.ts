// Every key of gateway.yaml: its default, the values it accepts, and the problem (key, line,
// message) each wrong value gives.
import t from 'tap';
import { z } from 'zod';
import { parseConfig } from '../../src/config/load.js';
import {
  JWT_ALGORITHMS,
  algorithmsOf,
  authorizationEnabled,
  configSchema,
  sectionKeys,
  type GatewayConfig,
} from '../../src/config/schema.js';
import type { ConfigError, Problem } from '../../src/shared/problem.js';

const FILE = 'gateway.yaml';

function load(text: string, env: Record<string, string> = {}): GatewayConfig {
  return parseConfig(text, FILE, { env }).config;
}

function problemsOf(text: string, env: Record<string, string> = {}): readonly Problem[] {
  try {
    parseConfig(text, FILE, { env });
  } catch (err) {
    if ((err as ConfigError).code === 'SG_ERR_CONFIG_INVALID') return (err as ConfigError).problems;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

function at(value: unknown, path: readonly (string | number)[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], value);
}

const DEFAULTS = {
  service_id: 'scopegate',
  listen: {
    host: '0.0.0.0',
    port: 8080,
    shutdown_grace_ms: 10000,
    trusted_proxies: [],
    body_idle_timeout_ms: 10000,
    body_timeout_ms: 60000,
    tls: { cert: null, key: null, client_ca: null, client_auth: 'none' },
  },
  admin: { host: '127.0.0.1', port: 9090 },
  log: { level: 'info', access: true },
  upstream: {
    url: 'http://127.0.0.1:8081',
    embedded: false,
    api: 'agent_os',
    timeout_ms: 300000,
    max_connections: 256,
    queue_timeout_ms: 5000,
    max_in_flight_per_principal: 64,
    forward_authorization: true,
    identity_secret: null,
    identity_token: {
      enabled: false,
      header: 'x-auth-identity-token',
      ttl_seconds: 60,
      audience: null,
      issuer: null,
      key_file: null,
      rotate_hours: 24,
      jwks_file: null,
    },
  },
  policies: null,
  a2a: { prefix: '/a2a', max_dispatch_body_bytes: 1048576, catalogue_ttl_seconds: 30 },
  cors: { allowed_origins: [] },
  auth: {
    verification_keys: [],
    jwks_file: null,
    jwks_url: null,
    jwks_refresh_seconds: 300,
    jwks_cooldown_seconds: 30,
    jwks_max_stale_seconds: 3600,
    issuer: null,
    secret_key: null,
    algorithm: 'RS256',
    validate: true,
    authorization: null,
    token_source: 'HEADER',
    token_header_key: 'Authorization',
    cookie_name: 'access_token',
    scopes_claim: 'scopes',
    scopes_claim_delimiter: null,
    user_id_claim: 'sub',
    session_id_claim: 'session_id',
    audience_claim: 'aud',
    audience: null,
    verify_audience: false,
    leeway_seconds: 10,
    dependencies_claims: [],
    session_state_claims: [],
    excluded_route_paths: null,
    admin_scope: 'agent_os:admin',
    user_isolation: false,
    unmapped_routes: null,
    allow_anonymous: false,
    security_key: null,
    internal_service_token: null,
    dev_keys: null,
    service_accounts: { enabled: true, store: 'sqlite:data/gateway.db', cache_ttl_seconds: 30 },
    token_cache: {
      max_entries: 10_000,
      max_bytes: 16_777_216,
      rejected_max_entries: 10_000,
      rejected_ttl_seconds: 60,
    },
  },
  cluster: { replica_id: null, max_staleness_ms: 1000, feed_poll_ms: 500, pool_max: 5 },
  telemetry: { tracing: false, otlp_endpoint: null, service_name: null, sample_ratio: 1 },
  runtime: {},
};

t.test('an empty file takes every default', async (t) => {
  const config = load('');
  t.same(config, DEFAULTS);
  t.equal(config.auth.scope_mappings, undefined, 'scope_mappings stays absent');
});

t.test('a section written as null (or with nothing) takes its defaults', async (t) => {
  const text = [
    'listen:',
    'admin: null',
    'log:',
    'upstream: ~',
    'a2a:',
    'cors:',
    'auth:',
    'runtime:',
  ].join('\n');
  t.same(load(text), DEFAULTS);
  t.same(
    load('auth:\n  service_accounts:\n').auth.service_accounts,
    DEFAULTS.auth.service_accounts,
  );
});

t.test('a section keeps the defaults of the keys it does not name', async (t) => {
  const config = load('listen: { port: 9000 }\nauth: { leeway_seconds: 0 }\n');
  t.same(config.listen, {
    host: '0.0.0.0',
    port: 9000,
    shutdown_grace_ms: 10000,
    trusted_proxies: [],
    body_idle_timeout_ms: 10000,
    body_timeout_ms: 60000,
    tls: { cert: null, key: null, client_ca: null, client_auth: 'none' },
  });
  t.same(config.auth, { ...DEFAULTS.auth, leeway_seconds: 0 });
});

const ORIGIN_MESSAGE =
  'must be an origin scheme://host[:port] (http or https, no path), or "null" in quotes';
const PREFIX_MESSAGE =
  'must be a path of one or more /segments (like /a2a): no trailing slash, no whitespace, ' +
  'no ?#%*{};\\ characters, no . or .. segments';
const ALG_MESSAGE = `must be one of ${JWT_ALGORITHMS.join(', ')}`;
const ALG_LIST_MESSAGE = `${ALG_MESSAGE}, or a non-empty list of them`;
const ONE_OR_MANY = 'must be a non-empty string, a non-empty list of them, or null';
const NON_EMPTY = 'must be a non-empty string';
const BOOL = 'must be true or false';
const int = (min: number, max: number) => `must be an integer from ${min} to ${max}`;
const CIDR = 'must be an IP address or a CIDR range (like 10.0.0.0/8, 192.168.1.7 or fd00::/8)';

// [row name, YAML, key, line, message]. Each row is one wrong value and the one problem it gives.
const BAD: readonly (readonly [string, string, string, number | undefined, string])[] = [
  ['the top is a list', '- 1\n', '', undefined, 'the config must be a mapping of keys'],
  ['the top is a scalar', 'hello\n', '', undefined, 'the config must be a mapping of keys'],
  ['service_id empty', 'service_id: ""\n', 'service_id', 1, NON_EMPTY],
  ['service_id a number', 'service_id: 5\n', 'service_id', 1, NON_EMPTY],
  ['a section is a scalar', 'listen: 5\n', 'listen', 1, 'must be a mapping'],
  ['a section is a list', '\nlisten: [1]\n', 'listen', 2, 'must be a mapping'],
  ['listen.host empty', 'listen:\n  host: ""\n', 'listen.host', 2, NON_EMPTY],
  ['listen.port too big', 'listen:\n  port: 65536\n', 'listen.port', 2, int(0, 65535)],
  ['listen.port negative', 'listen: {port: -1}\n', 'listen.port', 1, int(0, 65535)],
  ['listen.port fraction', 'listen: {port: 80.5}\n', 'listen.port', 1, int(0, 65535)],
  ['listen.port "08080"', 'listen: {port: "08080"}\n', 'listen.port', 1, int(0, 65535)],
  ['listen.port text', 'listen: {port: http}\n', 'listen.port', 1, int(0, 65535)],
  [
    'listen.trusted_proxies not a list',
    'listen: {trusted_proxies: 10.0.0.0/8}\n',
    'listen.trusted_proxies',
    1,
    'must be a list',
  ],
  ...(
    [
      ['a name', 'lb.internal'],
      ['prefix too long for IPv4', '10.0.0.0/33'],
      ['prefix too long for IPv6', 'fd00::/129'],
      ['prefix not plain decimal', '10.0.0.0/08'],
      ['empty prefix', '10.0.0.0/'],
      ['two slashes', '10.0.0.0/8/8'],
      ['a port', '10.0.0.1:443'],
      ['brackets', '[::1]'],
      ['a zone', 'fe80::1%eth0/64'],
      ['leading zeros', '010.0.0.1'],
      ['empty', ''],
      ['spaces', ' 10.0.0.1'],
    ] as const
  ).map(
    ([name, entry]) =>
      [
        `listen.trusted_proxies entry: ${name}`,
        `listen:\n  trusted_proxies:\n    - 127.0.0.1\n    - ${JSON.stringify(entry)}\n`,
        'listen.trusted_proxies[1]',
        4,
        `${CIDR}, got ${JSON.stringify(entry)}`,
      ] as const,
  ),
  [
    'listen.trusted_proxies entry not a string',
    'listen: {trusted_proxies: [8]}\n',
    'listen.trusted_proxies[0]',
    1,
    CIDR,
  ],
  ['admin.port boolean', 'admin:\n  port: true\n', 'admin.port', 2, int(0, 65535)],
  ['admin.host number', 'admin:\n  host: 1\n', 'admin.host', 2, NON_EMPTY],
  [
    'log.level unknown',
    'log:\n  level: verbose\n',
    'log.level',
    2,
    'must be one of fatal, error, warn, info, debug, trace, silent',
  ],
  ['log.access yes', 'log: { access: yes }\n', 'log.access', 1, BOOL],
  [
    'upstream.url ftp',
    'upstream:\n  url: ftp://x\n',
    'upstream.url',
    2,
    'must be an http:// or https:// URL',
  ],
  [
    'upstream.url not a URL',
    'upstream:\n  url: localhost\n',
    'upstream.url',
    2,
    'must be an http:// or https:// URL',
  ],
  [
    'upstream.url number',
    'upstream:\n  url: 8081\n',
    'upstream.url',
    2,
    'must be an http:// or https:// URL',
  ],
  ['upstream.embedded yes', 'upstream:\n  embedded: yes\n', 'upstream.embedded', 2, BOOL],
  ['upstream.embedded "True"', 'upstream:\n  embedded: "True"\n', 'upstream.embedded', 2, BOOL],
  [
    'upstream.timeout_ms 0',
    'upstream:\n  timeout_ms: 0\n',
    'upstream.timeout_ms',
    2,
    int(1, 86400000),
  ],
  [
    'upstream.timeout_ms over a day',
    'upstream:\n  timeout_ms: 86400001\n',
    'upstream.timeout_ms',
    2,
    int(1, 86400000),
  ],
  [
    'upstream.forward_authorization null',
    'upstream:\n  forward_authorization:\n',
    'upstream.forward_authorization',
    2,
    BOOL,
  ],
  [
    'upstream.identity_secret short',
    'upstream:\n  identity_secret: short\n',
    'upstream.identity_secret',
    2,
    'must be a string of at least 16 characters, or null',
  ],
  [
    'upstream.identity_secret number',
    'upstream:\n  identity_secret: 5\n',
    'upstream.identity_secret',
    2,
    'must be a string of at least 16 characters, or null',
  ],
  ['policies a string', 'policies: policies/a.yaml\n', 'policies', 1, 'must be a list or null'],
  ['policies with an empty name', 'policies:\n  - a.yaml\n  - ""\n', 'policies[1]', 3, NON_EMPTY],
  ...[
    'a2a',
    '/a2a/',
    '/',
    '',
    '/a 2a',
    '/a2a?x',
    '/a2a#x',
    '/a%2Fb',
    '/a2a/*',
    '/{id}',
    '/a;b',
    '/a\\b',
    '/.',
    '/a/..',
    '//a2a',
  ].map(
    (prefix) =>
      [
        `a2a.prefix ${JSON.stringify(prefix)}`,
        `a2a:\n  prefix: ${JSON.stringify(prefix)}\n`,
        'a2a.prefix',
        2,
        PREFIX_MESSAGE,
      ] as const,
  ),
  ['a2a.prefix number', 'a2a: {prefix: 5}\n', 'a2a.prefix', 1, PREFIX_MESSAGE],
  [
    'a2a.max_dispatch_body_bytes 0',
    'a2a: {max_dispatch_body_bytes: 0}\n',
    'a2a.max_dispatch_body_bytes',
    1,
    int(1, 67108864),
  ],
  [
    'a2a.max_dispatch_body_bytes over 64 MiB',
    'a2a: {max_dispatch_body_bytes: 67108865}\n',
    'a2a.max_dispatch_body_bytes',
    1,
    int(1, 67108864),
  ],
  [
    'a2a.catalogue_ttl_seconds over an hour',
    'a2a: {catalogue_ttl_seconds: 3601}\n',
    'a2a.catalogue_ttl_seconds',
    1,
    int(1, 3600),
  ],
  [
    'cors.allowed_origins a string',
    'cors:\n  allowed_origins: https://a.example\n',
    'cors.allowed_origins',
    2,
    'must be a list',
  ],
  ...[
    ['YAML null (unquoted)', 'null'],
    ['a wildcard', '"*"'],
    ['a trailing slash', 'https://a.example/'],
    ['a path', 'https://a.example/app'],
    ['a query', 'https://a.example?x=1'],
    ['user info', 'https://u@a.example'],
    ['ftp', 'ftp://a.example'],
    ['no host', 'https://'],
    ['a port over 65535', 'https://a.example:99999'],
    ['a number', '5'],
  ].map(
    ([name, origin]) =>
      [
        `cors.allowed_origins ${name}`,
        `cors:\n  allowed_origins:\n    - ${origin}\n`,
        'cors.allowed_origins[0]',
        3,
        ORIGIN_MESSAGE,
      ] as const,
  ),
  [
    'auth.verification_keys a string',
    'auth:\n  verification_keys: PEM\n',
    'auth.verification_keys',
    2,
    'must be a list',
  ],
  [
    'auth.verification_keys empty key',
    'auth:\n  verification_keys: [k1, ""]\n',
    'auth.verification_keys[1]',
    2,
    NON_EMPTY,
  ],
  [
    'auth.jwks_file number',
    'auth:\n  jwks_file: 5\n',
    'auth.jwks_file',
    2,
    'must be a string or null',
  ],
  [
    'auth.jwks_url not http',
    'auth:\n  jwks_url: file:///etc/jwks.json\n',
    'auth.jwks_url',
    2,
    'must be an http:// or https:// URL, discover, or null',
  ],
  ['auth.issuer empty list', 'auth:\n  issuer: []\n', 'auth.issuer', 2, ONE_OR_MANY],
  ['auth.issuer number', 'auth:\n  issuer: 5\n', 'auth.issuer', 2, ONE_OR_MANY],
  [
    'auth.issuer list with an empty string',
    'auth:\n  issuer:\n    - a\n    - ""\n',
    'auth.issuer[1]',
    4,
    NON_EMPTY,
  ],
  [
    'auth.secret_key list',
    'auth:\n  secret_key: [a]\n',
    'auth.secret_key',
    2,
    'must be a string or null',
  ],
  ['auth.algorithm none', 'auth:\n  algorithm: none\n', 'auth.algorithm', 2, ALG_LIST_MESSAGE],
  [
    'auth.algorithm lower case',
    'auth:\n  algorithm: rs256\n',
    'auth.algorithm',
    2,
    ALG_LIST_MESSAGE,
  ],
  ['auth.algorithm empty list', 'auth:\n  algorithm: []\n', 'auth.algorithm', 2, ALG_LIST_MESSAGE],
  ['auth.algorithm number', 'auth:\n  algorithm: 256\n', 'auth.algorithm', 2, ALG_LIST_MESSAGE],
  [
    'auth.algorithm none in a list',
    'auth:\n  algorithm:\n    - RS256\n    - none\n',
    'auth.algorithm[1]',
    4,
    ALG_MESSAGE,
  ],
  ['auth.validate 1', 'auth:\n  validate: 1\n', 'auth.validate', 2, BOOL],
  [
    'auth.authorization yes',
    'auth:\n  authorization: yes\n',
    'auth.authorization',
    2,
    'must be true, false or null',
  ],
  [
    'auth.token_source lower case',
    'auth:\n  token_source: header\n',
    'auth.token_source',
    2,
    'must be one of HEADER, COOKIE, BOTH',
  ],
  [
    'auth.token_header_key with a space',
    'auth:\n  token_header_key: X Auth\n',
    'auth.token_header_key',
    2,
    'must be a valid HTTP header name',
  ],
  [
    'auth.token_header_key with a colon',
    'auth:\n  token_header_key: "X:Auth"\n',
    'auth.token_header_key',
    2,
    'must be a valid HTTP header name',
  ],
  [
    'auth.token_header_key empty',
    'auth:\n  token_header_key: ""\n',
    'auth.token_header_key',
    2,
    'must be a valid HTTP header name',
  ],
  [
    'auth.cookie_name with ;',
    'auth:\n  cookie_name: a;b\n',
    'auth.cookie_name',
    2,
    'must be a valid cookie name',
  ],
  ['auth.scopes_claim empty', 'auth:\n  scopes_claim: ""\n', 'auth.scopes_claim', 2, NON_EMPTY],
  [
    'auth.scopes_claim_delimiter number',
    'auth:\n  scopes_claim_delimiter: 1\n',
    'auth.scopes_claim_delimiter',
    2,
    NON_EMPTY,
  ],
  ['auth.user_id_claim number', 'auth:\n  user_id_claim: 1\n', 'auth.user_id_claim', 2, NON_EMPTY],
  [
    'auth.session_id_claim empty',
    'auth:\n  session_id_claim: ""\n',
    'auth.session_id_claim',
    2,
    NON_EMPTY,
  ],
  [
    'auth.audience_claim empty',
    'auth:\n  audience_claim: ""\n',
    'auth.audience_claim',
    2,
    NON_EMPTY,
  ],
  ['auth.audience empty list', 'auth:\n  audience: []\n', 'auth.audience', 2, ONE_OR_MANY],
  ['auth.audience mapping', 'auth:\n  audience: {a: 1}\n', 'auth.audience', 2, ONE_OR_MANY],
  [
    'auth.verify_audience string',
    'auth:\n  verify_audience: on\n',
    'auth.verify_audience',
    2,
    BOOL,
  ],
  [
    'auth.leeway_seconds negative',
    'auth:\n  leeway_seconds: -1\n',
    'auth.leeway_seconds',
    2,
    int(0, 3600),
  ],
  [
    'auth.leeway_seconds over an hour',
    'auth:\n  leeway_seconds: 3601\n',
    'auth.leeway_seconds',
    2,
    int(0, 3600),
  ],
  [
    'auth.dependencies_claims number item',
    'auth:\n  dependencies_claims: [1]\n',
    'auth.dependencies_claims[0]',
    2,
    NON_EMPTY,
  ],
  [
    'auth.session_state_claims a string',
    'auth:\n  session_state_claims: state\n',
    'auth.session_state_claims',
    2,
    'must be a list',
  ],
  [
    'auth.scope_mappings a list',
    'auth:\n  scope_mappings: []\n',
    'auth.scope_mappings',
    2,
    'must be a mapping of "METHOD /pattern" to a list of scopes',
  ],
  [
    'auth.scope_mappings value a string',
    'auth:\n  scope_mappings:\n    "GET /x": agents:read\n',
    'auth.scope_mappings."GET /x"',
    3,
    'must be a list of scopes',
  ],
  [
    'auth.scope_mappings value null',
    'auth:\n  scope_mappings:\n    "GET /x":\n',
    'auth.scope_mappings."GET /x"',
    3,
    'must be a list of scopes',
  ],
  [
    'auth.scope_mappings scope a number',
    'auth:\n  scope_mappings:\n    "GET /x":\n      - 1\n',
    'auth.scope_mappings."GET /x"[0]',
    4,
    'must be a scope string',
  ],
  [
    'auth.excluded_route_paths a string',
    'auth:\n  excluded_route_paths: /health\n',
    'auth.excluded_route_paths',
    2,
    'must be a list or null',
  ],
  [
    'auth.excluded_route_paths empty item',
    'auth:\n  excluded_route_paths: [""]\n',
    'auth.excluded_route_paths[0]',
    2,
    NON_EMPTY,
  ],
  [
    'auth.admin_scope with a space',
    'auth:\n  admin_scope: agent os\n',
    'auth.admin_scope',
    2,
    'must be a non-empty string without whitespace',
  ],
  [
    'auth.admin_scope empty',
    'auth:\n  admin_scope: ""\n',
    'auth.admin_scope',
    2,
    'must be a non-empty string without whitespace',
  ],
  ['auth.user_isolation string', 'auth:\n  user_isolation: "no"\n', 'auth.user_isolation', 2, BOOL],
  [
    'auth.unmapped_routes block',
    'auth:\n  unmapped_routes: block\n',
    'auth.unmapped_routes',
    2,
    'must be one of allow, deny, or null',
  ],
  [
    'auth.allow_anonymous null',
    'auth:\n  allow_anonymous: null\n',
    'auth.allow_anonymous',
    2,
    BOOL,
  ],
  [
    'auth.security_key number',
    'auth:\n  security_key: 12345\n',
    'auth.security_key',
    2,
    'must be a string or null',
  ],
  [
    'auth.internal_service_token list',
    'auth:\n  internal_service_token: []\n',
    'auth.internal_service_token',
    2,
    'must be a string or null',
  ],
  [
    'auth.dev_keys boolean',
    'auth:\n  dev_keys: true\n',
    'auth.dev_keys',
    2,
    'must be a string or null',
  ],
  [
    'auth.service_accounts a list',
    'auth:\n  service_accounts: []\n',
    'auth.service_accounts',
    2,
    'must be a mapping',
  ],
  [
    'auth.service_accounts.enabled string',
    'auth:\n  service_accounts: {enabled: "yes"}\n',
    'auth.service_accounts.enabled',
    2,
    BOOL,
  ],
  [
    'auth.service_accounts.store empty path',
    'auth:\n  service_accounts: {store: "sqlite:"}\n',
    'auth.service_accounts.store',
    2,
    'sqlite: needs a path, as in sqlite:data/gateway.db',
  ],
  [
    'auth.service_accounts.store postgres without a database',
    'auth:\n  service_accounts: {store: "postgres://db"}\n',
    'auth.service_accounts.store',
    2,
    'postgres://db: the URL names no database',
  ],
  [
    'auth.service_accounts.store postgres without a host',
    'auth:\n  service_accounts: {store: "postgres:///db"}\n',
    'auth.service_accounts.store',
    2,
    'postgres:///db: the URL names no host',
  ],
  [
    'auth.service_accounts.store with a fragment',
    'auth:\n  service_accounts: {store: "postgresql://h/db#x"}\n',
    'auth.service_accounts.store',
    2,
    'postgresql://h/db#x: a store URL takes no #fragment',
  ],
  [
    'auth.service_accounts.store another scheme',
    'auth:\n  service_accounts: {store: "mysql://h/db"}\n',
    'auth.service_accounts.store',
    2,
    "unknown scheme 'mysql:': must be sqlite:<path>, postgres:// or postgresql://",
  ],
  [
    'auth.service_accounts.store not a URL',
    'auth:\n  service_accounts: {store: "data/gateway.db"}\n',
    'auth.service_accounts.store',
    2,
    'must be sqlite:<path> or a postgres://user:password@host:port/database URL',
  ],
  [
    'cluster.max_staleness_ms too small',
    'cluster: {max_staleness_ms: 10}\n',
    'cluster.max_staleness_ms',
    1,
    int(100, 60000),
  ],
  ['cluster.pool_max 0', 'cluster: {pool_max: 0}\n', 'cluster.pool_max', 1, int(1, 100)],
  [
    'auth.service_accounts.cache_ttl_seconds -1',
    'auth:\n  service_accounts: {cache_ttl_seconds: -1}\n',
    'auth.service_accounts.cache_ttl_seconds',
    2,
    int(0, 3600),
  ],
  [
    'auth.service_accounts.cache_ttl_seconds 3601',
    'auth:\n  service_accounts: {cache_ttl_seconds: 3601}\n',
    'auth.service_accounts.cache_ttl_seconds',
    2,
    int(0, 3600),
  ],
  ['runtime a list', 'runtime: []\n', 'runtime', 1, 'must be a mapping'],
  ['runtime a string', 'runtime: bundled\n', 'runtime', 1, 'must be a mapping'],
];

t.test('each wrong value is one problem naming key, line and what is accepted', async (t) => {
  for (const [name, text, key, line, message] of BAD) {
    t.strictSame(problemsOf(text), [{ file: FILE, key, line, message }], name);
  }
});

// [row name, YAML, key path, value the config holds]
const GOOD: readonly (readonly [string, string, readonly (string | number)[], unknown])[] = [
  [
    'scopes_claim_delimiter " "',
    'auth: {scopes_claim_delimiter: " "}',
    ['auth', 'scopes_claim_delimiter'],
    ' ',
  ],
  [
    'scopes_claim_delimiter "" is null',
    'auth: {scopes_claim_delimiter: ""}',
    ['auth', 'scopes_claim_delimiter'],
    null,
  ],
  ['port as text (from ${PORT:-8080})', 'listen: {port: "8080"}', ['listen', 'port'], 8080],
  ['port 0 picks a free port', 'listen: {port: 0}', ['listen', 'port'], 0],
  ['port "0"', 'admin: {port: "0"}', ['admin', 'port'], 0],
  [
    'trusted proxies: ranges and single addresses of both families',
    'listen: {trusted_proxies: [10.0.0.0/8, 192.168.1.7, "::1", "fd00::/8", 0.0.0.0/0, "::/0"]}',
    ['listen', 'trusted_proxies'],
    ['10.0.0.0/8', '192.168.1.7', '::1', 'fd00::/8', '0.0.0.0/0', '::/0'],
  ],
  [
    'trusted proxies null is []',
    'listen: {trusted_proxies: null}',
    ['listen', 'trusted_proxies'],
    [],
  ],
  [
    'cache_ttl_seconds 0: no service-account cache',
    'auth: {service_accounts: {cache_ttl_seconds: 0}}',
    ['auth', 'service_accounts', 'cache_ttl_seconds'],
    0,
  ],
  ['boolean as text "true"', 'upstream: {embedded: "true"}', ['upstream', 'embedded'], true],
  [
    'boolean as text "false"',
    'upstream: {forward_authorization: "false"}',
    ['upstream', 'forward_authorization'],
    false,
  ],
  [
    'https upstream',
    'upstream: {url: "https://runtime.internal/base"}',
    ['upstream', 'url'],
    'https://runtime.internal/base',
  ],
  [
    'identity_secret "" is null',
    'upstream: {identity_secret: ""}',
    ['upstream', 'identity_secret'],
    null,
  ],
  [
    'identity_secret of 16 characters',
    'upstream: {identity_secret: 0123456789abcdef}',
    ['upstream', 'identity_secret'],
    '0123456789abcdef',
  ],
  ['policies [] means none', 'policies: []', ['policies'], []],
  ['policies listed', 'policies: [a.yaml, b.yaml]', ['policies'], ['a.yaml', 'b.yaml']],
  ['a2a.prefix with two segments', 'a2a: {prefix: /api/a2a}', ['a2a', 'prefix'], '/api/a2a'],
  [
    'a2a.prefix with dots inside a segment',
    'a2a: {prefix: /a2a.v1/...x}',
    ['a2a', 'prefix'],
    '/a2a.v1/...x',
  ],
  [
    'cors "null" quoted',
    'cors: {allowed_origins: ["null"]}',
    ['cors', 'allowed_origins'],
    ['null'],
  ],
  [
    'cors origin with port and capitals',
    'cors: {allowed_origins: ["https://App.Example.com:8443"]}',
    ['cors', 'allowed_origins'],
    ['https://App.Example.com:8443'],
  ],
  [
    'cors IPv6 origin',
    'cors: {allowed_origins: ["http://[::1]:3000", "http://localhost"]}',
    ['cors', 'allowed_origins'],
    ['http://[::1]:3000', 'http://localhost'],
  ],
  ['cors null list is []', 'cors: {allowed_origins: null}', ['cors', 'allowed_origins'], []],
  [
    'verification_keys null is []',
    'auth: {verification_keys: null}',
    ['auth', 'verification_keys'],
    [],
  ],
  [
    'jwks_url https',
    'auth: {jwks_url: "https://idp.example/jwks"}',
    ['auth', 'jwks_url'],
    'https://idp.example/jwks',
  ],
  ['jwks_url "" is null', 'auth: {jwks_url: ""}', ['auth', 'jwks_url'], null],
  [
    'jwks_url discover',
    'auth: {jwks_url: discover, issuer: "https://idp.example/"}',
    ['auth', 'jwks_url'],
    'discover',
  ],
  [
    'issuer string',
    'auth: {issuer: "https://idp.example"}',
    ['auth', 'issuer'],
    'https://idp.example',
  ],
  ['issuer list', 'auth: {issuer: [a, b]}', ['auth', 'issuer'], ['a', 'b']],
  ['issuer "" is null', 'auth: {issuer: ""}', ['auth', 'issuer'], null],
  [
    'algorithm one name keeps its shape',
    'auth: {algorithm: ES256}',
    ['auth', 'algorithm'],
    'ES256',
  ],
  [
    'algorithm list keeps its shape',
    'auth: {algorithm: [EdDSA, Ed25519, PS512]}',
    ['auth', 'algorithm'],
    ['EdDSA', 'Ed25519', 'PS512'],
  ],
  ['authorization "" is null', 'auth: {authorization: ""}', ['auth', 'authorization'], null],
  ['authorization "false"', 'auth: {authorization: "false"}', ['auth', 'authorization'], false],
  ['authorization false', 'auth: {authorization: false}', ['auth', 'authorization'], false],
  ['token_source BOTH', 'auth: {token_source: BOTH}', ['auth', 'token_source'], 'BOTH'],
  [
    'token_header_key X-Access-Token',
    'auth: {token_header_key: X-Access-Token}',
    ['auth', 'token_header_key'],
    'X-Access-Token',
  ],
  ['audience list', 'auth: {audience: [svc-a, svc-b]}', ['auth', 'audience'], ['svc-a', 'svc-b']],
  ['leeway_seconds as text', 'auth: {leeway_seconds: "0"}', ['auth', 'leeway_seconds'], 0],
  [
    'dependencies_claims null is []',
    'auth: {dependencies_claims: null}',
    ['auth', 'dependencies_claims'],
    [],
  ],
  ['scope_mappings {} is kept', 'auth: {scope_mappings: {}}', ['auth', 'scope_mappings'], {}],
  [
    'scope_mappings null stays absent',
    'auth: {scope_mappings: null}',
    ['auth', 'scope_mappings'],
    undefined,
  ],
  [
    'scope_mappings entries are not checked here',
    'auth: {scope_mappings: {"BREW /x": ["not a scope", ""]}}',
    ['auth', 'scope_mappings'],
    { 'BREW /x': ['not a scope', ''] },
  ],
  [
    'excluded_route_paths [] means none',
    'auth: {excluded_route_paths: []}',
    ['auth', 'excluded_route_paths'],
    [],
  ],
  [
    'internal_service_token "" is null',
    'auth: {internal_service_token: ""}',
    ['auth', 'internal_service_token'],
    null,
  ],
  ['unmapped_routes deny', 'auth: {unmapped_routes: deny}', ['auth', 'unmapped_routes'], 'deny'],
  [
    'store sqlite::memory:',
    'auth: {service_accounts: {store: "sqlite::memory:"}}',
    ['auth', 'service_accounts', 'store'],
    'sqlite::memory:',
  ],
  [
    'runtime any mapping',
    'runtime: {agents: [{id: a, model: x}], db: {path: d}}',
    ['runtime'],
    { agents: [{ id: 'a', model: 'x' }], db: { path: 'd' } },
  ],
];

t.test('accepted values, as the config holds them', async (t) => {
  for (const [name, text, path, value] of GOOD) t.strictSame(at(load(text), path), value, name);
});

t.test(
  'every key has a one-line description, and every *_ms/_bytes/_seconds key a unit',
  async (t) => {
    const schema = z.toJSONSchema(configSchema, { io: 'output', unrepresentable: 'any' });
    const walk = (node: Record<string, unknown>, path: string[]): void => {
      for (const [key, child] of Object.entries(
        node['properties'] as Record<string, Record<string, unknown>>,
      )) {
        const name = [...path, key].join('.');
        t.match(child['description'], /^[^\n]+$/, `${name} has a description`);
        if (/_(ms|bytes|seconds)$/.test(key)) t.type(child['unit'], 'string', `${name} has a unit`);
        if (child['properties'] !== undefined) walk(child, [...path, key]);
      }
    };
    walk(schema as Record<string, unknown>, []);
  },
);

t.test('sectionKeys lists the keys of a section, and none for anything else', async (t) => {
  t.same(sectionKeys('auth.service_accounts'), ['enabled', 'store', 'cache_ttl_seconds']);
  t.ok(sectionKeys('').includes('runtime'));
  t.same(sectionKeys('runtime'), []);
  t.same(sectionKeys('auth.scope_mappings'), []);
});

t.test('algorithmsOf reads one algorithm or a list as a list', async (t) => {
  t.strictSame(algorithmsOf(load('')), ['RS256']);
  t.strictSame(algorithmsOf(load('auth: {algorithm: [ES256, RS256]}')), ['ES256', 'RS256']);
});

t.test(
  'authorizationEnabled: authorization when set, else whether scope_mappings is present',
  async (t) => {
    const rows: readonly (readonly [string, string, boolean])[] = [
      ['neither', '', false],
      ['scope_mappings {} present', 'auth: {scope_mappings: {}}', true],
      [
        'authorization false beats scope_mappings',
        'auth: {authorization: false, scope_mappings: {}}',
        false,
      ],
      ['authorization true', 'auth: {authorization: true, verification_keys: [k]}', true],
    ];
    for (const [name, text, enabled] of rows)
      t.equal(authorizationEnabled(load(text)), enabled, name);
  },
);
