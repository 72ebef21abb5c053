/**
 * Building the next generation for a reload: the files to watch, the keys only a restart can
 * change (the whole reload is rejected, naming each), every other problem listed in the same
 * report, and the upstream pool and the service-account store kept when their settings did not
 * change — never reopened, and never closed by a failed reload.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { loadConfig, parseConfig, type LoadedConfig } from '../../src/config/load.js';
import { assembleGateway, type GatewayAssembly } from '../../src/gateway/assemble.js';
import {
  buildNextGeneration,
  filesOf,
  generationOf,
  resourcesOf,
  restartOnlyChanges,
  type Generation,
} from '../../src/gateway/generation.js';
import { packageRoot } from '../../src/shared/package-root.js';
import { RSA_KEY } from '../fixtures/keys.js';

const clock = { now: () => Date.now() };
const env = {};

/** A generation built from `text` written as gateway.yaml in a fresh test dir. */
async function firstOf(
  t: Test,
  text: string,
  files: Record<string, string> = {},
): Promise<{ generation: Generation; dir: string; write(text: string): void }> {
  const dir = t.testdir({ ...files, 'gateway.yaml': text });
  const file = join(dir, 'gateway.yaml');
  const loaded = loadConfig(file, { env });
  const assembly = await assembleGateway(loaded, { clock });
  if (assembly.state === null) throw new Error(JSON.stringify(assembly.problems));
  const generation = generationOf(loaded, assembly, assembly.state);
  t.teardown(async () => {
    await generation.state.upstream.pool.close();
    generation.state.serviceAccounts?.close();
  });
  return { generation, dir, write: (next) => writeFileSync(file, next) };
}

/** Closes what `next` opened that `running` does not share. */
function closeNew(t: Test, running: Generation, next: Generation): void {
  t.teardown(async () => {
    if (next.state.upstream !== running.state.upstream) await next.state.upstream.pool.close();
    if (next.accounts !== null && next.accounts.store !== running.accounts?.store) {
      next.accounts.store.close();
    }
  });
}

const BASE = [
  'service_id: gen-test',
  'listen: { host: 127.0.0.1, port: 0 }',
  'upstream: { url: "http://127.0.0.1:9", timeout_ms: 5000 }',
  'policies: []',
  'auth:',
  '  security_key: a-root-key',
];

const yaml = (...lines: string[]): string => [...BASE, ...lines, ''].join('\n');

t.test('filesOf: the config, policies, JWKS, file: keys and dev keys, once each', async (t) => {
  const dir = t.testdir({});
  const text = [
    'policies: [p.yaml, sub/q.yaml, p.yaml]',
    'auth:',
    '  jwks_file: keys/jwks.json',
    '  verification_keys: ["file:k.pem", "an-inline-secret", "file:keys/jwks.json"]',
    '  secret_key: "file:s.txt"',
    '  dev_keys: dev.json',
    '  algorithm: [RS256, ES256, HS256]',
  ].join('\n');
  const loaded = parseConfig(text, join(dir, 'gateway.yaml'), { env });
  const assembly = await assembleGateway(loaded, { clock, checkOnly: true });
  t.same(filesOf(loaded, assembly), [
    join(dir, 'gateway.yaml'),
    join(dir, 'p.yaml'),
    join(dir, 'sub/q.yaml'),
    join(dir, 'keys/jwks.json'),
    join(dir, 'k.pem'),
    join(dir, 's.txt'),
    join(dir, 'dev.json'),
  ]);

  const shipped = parseConfig('auth: { security_key: k, jwks_file: "" }', join(dir, 'g.yaml'), {
    env,
  });
  const shippedAssembly = await assembleGateway(shipped, { clock, checkOnly: true });
  t.same(
    filesOf(shipped, shippedAssembly),
    [
      join(dir, 'g.yaml'),
      ...['defaults', 'a2a', 'agui'].map((f) => join(packageRoot(), 'policies', `${f}.yaml`)),
    ],
    'no policies: key: the shipped files are watched',
  );
});

/** Loads `text` as if written at `dir`/gateway.yaml. */
const at = (dir: string, text: string): LoadedConfig =>
  parseConfig(text, join(dir, 'gateway.yaml'), { env });

t.test('restartOnlyChanges: each key only a restart applies, by name and line', async (t) => {
  const dir = t.testdir({});
  const running = at(
    dir,
    yaml('  service_accounts: { enabled: true, store: "sqlite:sa.db" }', 'runtime: { agents: [] }'),
  );
  t.same(restartOnlyChanges(running, running), [], 'the same config: nothing');

  const rows: readonly (readonly [string, string, readonly string[]])[] = [
    [
      'the listener',
      yaml('  service_accounts: { enabled: true, store: "sqlite:sa.db" }', 'listen: { port: 1 }'),
      ['listen'],
    ],
    [
      'listen.trusted_proxies is applied by a reload, not refused',
      yaml(
        '  service_accounts: { enabled: true, store: "sqlite:sa.db" }',
        'listen: { host: 127.0.0.1, port: 0, trusted_proxies: [10.0.0.0/8] }',
      ),
      [],
    ],
    [
      'the body time-outs are read per request: a reload applies them',
      yaml(
        '  service_accounts: { enabled: true, store: "sqlite:sa.db" }',
        'listen: { host: 127.0.0.1, port: 0, body_idle_timeout_ms: 1, body_timeout_ms: 2 }',
      ),
      [],
    ],
    [
      'listen.trusted_proxies and another listen key: the listener is named',
      yaml(
        '  service_accounts: { enabled: true, store: "sqlite:sa.db" }',
        'listen: { host: 127.0.0.1, port: 1, trusted_proxies: [10.0.0.0/8] }',
      ),
      ['listen'],
    ],
    [
      'the admin listener, the store, not embedded: the runtime section is free',
      yaml(
        '  service_accounts: { enabled: true, store: "sqlite:other.db" }',
        'admin: { port: 9191 }',
        'runtime: { agents: [{ id: x }] }',
      ),
      ['admin', 'auth.service_accounts.store'],
    ],
    [
      'another Postgres store URL, and the cluster settings',
      yaml(
        '  service_accounts: { enabled: true, store: "postgres://u:p@db:5432/other" }',
        'cluster: { feed_poll_ms: 100 }',
      ),
      ['auth.service_accounts.store', 'cluster'],
    ],
    [
      'tracing: one tracer per process',
      yaml(
        '  service_accounts: { enabled: true, store: "sqlite:sa.db" }',
        'telemetry: { tracing: true }',
      ),
      ['telemetry'],
    ],
    [
      'turning service accounts off (or on) is applied, not refused',
      yaml('  service_accounts: { enabled: false, store: "sqlite:other.db" }'),
      [],
    ],
    [
      'upstream.embedded',
      yaml(
        '  service_accounts: { enabled: true, store: "sqlite:sa.db" }',
        'upstream: { embedded: true, url: "http://127.0.0.1:9" }',
      ),
      ['upstream.embedded'],
    ],
  ];
  // `listen` is written twice in some rows above (BASE + the row): keep only the row's.
  const dedupe = (text: string): string =>
    text.split('listen:').length > 2
      ? text.replace('listen: { host: 127.0.0.1, port: 0 }\n', '')
      : text;
  const withoutUpstream = (text: string): string =>
    text.includes('embedded: true')
      ? text.replace('upstream: { url: "http://127.0.0.1:9", timeout_ms: 5000 }\n', '')
      : text;
  for (const [name, text, keys] of rows) {
    const next = at(dir, withoutUpstream(dedupe(text)));
    const problems = restartOnlyChanges(running, next);
    t.same(
      problems.map((p) => p.key),
      keys,
      name,
    );
    for (const problem of problems) {
      t.equal(problem.file, join(dir, 'gateway.yaml'));
      t.type(problem.line, 'number', `${problem.key}: has a line`);
      t.equal(
        problem.message,
        'changed, but only a restart applies it: restore the running value, or restart',
      );
    }
  }

  // With the bundled runtime, what it was started with is fixed too.
  const embedded = (url: string, prefix: string, agents: string): string =>
    [
      'service_id: gen-test',
      `upstream: { embedded: true, url: "${url}" }`,
      `a2a: { prefix: ${prefix} }`,
      'policies: []',
      'auth: { security_key: k }',
      `runtime: { agents: [${agents}] }`,
      '',
    ].join('\n');
  const base = at(dir, embedded('http://127.0.0.1:8081', '/a2a', ''));
  const changed = at(dir, embedded('http://127.0.0.1:8082', '/agents2agents', '{ id: x }'));
  t.same(
    restartOnlyChanges(base, changed).map((p) => [p.key, p.line]),
    [
      ['upstream.url', 2],
      ['runtime', 6],
      ['a2a.prefix', 3],
    ],
  );
  // The embedded runtime verifies with the key it was started with: setting, changing or
  // removing `upstream.identity_secret` needs a restart; without the runtime it is applied.
  const withSecret = (embeddedRuntime: boolean, secret: string | null): LoadedConfig =>
    at(
      dir,
      [
        `upstream: { embedded: ${embeddedRuntime}, url: "http://127.0.0.1:8081", ` +
          `identity_secret: ${JSON.stringify(secret)} }`,
        'auth: { security_key: k }',
        '',
      ].join('\n'),
    );
  const secretRows = [
    {
      name: 'embedded: null → set',
      embedded: true,
      from: null,
      to: 'a-secret-of-16-chars',
      keys: [['upstream.identity_secret', 1]],
    },
    {
      name: 'embedded: changed',
      embedded: true,
      from: 'a-secret-of-16-chars',
      to: 'another-16-char-secret',
      keys: [['upstream.identity_secret', 1]],
    },
    {
      name: 'embedded: unchanged',
      embedded: true,
      from: 'a-secret-of-16-chars',
      to: 'a-secret-of-16-chars',
      keys: [],
    },
    {
      name: 'not embedded: applied',
      embedded: false,
      from: null,
      to: 'a-secret-of-16-chars',
      keys: [],
    },
  ];
  for (const row of secretRows) {
    t.same(
      restartOnlyChanges(withSecret(row.embedded, row.from), withSecret(row.embedded, row.to)).map(
        (p) => [p.key, p.line],
      ),
      row.keys,
      row.name,
    );
  }
  const unwritten = at(dir, 'auth: { security_key: k }\n');
  t.same(
    restartOnlyChanges(at(dir, 'listen: { port: 1 }\nauth: { security_key: k }\n'), unwritten),
    [
      {
        file: join(dir, 'gateway.yaml'),
        key: 'listen',
        line: undefined,
        message: 'changed, but only a restart applies it: restore the running value, or restart',
      },
    ],
    'a key back to its default has no line to point at',
  );
});

t.test('a reload keeps the pool and the store when nothing about them changed', async (t) => {
  const text = yaml('  service_accounts: { enabled: true, store: "sqlite:sa.db" }');
  const { generation, write } = await firstOf(t, text);
  t.ok(generation.accounts, 'the store is open');
  write(text.replace('service_id: gen-test', 'service_id: gen-test-2'));
  const built = await buildNextGeneration(generation, { clock, env });
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  closeNew(t, generation, built.next);
  t.not(built.next.state, generation.state, 'a complete new state');
  t.not(built.next.state.chain, generation.state.chain, 'a new auth chain (and token cache)');
  t.equal(built.next.state.upstream, generation.state.upstream, 'the pool is kept');
  t.equal(built.next.accounts, generation.accounts, 'the store and verifier are kept');
  t.equal(built.next.state.serviceAccounts?.store, generation.accounts?.store);
  t.same(resourcesOf(built.next.state), [
    generation.state.upstream.pool,
    generation.accounts?.subscription,
    generation.accounts?.feed,
    generation.accounts?.store,
    null, // no auth.jwks_url: no remote key set
  ]);
  t.equal(built.next.loaded.config.service_id, 'gen-test-2');

  // New trusted proxies: applied, in the new state only.
  t.equal(generation.state.trustedProxies, null, 'none configured: nothing compiled');
  write(text.replace('port: 0 }', 'port: 0, trusted_proxies: [127.0.0.1/32] }'));
  const proxies = await buildNextGeneration(built.next, { clock, env });
  if (!proxies.ok) throw new Error(JSON.stringify(proxies.problems));
  closeNew(t, built.next, proxies.next);
  t.equal(proxies.next.state.trustedProxies?.check('127.0.0.1'), true, 'the new list is in use');
  t.equal(built.next.state.trustedProxies, null, 'the running state keeps its own');

  // Only the cache TTL changed: the same store, a new verifier.
  write(text.replace('sqlite:sa.db"', 'sqlite:sa.db", cache_ttl_seconds: 5'));
  const ttl = await buildNextGeneration(built.next, { clock, env });
  if (!ttl.ok) throw new Error(JSON.stringify(ttl.problems));
  closeNew(t, built.next, ttl.next);
  t.equal(ttl.next.accounts?.store, generation.accounts?.store, 'the same open store');
  t.not(ttl.next.accounts?.verifier, generation.accounts?.verifier, 'a verifier with the new TTL');
  t.equal(ttl.next.accounts?.cacheTtlSeconds, 5);

  // The upstream moved: a new pool; the old one is left to the slot to close.
  write(text.replace('http://127.0.0.1:9', 'http://127.0.0.1:10'));
  const moved = await buildNextGeneration(ttl.next, { clock, env });
  if (!moved.ok) throw new Error(JSON.stringify(moved.problems));
  closeNew(t, ttl.next, moved.next);
  t.not(moved.next.state.upstream, generation.state.upstream);
  t.equal(moved.next.state.upstream.origin, 'http://127.0.0.1:10');
  t.equal(generation.state.upstream.pool.closed, false, 'the running pool is not closed here');

  // Service accounts turned off: no store in the next state; the running one stays open.
  write(text.replace('enabled: true', 'enabled: false'));
  const off = await buildNextGeneration(moved.next, { clock, env });
  if (!off.ok) throw new Error(JSON.stringify(off.problems));
  closeNew(t, moved.next, off.next);
  t.equal(off.next.accounts, null);
  t.equal(off.next.state.serviceAccounts, null);
  t.equal(generation.accounts?.store.available, true);
});

t.test('a rejected reload lists every problem and never closes the running store', async (t) => {
  const text = yaml('  service_accounts: { enabled: true, store: "sqlite:sa.db" }');
  const { generation, write, dir } = await firstOf(t, text);

  // A key that cannot be read: the assembly fails after the store was (re)used.
  write(text.replace('  security_key: a-root-key', '  verification_keys: ["file:missing.pem"]'));
  const unreadable = await buildNextGeneration(generation, { clock, env });
  t.equal(unreadable.ok, false);
  t.match(unreadable, {
    problems: [
      { key: 'auth.verification_keys[0]', message: 'cannot read key file "missing.pem" (ENOENT)' },
    ],
  });
  t.equal(generation.accounts?.store.available, true, 'the running store is still open');

  // A restart-only key and a malformed scope: both reported; nothing is opened or written.
  write(
    text
      .replace('sqlite:sa.db', 'sqlite:elsewhere.db')
      .concat('  scope_mappings: { "GET /x": ["not a scope"] }\n'),
  );
  const restart = await buildNextGeneration(generation, { clock, env });
  t.equal(restart.ok, false);
  if (restart.ok) return;
  t.same(
    restart.problems.map((p) => p.key),
    ['auth.service_accounts.store', 'auth.scope_mappings."GET /x"[0]'],
  );
  t.equal(generation.accounts?.store.available, true);
  const { existsSync } = await import('node:fs');
  t.notOk(existsSync(join(dir, 'elsewhere.db')), 'the new store was not created');

  // An invalid config: the config's problems and the policy's, as `check` lists them.
  writeFileSync(join(dir, 'p.yaml'), 'scope_mappings:\n  FETCH /x: [a:b]\n');
  write(
    text.replace('policies: []', 'policies: [p.yaml]').replace('auth:', 'auth:\n  algoritm: x'),
  );
  const invalid = await buildNextGeneration(generation, { clock, env });
  t.match(invalid, {
    ok: false,
    warnings: [],
    problems: [
      { key: 'auth.algoritm', message: /unknown key/ },
      { file: 'p.yaml', key: 'scope_mappings."FETCH /x"', message: /malformed pattern/ },
    ],
  });

  // A YAML error: no draft to look further into.
  write('auth: [unclosed\n');
  const broken = await buildNextGeneration(generation, { clock, env });
  t.match(broken, { ok: false, problems: [{ key: '', line: 2 }] });
});

t.test('assembly with a previous store for another file opens its own', async (t) => {
  const text = yaml('  service_accounts: { enabled: true, store: "sqlite:sa.db" }');
  const { generation, dir } = await firstOf(t, text);
  const other = at(dir, text.replace('sqlite:sa.db', 'sqlite:other.db'));
  const assembly: GatewayAssembly = await assembleGateway(other, {
    clock,
    previousUpstream: generation.state.upstream,
    previousAccounts: generation.accounts,
  });
  t.teardown(() => assembly.state?.serviceAccounts?.close());
  t.not(assembly.accounts?.store, generation.accounts?.store);
  t.equal(assembly.accounts?.store.location, join(dir, 'other.db'));
});

t.test('a JWKS-only config watches its JWKS file', async (t) => {
  const jwks = JSON.stringify({ keys: [RSA_KEY.publicJwk] });
  const { generation, dir } = await firstOf(
    t,
    [
      'listen: { host: 127.0.0.1, port: 0 }',
      'upstream: { url: "http://127.0.0.1:9" }',
      'policies: []',
      'auth: { jwks_file: jwks.json, service_accounts: { enabled: false } }',
      '',
    ].join('\n'),
    { 'jwks.json': jwks },
  );
  t.same(generation.files, [join(dir, 'gateway.yaml'), join(dir, 'jwks.json')]);
  t.equal(generation.accounts, null);
});
