// Reading and parsing gateway.yaml: YAML problems with their lines, key lines for every
// problem, interpolation in files, paths, and the committed gateway.yaml.
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import t from 'tap';
import { loadConfig, parseConfig, type ConfigOverrides } from '../../src/config/load.js';
import { sectionKeys } from '../../src/config/schema.js';
import type { ConfigError, Problem } from '../../src/shared/problem.js';

const FILE = 'gateway.yaml';
const REPO_GATEWAY_YAML = fileURLToPath(new URL('../../gateway.yaml', import.meta.url));

function errorOf(run: () => unknown): ConfigError {
  try {
    run();
  } catch (err) {
    if ((err as ConfigError).code === 'SG_ERR_CONFIG_INVALID') return err as ConfigError;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

function problemsOf(text: string, env: Record<string, string> = {}): readonly Problem[] {
  return errorOf(() => parseConfig(text, FILE, { env })).problems;
}

const problem = (key: string, line: number | undefined, message: string) => ({
  file: FILE,
  key,
  line,
  message,
});

t.test('YAML problems name their line (and their key when the problem is a key)', async (t) => {
  const rows: readonly (readonly [string, string, readonly ReturnType<typeof problem>[]])[] = [
    [
      'duplicate top-level key',
      'service_id: a\nservice_id: b\n',
      [problem('service_id', 2, 'duplicate key')],
    ],
    [
      'duplicate nested key',
      'auth:\n  validate: true\n  validate: false\n',
      [problem('auth.validate', 3, 'duplicate key')],
    ],
    [
      'duplicate key in a flow mapping',
      'listen: {port: 1, port: 2}\n',
      [problem('listen.port', 1, 'duplicate key')],
    ],
    [
      'duplicate key once quoted',
      'runtime:\n  1: a\n  "1": b\n',
      [problem('runtime."1"', 3, 'duplicate key')],
    ],
    [
      'duplicate key in a list item',
      'runtime:\n  x:\n    - {a: 1, a: 2}\n',
      [problem('runtime.x[0].a', 3, 'duplicate key')],
    ],
    [
      'three times the same key: two problems',
      'admin: {}\nadmin: {}\nadmin: {}\n',
      [problem('admin', 2, 'duplicate key'), problem('admin', 3, 'duplicate key')],
    ],
    [
      'unclosed flow sequence',
      'listen:\n  port: [1\n',
      [
        problem(
          '',
          3,
          'Flow sequence in block collection must be sufficiently indented and end with a ]',
        ),
      ],
    ],
    ['unclosed quote', 'service_id: "demo\n', [problem('', 2, 'Missing closing "quote')]],
    [
      'bad indentation, every error listed',
      'listen: 1\n  port: 2\n',
      [
        problem('', 1, 'Nested mappings are not allowed in compact mappings'),
        problem('', 1, 'Implicit keys need to be on a single line'),
      ],
    ],
    [
      'two documents',
      'service_id: a\n---\nservice_id: b\n',
      [problem('', 2, 'Source contains multiple documents; please use YAML.parseAllDocuments()')],
    ],
    [
      'an unresolved tag is not silently a string',
      'service_id: !env ID\n',
      [problem('', 1, 'Unresolved tag: !env')],
    ],
    ['a key that is a list', '? [a, b]\n: 1\n', [problem('', 1, 'a key must be a plain string')]],
    [
      'problems are listed in file order',
      'service_id: a\nservice_id: b\nlisten: !env X\n',
      [problem('service_id', 2, 'duplicate key'), problem('', 3, 'Unresolved tag: !env')],
    ],
    [
      'a nested key that is a mapping',
      'auth:\n  ? {x: 1}\n  : 2\n',
      [problem('auth', 2, 'a key must be a plain string')],
    ],
    [
      'an alias as a key',
      'runtime:\n  a: &k name\n  *k : 1\n',
      [problem('runtime', 3, 'a key must be a plain string')],
    ],
    [
      '__proto__ is refused',
      'auth:\n  __proto__: {validate: false}\n',
      [problem('auth.__proto__', 2, 'the key __proto__ is not allowed')],
    ],
    [
      '__proto__ inside runtime too',
      'runtime:\n  x:\n    - __proto__: 1\n',
      [problem('runtime.x[0].__proto__', 3, 'the key __proto__ is not allowed')],
    ],
    [
      'an alias before its anchor',
      'service_id: *id\n',
      [problem('service_id', 1, 'unresolved alias *id (the anchor must come first)')],
    ],
  ];
  for (const [name, text, expected] of rows) t.strictSame(problemsOf(text), expected, name);
});

t.test('alias expansion is bounded ("billion laughs")', async (t) => {
  const text = [
    'runtime:',
    '  a: &a [x, x, x, x, x, x, x, x, x, x]',
    '  b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
    '  c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]',
    '  d: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]',
  ].join('\n');
  t.strictSame(problemsOf(text), [
    {
      file: FILE,
      key: '',
      message: 'Excessive alias count indicates a resource exhaustion attack',
    },
  ]);
});

t.test('aliases load, and a problem under one points at the alias', async (t) => {
  const loaded = parseConfig('listen: &l {port: 1234}\nadmin: *l\n', FILE, { env: {} });
  t.same(loaded.config.admin, { host: '127.0.0.1', port: 1234 });
  t.strictSame(problemsOf('listen: &l {port: 99999}\nadmin: *l\n'), [
    problem('listen.port', 1, 'must be an integer from 0 to 65535'),
    problem('admin.port', 2, 'must be an integer from 0 to 65535'),
  ]);
});

t.test('problems without a line come after those with one', async (t) => {
  t.strictSame(problemsOf('- ${X}\n'), [
    problem('[0]', 1, 'environment variable X is not set (write ${X:-} to allow an empty value)'),
    problem('', undefined, 'the config must be a mapping of keys'),
  ]);
});

t.test('a YAML key spelled null or as a number is read as toJS reads it', async (t) => {
  t.strictSame(problemsOf('listen:\n  null: 1\n  8080: 2\n'), [
    problem('listen.""', 2, 'unknown key'),
    problem('listen."8080"', 3, 'unknown key'),
  ]);
});

t.test('lineOf finds keys, nested keys, list items and flow keys', async (t) => {
  const text = [
    'service_id: demo', // 1
    'listen: {host: 0.0.0.0,', // 2
    '  port: 8080}', // 3
    'auth:', // 4
    '  verification_keys:', // 5
    '    - k1', // 6
    '    - |', // 7
    '      multi', // 8
    '      line', // 9
    '  scope_mappings:', // 10
    '    "GET /x": [a, b]', // 11
    'runtime:', // 12
    '  agents:', // 13
    '    - id: a', // 14
    '      model: m', // 15
  ].join('\n');
  const loaded = parseConfig(text, FILE, { env: {} });
  const rows: readonly (readonly [readonly (string | number)[], number | undefined])[] = [
    [['service_id'], 1],
    [['listen'], 2],
    [['listen', 'host'], 2],
    [['listen', 'port'], 3],
    [['auth', 'verification_keys'], 5],
    [['auth', 'verification_keys', 0], 6],
    [['auth', 'verification_keys', 1], 7],
    [['auth', 'scope_mappings', 'GET /x'], 11],
    [['auth', 'scope_mappings', 'GET /x', 1], 11],
    [['runtime', 'agents', 0], 14],
    [['runtime', 'agents', 0, 'model'], 15],
    [['admin'], undefined],
    [['auth', 'leeway_seconds'], undefined],
    [['auth', 'verification_keys', 2], undefined],
    [['auth', 'verification_keys', '0'], undefined],
    [[], undefined],
  ];
  for (const [path, line] of rows) t.equal(loaded.lineOf(path), line, JSON.stringify(path));
});

t.test('interpolation in a file', async (t) => {
  const UNSET = (name: string) =>
    `environment variable ${name} is not set (write \${${name}:-} to allow an empty value)`;
  t.equal(
    parseConfig('listen:\n  port: ${PORT:-8080}\n', FILE, { env: {} }).config.listen.port,
    8080,
    'default used, "8080" read as a number',
  );
  t.equal(
    parseConfig('listen:\n  port: ${PORT:-8080}\n', FILE, { env: { PORT: '9000' } }).config.listen
      .port,
    9000,
  );
  t.equal(
    parseConfig('upstream: {embedded: "${EMBED:-false}"}\n', FILE, { env: { EMBED: 'true' } })
      .config.upstream.embedded,
    true,
    'boolean from the environment',
  );
  t.strictSame(
    problemsOf('listen:\n  port: ${PORT}\n'),
    [problem('listen.port', 2, UNSET('PORT'))],
    'unset: one problem, not also "must be an integer"',
  );
  t.strictSame(
    problemsOf('listen:\n  port: ${PORT}\n', { PORT: 'eighty' }),
    [problem('listen.port', 2, 'must be an integer from 0 to 65535')],
    'set to a bad value: the schema speaks',
  );
  t.strictSame(
    problemsOf('runtime:\n  db: ${DB_URL}\n'),
    [problem('runtime.db', 2, UNSET('DB_URL'))],
    'an otherwise valid file with an unset variable is refused',
  );
  t.strictSame(
    problemsOf('auth:\n  verification_keys:\n    - ${KEY_A}\n    - ${KEY_B:-}\n'),
    [
      problem('auth.verification_keys[0]', 3, UNSET('KEY_A')),
      problem('auth.verification_keys[1]', 4, 'must be a non-empty string'),
    ],
    'each list item on its own line',
  );
  t.strictSame(
    problemsOf('auth:\n  "${NOT_A_KEY}": 1\n'),
    [problem('auth."${NOT_A_KEY}"', 2, 'unknown key')],
    'keys are never interpolated',
  );
  t.equal(
    parseConfig('service_id: $${LITERAL}\n', FILE, { env: {} }).config.service_id,
    '${LITERAL}',
  );
  t.equal(
    parseConfig('runtime: {note: "${X}"}\n', FILE, { env: { X: 'a: [1, 2]' } }).config.runtime[
      'note'
    ],
    'a: [1, 2]',
    'an environment value never becomes YAML structure',
  );
});

t.test('an environment value never appears in a problem', async (t) => {
  const secret = 'hunter2-super-secret';
  const error = errorOf(() =>
    parseConfig(
      'auth:\n  leeway_seconds: ${S}\n  admin_scope: ${S} x\n  issuer: ["${S}"]\n  algorithm: ${S}\n' +
        'upstream: {url: "${S}", identity_secret: "${S}"}\ncors: {allowed_origins: ["${S}"]}\n',
      FILE,
      { env: { S: secret } },
    ),
  );
  t.equal(error.problems.length, 5);
  t.notMatch(error.message, secret);
  for (const p of error.problems) t.notMatch(p.message, secret);
});

t.test('the environment defaults to process.env', async (t) => {
  process.env['SG_CONFIG_TEST_ID'] = 'from-process-env';
  t.teardown(() => {
    delete process.env['SG_CONFIG_TEST_ID'];
  });
  t.equal(
    parseConfig('service_id: ${SG_CONFIG_TEST_ID}\n', FILE).config.service_id,
    'from-process-env',
  );
});

t.test('ConfigError prints one line per problem, file:line key: message', async (t) => {
  const error = errorOf(() =>
    parseConfig('listen:\n  port: x\ncolour: 1\n', 'conf/g.yaml', { env: {} }),
  );
  t.equal(error.code, 'SG_ERR_CONFIG_INVALID');
  t.equal(
    error.message,
    'invalid configuration (2 problems):\n' +
      '  conf/g.yaml:2 listen.port: must be an integer from 0 to 65535\n' +
      '  conf/g.yaml:3 colour: unknown key',
  );
});

t.test('loadConfig reads a file; paths resolve against its folder', async (t) => {
  const dir = t.testdir({ conf: { 'gateway.yaml': 'service_id: from-file\n' } });
  const file = join(dir, 'conf', 'gateway.yaml');
  const loaded = loadConfig(file, { env: {} });
  t.equal(loaded.config.service_id, 'from-file');
  t.equal(loaded.file, file);
  t.equal(loaded.path, file);
  t.equal(loaded.dir, join(dir, 'conf'));
  t.equal(loaded.resolvePath('policies/a.yaml'), join(dir, 'conf', 'policies', 'a.yaml'));
  t.equal(loaded.resolvePath('/etc/keys/jwks.json'), '/etc/keys/jwks.json');
  t.equal(loaded.resolvePath('../data/gateway.db'), join(dir, 'data', 'gateway.db'));
});

t.test('loadConfig keeps a relative file name as given, for messages', async (t) => {
  const dir = t.testdir({ 'g.yaml': 'listen: {port: -1}\n' });
  const cwd = process.cwd();
  process.chdir(dir);
  t.teardown(() => process.chdir(cwd));
  t.strictSame(errorOf(() => loadConfig('g.yaml', { env: {} })).problems, [
    { file: 'g.yaml', key: 'listen.port', line: 1, message: 'must be an integer from 0 to 65535' },
  ]);
});

t.test('an unreadable file is one problem naming it', async (t) => {
  const dir = t.testdir({ folder: {} });
  const missing = join(dir, 'missing.yaml');
  const rows: readonly (readonly [string, string, RegExp])[] = [
    ['missing', missing, /^cannot read the config file: ENOENT/],
    ['a folder', join(dir, 'folder'), /^cannot read the config file: EISDIR/],
  ];
  for (const [name, file, message] of rows) {
    const [only, ...rest] = errorOf(() => loadConfig(file)).problems;
    t.match(only, { file, key: '', message }, name);
    t.equal(rest.length, 0);
  }
});

t.test('parseConfig: dir defaults to the file folder, and can be given', async (t) => {
  const fromFile = parseConfig('', 'conf/gateway.yaml', { env: {} });
  t.equal(fromFile.path, resolve('conf/gateway.yaml'));
  t.equal(fromFile.dir, resolve('conf'));
  const given = parseConfig('', 'inline', { env: {}, dir: '/srv/scopegate' });
  t.equal(given.dir, '/srv/scopegate');
  t.equal(given.resolvePath('data/dev-keys.json'), '/srv/scopegate/data/dev-keys.json');
});

t.test('the committed gateway.yaml loads with no problem and no warning', async (t) => {
  const loaded = loadConfig(REPO_GATEWAY_YAML, { env: {} });
  const { config } = loaded;
  t.strictSame(loaded.warnings, []);
  t.equal(config.service_id, 'scopegate-demo');
  t.strictSame(config.listen, {
    host: '0.0.0.0',
    port: 8080,
    shutdown_grace_ms: 10000,
    trusted_proxies: [],
    body_idle_timeout_ms: 10000,
    body_timeout_ms: 60000,
    tls: { cert: null, key: null, client_ca: null, client_auth: 'none' },
  });
  t.strictSame(config.admin, { host: '127.0.0.1', port: 9090 });
  t.strictSame(config.upstream, {
    url: 'http://127.0.0.1:8081',
    embedded: true,
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
  });
  t.strictSame(config.policies, [
    'policies/defaults.yaml',
    'policies/a2a.yaml',
    'policies/agui.yaml',
  ]);
  t.strictSame(config.a2a, {
    prefix: '/a2a',
    max_dispatch_body_bytes: 1048576,
    catalogue_ttl_seconds: 30,
  });
  t.strictSame(config.cors, { allowed_origins: [] });
  t.equal(config.auth.authorization, true);
  t.strictSame(config.auth.algorithm, ['ES256', 'RS256']);
  t.equal(config.auth.dev_keys, 'data/dev-keys.json');
  t.equal(config.auth.internal_service_token, null, 'SCOPEGATE_INTERNAL_TOKEN unset: none');
  t.equal(config.auth.scope_mappings, undefined);
  t.strictSame(config.auth.service_accounts, {
    enabled: true,
    store: 'sqlite:data/gateway.db',
    cache_ttl_seconds: 30,
  });
  t.match(config.runtime, {
    os_id: 'scopegate-demo',
    db: 'data/runtime.db',
    agents: [{ id: 'assistant' }, { id: 'researcher' }, { id: 'writer' }],
    teams: [{ id: 'editorial', members: ['researcher', 'writer'] }],
    workflows: [{ id: 'draft-and-review' }],
  });
  t.equal(loaded.dir, resolve(REPO_GATEWAY_YAML, '..'));
});

t.test('the committed gateway.yaml writes out every key but scope_mappings', async (t) => {
  const loaded = loadConfig(REPO_GATEWAY_YAML, { env: {} });
  for (const key of sectionKeys('')) t.type(loaded.lineOf([key]), 'number', key);
  for (const key of sectionKeys('auth')) {
    if (key === 'scope_mappings') t.equal(loaded.lineOf(['auth', key]), undefined, key);
    else t.type(loaded.lineOf(['auth', key]), 'number', `auth.${key}`);
  }
});

t.test('the committed gateway.yaml takes its internal token from the environment', async (t) => {
  const env = { SCOPEGATE_INTERNAL_TOKEN: 'internal-t0ken' };
  t.equal(
    loadConfig(REPO_GATEWAY_YAML, { env }).config.auth.internal_service_token,
    'internal-t0ken',
  );
});

t.test('any text gives a config or a ConfigError, never another exception', async (t) => {
  const fragment = fc.constantFrom(
    ...['a', ':', ': ', '- ', '\n', '  ', '[', ']', '{', '}', ',', '? ', '&x ', '*x', '!t '],
    ...['"', '#', '|', '${X}', '$${', '${', 'null', '1', '---\n', '<<: ', 'auth', '__proto__'],
  );
  const text = fc.oneof(
    fc.array(fragment, { maxLength: 30 }).map((parts) => parts.join('')),
    fc.string({ maxLength: 60 }),
  );
  fc.assert(
    fc.property(text, (input) => {
      try {
        parseConfig(input, FILE, { env: {} });
      } catch (err) {
        if ((err as ConfigError).code !== 'SG_ERR_CONFIG_INVALID') throw err;
      }
    }),
    { numRuns: 2000 },
  );
  t.pass('2000 generated files');
});

t.test('command-line overrides set listen.port and admin.port before validation', async (t) => {
  const rows: {
    name: string;
    text: string;
    overrides: ConfigOverrides;
    listen: number;
    admin: number;
  }[] = [
    {
      name: 'over the file',
      text: 'listen: { port: 8080 }\nadmin: { port: 9090 }\n',
      overrides: { listenPort: 0, adminPort: 1 },
      listen: 0,
      admin: 1,
    },
    {
      name: 'in an empty file',
      text: '',
      overrides: { listenPort: 7000 },
      listen: 7000,
      admin: 9090,
    },
    {
      name: 'none given',
      text: 'listen: { port: 8081 }\n',
      overrides: {},
      listen: 8081,
      admin: 9090,
    },
  ];
  for (const row of rows) {
    const loaded = parseConfig(row.text, 'g.yaml', { env: {}, overrides: row.overrides });
    t.equal(loaded.config.listen.port, row.listen, row.name);
    t.equal(loaded.config.admin.port, row.admin, row.name);
  }
  // A section that is no mapping is left as written: validation names it.
  try {
    parseConfig('listen: 5\n', 'g.yaml', { env: {}, overrides: { listenPort: 1 } });
    t.fail('listen: 5 is refused');
  } catch (err) {
    t.match((err as ConfigError).problems, [{ key: 'listen' }]);
  }
  // A file that is no mapping at all is left to validation too.
  t.throws(() => parseConfig('- a\n', 'g.yaml', { env: {}, overrides: { listenPort: 1 } }));
});
