// Validation beyond single keys: unknown keys with suggestions, the defaults taken from the
// environment (JWT_VERIFICATION_KEY, …), the credential-source checks, warnings, collecting every problem, and freezing.
import t from 'tap';
import { parseConfig, type LoadedConfig } from '../../src/config/load.js';
import {
  deepFreeze,
  editDistance,
  hasJwtSource,
  unknownKeyMessage,
  validateConfig,
} from '../../src/config/validate.js';
import { formatProblem, type ConfigError, type Problem } from '../../src/shared/problem.js';

const FILE = 'gateway.yaml';
type Env = Record<string, string>;

function load(text: string, env: Env = {}): LoadedConfig {
  return parseConfig(text, FILE, { env });
}

/** The problems the text gives; none when it loads. */
function problemsOf(text: string, env: Env = {}): readonly Problem[] {
  try {
    load(text, env);
    return [];
  } catch (err) {
    if ((err as ConfigError).code === 'SG_ERR_CONFIG_INVALID') return (err as ConfigError).problems;
    throw err;
  }
}

const problem = (key: string, line: number | undefined, message: string) => ({
  file: FILE,
  key,
  line,
  message,
});

const NO_SOURCE =
  'no credential source is configured: set verification_keys, jwks_file, jwks_url, ' +
  'dev_keys, internal_service_token or security_key, or enable service_accounts';
const NO_JWT_FOR_RBAC =
  'authorization: true needs a JWT source (verification_keys, jwks_file, jwks_url, ' +
  'dev_keys, or validate: false)';
const SGWRN001 =
  'ignored: a JWT source is configured; the key is answered 401 like any other invalid JWT';
const SGDEP001 = 'deprecated: use verification_keys (the value is added to them)';
const SGWRN014 =
  'generic in front of the bundled agent runtime (upstream.embedded: true): its agent, ' +
  'team and workflow routes get none of the agent_os rules; use api: agent_os for it';

const NO_ACCOUNTS = '  service_accounts: {enabled: false}\n';

t.test('unknown keys at every level, one problem each, with a suggestion when close', async (t) => {
  const rows: readonly (readonly [string, string, string, number, string])[] = [
    ['top level', 'servce_id: x\n', 'servce_id', 1, 'unknown key (did you mean "service_id"?)'],
    ['top level, nothing close', 'colour: blue\n', 'colour', 1, 'unknown key'],
    ['top level, not an identifier', '"my key": 1\n', '"my key"', 1, 'unknown key'],
    ['listen', 'listen:\n  prot: 1\n', 'listen.prot', 2, 'unknown key (did you mean "port"?)'],
    ['admin', 'admin: {hots: x}\n', 'admin.hots', 1, 'unknown key (did you mean "host"?)'],
    [
      'upstream',
      'upstream:\n  timout_ms: 5\n',
      'upstream.timout_ms',
      2,
      'unknown key (did you mean "timeout_ms"?)',
    ],
    [
      'upstream, distance 3 is not suggested',
      'upstream:\n  timeout: 5\n',
      'upstream.timeout',
      2,
      'unknown key',
    ],
    ['a2a', 'a2a:\n  prefx: /a\n', 'a2a.prefx', 2, 'unknown key (did you mean "prefix"?)'],
    [
      'cors',
      'cors:\n  allowed_origin: []\n',
      'cors.allowed_origin',
      2,
      'unknown key (did you mean "allowed_origins"?)',
    ],
    [
      'auth',
      'auth:\n  algoritm: RS256\n',
      'auth.algoritm',
      2,
      'unknown key (did you mean "algorithm"?)',
    ],
    [
      'auth, case differs',
      'auth:\n  Validate: false\n',
      'auth.Validate',
      2,
      'unknown key (did you mean "validate"?)',
    ],
    [
      'auth.service_accounts',
      'auth:\n  service_accounts:\n    enable: false\n',
      'auth.service_accounts.enable',
      3,
      'unknown key (did you mean "enabled"?)',
    ],
    [
      'a key that is not an identifier',
      'auth:\n  "scope mappings": {}\n',
      'auth."scope mappings"',
      2,
      'unknown key (did you mean "scope_mappings"?)',
    ],
  ];
  for (const [name, text, key, line, message] of rows) {
    t.strictSame(problemsOf(text), [problem(key, line, message)], name);
  }
});

t.test('several unknown keys in one section are listed one by one', async (t) => {
  t.strictSame(problemsOf('listen:\n  hots: x\n  prot: 1\n  port: 2\n'), [
    problem('listen.hots', 2, 'unknown key (did you mean "host"?)'),
    problem('listen.prot', 3, 'unknown key (did you mean "port"?)'),
  ]);
});

t.test('every problem is collected, in file order, not only the first', async (t) => {
  const text = [
    'listen:',
    '  port: 99999', // 2
    'colour: blue', // 3
    'auth:', // 4
    '  service_accounts: {enabled: false}', // 5
    '  authorization: true', // 6
    'a2a: {prefix: a2a}', // 7
    'upstream: {url: x, timeout_ms: 0}', // 8
  ].join('\n');
  t.strictSame(problemsOf(text), [
    problem('listen.port', 2, 'must be an integer from 0 to 65535'),
    problem('colour', 3, 'unknown key'),
    problem('auth', 4, NO_SOURCE),
    problem('auth.authorization', 6, NO_JWT_FOR_RBAC),
    problem(
      'a2a.prefix',
      7,
      'must be a path of one or more /segments (like /a2a): no trailing slash, no whitespace, ' +
        'no ?#%*{};\\ characters, no . or .. segments',
    ),
    problem('upstream.url', 8, 'must be an http:// or https:// URL'),
    problem('upstream.timeout_ms', 8, 'must be an integer from 1 to 86400000'),
  ]);
});

t.test('the credential checks wait for a valid auth section', async (t) => {
  t.strictSame(problemsOf('auth:\n  service_accounts: {enabled: false}\n  leeway_seconds: -1\n'), [
    problem('auth.leeway_seconds', 3, 'must be an integer from 0 to 3600'),
  ]);
});

t.test('credential sources', async (t) => {
  // [row name, auth lines (service accounts off unless said), env, problems]
  const rows: readonly (readonly [string, string, Env, readonly ReturnType<typeof problem>[]])[] = [
    ['nothing at all', '', {}, [problem('auth', 1, NO_SOURCE)]],
    [
      'allow_anonymous is not a credential',
      '  allow_anonymous: true\n',
      {},
      [problem('auth', 1, NO_SOURCE)],
    ],
    [
      'an empty JWT_VERIFICATION_KEY is not a key',
      '',
      { JWT_VERIFICATION_KEY: '' },
      [problem('auth', 1, NO_SOURCE)],
    ],
    [
      'an empty JWT_JWKS_FILE is not a file',
      '',
      { JWT_JWKS_FILE: '' },
      [problem('auth', 1, NO_SOURCE)],
    ],
    [
      'internal_service_token "" is none',
      '  internal_service_token: ""\n',
      {},
      [problem('auth', 1, NO_SOURCE)],
    ],
    ['verification_keys', '  verification_keys: [k]\n', {}, []],
    ['jwks_file', '  jwks_file: keys/jwks.json\n', {}, []],
    ['jwks_url', '  jwks_url: https://idp.example/jwks\n', {}, []],
    ['dev_keys', '  dev_keys: data/dev-keys.json\n  algorithm: ES256\n', {}, []],
    ['validate: false', '  validate: false\n', {}, []],
    ['internal_service_token', '  internal_service_token: t0ken\n', {}, []],
    ['security_key', '  security_key: k3y\n', {}, []],
    ['JWT_VERIFICATION_KEY', '', { JWT_VERIFICATION_KEY: 'pem' }, []],
    ['JWT_JWKS_FILE', '', { JWT_JWKS_FILE: 'jwks.json' }, []],
  ];
  for (const [name, lines, env, expected] of rows) {
    t.strictSame(problemsOf(`auth:\n${NO_ACCOUNTS}${lines}`, env), expected, name);
  }
  t.equal(load('auth:\n').config.auth.service_accounts.enabled, true, 'service accounts alone');
});

t.test('authorization: true needs a JWT source', async (t) => {
  const rbac = '  authorization: true\n';
  const rows: readonly (readonly [string, string, Env, readonly ReturnType<typeof problem>[]])[] = [
    ['service accounts only', rbac, {}, [problem('auth.authorization', 2, NO_JWT_FOR_RBAC)]],
    [
      'internal token only',
      `${rbac}  internal_service_token: t\n`,
      {},
      [problem('auth.authorization', 2, NO_JWT_FOR_RBAC)],
    ],
    [
      'security key only',
      `${rbac}  security_key: k\n`,
      {},
      [problem('auth.authorization', 2, NO_JWT_FOR_RBAC)],
    ],
    [
      '"true" from the environment',
      '  authorization: ${RBAC}\n',
      { RBAC: 'true' },
      [problem('auth.authorization', 2, NO_JWT_FOR_RBAC)],
    ],
    ['verification_keys', `${rbac}  verification_keys: [k]\n`, {}, []],
    ['jwks_file', `${rbac}  jwks_file: j.json\n`, {}, []],
    ['jwks_url', `${rbac}  jwks_url: http://idp/jwks\n`, {}, []],
    ['secret_key', `${rbac}  secret_key: s\n`, {}, []],
    ['dev_keys', `${rbac}  dev_keys: d.json\n  algorithm: ES256\n`, {}, []],
    ['validate: false', `${rbac}  validate: false\n`, {}, []],
    ['JWT_VERIFICATION_KEY', rbac, { JWT_VERIFICATION_KEY: 'pem' }, []],
    ['JWT_JWKS_FILE', rbac, { JWT_JWKS_FILE: 'j.json' }, []],
  ];
  for (const [name, lines, env, expected] of rows) {
    const text = `auth:\n${lines}`;
    if (expected.length > 0) t.strictSame(problemsOf(text, env), expected, name);
    else t.equal(load(text, env).config.auth.authorization, true, name);
  }
});

t.test(
  'jwks_max_stale_seconds is at least jwks_refresh_seconds when jwks_url is set',
  async (t) => {
    const url = '  jwks_url: https://idp.example/jwks\n';
    t.strictSame(
      problemsOf(`auth:\n${url}  jwks_refresh_seconds: 600\n  jwks_max_stale_seconds: 599\n`),
      [
        problem(
          'auth.jwks_max_stale_seconds',
          4,
          'must be at least auth.jwks_refresh_seconds (600)',
        ),
      ],
      'shorter: good keys would lapse between two refreshes',
    );
    const equal = load(`auth:\n${url}  jwks_refresh_seconds: 600\n  jwks_max_stale_seconds: 600\n`);
    t.equal(equal.config.auth.jwks_max_stale_seconds, 600, 'equal is fine');
    const noUrl = load('auth:\n  jwks_refresh_seconds: 600\n  jwks_max_stale_seconds: 1\n');
    t.equal(noUrl.config.auth.jwks_url, null, 'without jwks_url the timings are not checked');
  },
);

t.test('jwks_url: discover needs exactly one issuer, over https or on loopback', async (t) => {
  const NEEDS_ISSUER =
    'discover needs auth.issuer set to exactly one issuer URL: the keys are found through ' +
    "that issuer's /.well-known/openid-configuration";
  const notSecure = (issuer: string): string =>
    'with auth.jwks_url: discover, must be an https:// URL (http:// only for a loopback host), ' +
    `got ${JSON.stringify(issuer)}`;
  const rows: readonly (readonly [string, string, readonly ReturnType<typeof problem>[]])[] = [
    ['no issuer', '', [problem('auth.jwks_url', 2, NEEDS_ISSUER)]],
    [
      'a list of two issuers',
      '  issuer: [https://a.example/, https://b.example/]\n',
      [problem('auth.jwks_url', 2, NEEDS_ISSUER)],
    ],
    [
      'a clear-text issuer off this machine',
      '  issuer: http://idp.example/realms/r\n',
      [problem('auth.issuer', 3, notSecure('http://idp.example/realms/r'))],
    ],
    [
      'an issuer that is not a URL',
      '  issuer: my-idp\n',
      [problem('auth.issuer', 3, notSecure('my-idp'))],
    ],
    ['an https issuer (Auth0)', '  issuer: https://tenant.auth0.com/\n', []],
    ['a one-element list', '  issuer: [https://org.okta.com/oauth2/default]\n', []],
    ['http on 127.0.0.1', '  issuer: http://127.0.0.1:8080/realms/r\n', []],
    ['http on localhost', '  issuer: http://localhost:8080\n', []],
    ['http on [::1]', '  issuer: "http://[::1]:8080"\n', []],
  ];
  for (const [name, lines, expected] of rows) {
    t.strictSame(problemsOf(`auth:\n  jwks_url: discover\n${lines}`), expected, name);
  }
  t.strictSame(
    problemsOf('auth:\n  jwks_url: https://idp.example/jwks\n'),
    [],
    'a plain jwks_url needs no issuer',
  );
});

t.test('defaults taken from the environment when the config leaves them out', async (t) => {
  const PEM = '-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----';
  // [row name, auth lines, env, verification_keys, jwks_file]
  const rows: readonly (readonly [string, string, Env, readonly string[], string | null])[] = [
    [
      'JWT_VERIFICATION_KEY when the list is absent',
      '',
      { JWT_VERIFICATION_KEY: PEM },
      [PEM],
      null,
    ],
    [
      'JWT_VERIFICATION_KEY when the list is null',
      '  verification_keys:\n',
      { JWT_VERIFICATION_KEY: PEM },
      [PEM],
      null,
    ],
    [
      'JWT_VERIFICATION_KEY when the list is empty',
      '  verification_keys: []\n',
      { JWT_VERIFICATION_KEY: PEM },
      [PEM],
      null,
    ],
    [
      'a written list wins',
      '  verification_keys: [k1]\n',
      { JWT_VERIFICATION_KEY: PEM },
      ['k1'],
      null,
    ],
    ['an empty JWT_VERIFICATION_KEY is unset', '', { JWT_VERIFICATION_KEY: '' }, [], null],
    [
      'secret_key is appended',
      '  verification_keys: [k1]\n  secret_key: s1\n',
      {},
      ['k1', 's1'],
      null,
    ],
    [
      'secret_key after the env default',
      '  secret_key: s1\n',
      { JWT_VERIFICATION_KEY: PEM },
      [PEM, 's1'],
      null,
    ],
    [
      'secret_key already listed is not repeated',
      '  verification_keys: [s1]\n  secret_key: s1\n',
      {},
      ['s1'],
      null,
    ],
    ['JWT_JWKS_FILE when jwks_file is absent', '', { JWT_JWKS_FILE: 'env.json' }, [], 'env.json'],
    [
      'JWT_JWKS_FILE when jwks_file is ""',
      '  jwks_file: ""\n',
      { JWT_JWKS_FILE: 'env.json' },
      [],
      'env.json',
    ],
    [
      'a written jwks_file wins',
      '  jwks_file: file.json\n',
      { JWT_JWKS_FILE: 'env.json' },
      [],
      'file.json',
    ],
    ['an empty JWT_JWKS_FILE is unset', '', { JWT_JWKS_FILE: '' }, [], null],
  ];
  for (const [name, lines, env, keys, jwksFile] of rows) {
    const { auth } = load(`auth:\n${lines}`, env).config;
    t.strictSame([auth.verification_keys, auth.jwks_file], [keys, jwksFile], name);
  }
});

t.test('warnings have a code and a line, and leave the config valid', async (t) => {
  const warning = (key: string, line: number, code: string, message: string) => ({
    file: FILE,
    key,
    line,
    message,
    code,
  });
  const rows: readonly (readonly [string, string, readonly ReturnType<typeof warning>[]])[] = [
    [
      'security_key beside a JWT source',
      'auth:\n  verification_keys: [k]\n  security_key: s\n',
      [warning('auth.security_key', 3, 'SGWRN001', SGWRN001)],
    ],
    [
      'security_key beside validate: false',
      'auth:\n  security_key: s\n  validate: false\n',
      [warning('auth.security_key', 2, 'SGWRN001', SGWRN001)],
    ],
    ['security_key alone is used', 'auth:\n  security_key: s\n', []],
    [
      'secret_key is deprecated',
      'auth:\n  secret_key: s\n',
      [warning('auth.secret_key', 2, 'SGDEP001', SGDEP001)],
    ],
    [
      'secret_key is a JWT source for SGWRN001 too, in file order',
      'auth:\n  security_key: k\n  secret_key: s\n',
      [
        warning('auth.security_key', 2, 'SGWRN001', SGWRN001),
        warning('auth.secret_key', 3, 'SGDEP001', SGDEP001),
      ],
    ],
    [
      'generic in front of the bundled agent runtime',
      'upstream:\n  embedded: true\n  api: generic\n',
      [warning('upstream.api', 3, 'SGWRN014', SGWRN014)],
    ],
    ['generic in front of another service', 'upstream:\n  api: generic\n', []],
    ['no warnings by default', '', []],
  ];
  for (const [name, text, expected] of rows) t.strictSame(load(text).warnings, expected, name);
});

t.test('a warning prints with its code, as `scopegate check` shows it', async (t) => {
  const [warning] = load('auth:\n  secret_key: s\n').warnings;
  t.equal(
    formatProblem(warning as Problem),
    'gateway.yaml:2 auth.secret_key: deprecated: use verification_keys (the value is added to them) [SGDEP001]',
  );
});

t.test('a warning never carries the secret it is about', async (t) => {
  const { warnings } = load('auth:\n  secret_key: ${SK}\n  security_key: ${SEC}\n', {
    SK: 'hs-secret-value',
    SEC: 'static-key-value',
  });
  t.equal(warnings.length, 2);
  for (const w of warnings) t.notMatch(w.message, /hs-secret-value|static-key-value/);
});

t.test('the config is deep-frozen: any change throws', async (t) => {
  const loaded = load(
    'auth:\n  verification_keys: [k]\n  scope_mappings: {"GET /x": [a]}\n  security_key: s\n' +
      'runtime:\n  agents: [{id: a}]\n',
  );
  const { config } = loaded;
  const mutations: readonly (readonly [string, () => unknown])[] = [
    ['a top-level key', () => Object.assign(config, { service_id: 'x' })],
    ['a section key', () => Object.assign(config.listen, { port: 1 })],
    ['a list', () => (config.auth.verification_keys as string[]).push('k2')],
    [
      'a mapping in auth',
      () => Object.assign(config.auth.scope_mappings as object, { 'GET /y': [] }),
    ],
    [
      'a list inside a mapping',
      () => (config.auth.scope_mappings?.['GET /x'] as string[]).push('b'),
    ],
    [
      'deep inside runtime',
      () => Object.assign((config.runtime['agents'] as object[])[0] as object, { id: 'b' }),
    ],
    ['a warning', () => Object.assign(loaded.warnings[0] as object, { message: 'x' })],
    ['the loaded config itself', () => Object.assign(loaded, { dir: '/' })],
  ];
  for (const [name, mutate] of mutations) t.throws(mutate, TypeError, name);
  t.ok(Object.isFrozen(config.auth.service_accounts));
});

t.test('validateConfig works on a plain tree without file or lines', async (t) => {
  const empty = validateConfig(null, {});
  t.equal(empty.ok && empty.config.service_id, 'scopegate', 'null reads as an empty file');
  t.strictSame(validateConfig({ listen: { port: 'x' }, auth: { a: 1 } }, {}), {
    ok: false,
    errors: [
      { path: ['listen', 'port'], message: 'must be an integer from 0 to 65535' },
      { path: ['auth', 'a'], message: 'unknown key' },
    ],
  });
});

t.test('hasJwtSource', async (t) => {
  t.equal(hasJwtSource(load('').config.auth), false);
  t.equal(hasJwtSource(load('auth: {dev_keys: k.json, algorithm: ES256}').config.auth), true);
  t.equal(hasJwtSource(load('auth: {validate: "false"}').config.auth), true);
});

t.test('editDistance and unknownKeyMessage', async (t) => {
  const rows: readonly (readonly [string, string, number])[] = [
    ['', '', 0],
    ['', 'abc', 3],
    ['abc', '', 3],
    ['port', 'prot', 2],
    ['host', 'hots', 2],
    ['kitten', 'sitting', 3],
    ['same', 'same', 0],
  ];
  for (const [a, b, d] of rows) t.equal(editDistance(a, b), d, `${a} / ${b}`);
  t.equal(unknownKeyMessage('x', []), 'unknown key');
  t.equal(
    unknownKeyMessage('pot', ['port', 'pat']),
    'unknown key (did you mean "port"?)',
    'first of equals',
  );
  t.equal(
    unknownKeyMessage('hst', ['port', 'host']),
    'unknown key (did you mean "host"?)',
    'closest',
  );
});

t.test('deepFreeze returns what it is given', async (t) => {
  t.equal(deepFreeze(5), 5);
  t.equal(deepFreeze(null), null);
  const tree = { a: [{ b: 1 }] };
  t.equal(deepFreeze(tree), tree);
  t.ok(Object.isFrozen(tree.a[0]));
});
