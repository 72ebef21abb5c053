/**
 * Assembling the gateway state from a loaded config: development keys, key-file problems with
 * their lines, warnings, reuse of the upstream pool across reloads, check-only mode, and the
 * best-effort policy problems of a config that failed validation.
 */
import { mkdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { loadConfig, type LoadedConfig } from '../../src/config/load.js';
import {
  assembleGateway,
  closeGatewayState,
  draftPolicyProblems,
  type AssembleDeps,
  type GatewayAssembly,
} from '../../src/gateway/assemble.js';
import type { ConfigDraft } from '../../src/shared/problem.js';
import { createManualScheduler } from '../fixtures/jwks-server.js';
import { RSA_KEY } from '../fixtures/keys.js';

const CLOCK = { now: () => Date.now() };

/** A tap fixture tree: file text, or a folder of entries. */
type Tree = { readonly [name: string]: string | Tree };

/**
 * Writes `gateway.yaml` (and `files`) into the test's dir and loads it with an empty environment.
 * One dir per test: a second call in the same test rewrites it.
 */
function load(t: Test, yaml: string, files: Tree = {}): LoadedConfig {
  const dir = t.testdir({ ...files, 'gateway.yaml': yaml });
  return loadConfig(join(dir, 'gateway.yaml'), { env: {} });
}

/** Assembles, closing any pool it built with the test. */
async function assemble(
  t: Test,
  loaded: LoadedConfig,
  deps: Partial<AssembleDeps> = {},
): Promise<GatewayAssembly> {
  const assembly = await assembleGateway(loaded, { clock: CLOCK, ...deps });
  const pool = assembly.state?.upstream.pool;
  if (pool !== undefined && pool !== deps.previousUpstream?.pool) t.teardown(() => pool.destroy());
  const accounts = assembly.state?.serviceAccounts;
  if (accounts) t.teardown(() => accounts.close());
  return assembly;
}

const DEV = [
  'policies: []',
  'upstream: { url: "http://127.0.0.1:9" }',
  'auth:',
  '  algorithm: ES256',
  '  dev_keys: keys/dev.json',
  '',
].join('\n');

t.test('development keys are created on the first assembly and reused on the next', async (t) => {
  const loaded = load(t, DEV);
  const path = join(loaded.dir, 'keys/dev.json');
  const first = await assemble(t, loaded);
  t.same(first.problems, []);
  t.same(first.warnings, []);
  t.ok(first.state, 'a state');
  t.equal(first.devKeys?.path, path);
  t.equal(first.devKeys?.created, true);
  t.match(first.devKeys?.kid, /^[A-Za-z0-9_-]{43}$/, 'an RFC 7638 thumbprint');
  t.equal(statSync(path).mode & 0o777, 0o600, 'the private key file is 0600');
  t.equal(JSON.parse(readFileSync(path, 'utf8')).kid, first.devKeys?.kid);

  const second = await assemble(t, loaded);
  t.same(second.problems, []);
  t.equal(second.devKeys?.created, false, 'read, not created again');
  t.equal(second.devKeys?.kid, first.devKeys?.kid, 'the same key');
  t.equal(
    second.devKeys?.privateKey.export({ format: 'jwk' }).d,
    first.devKeys?.privateKey.export({ format: 'jwk' }).d,
  );
});

t.test('no dev_keys: no development key, nothing written', async (t) => {
  const loaded = load(
    t,
    [
      'policies: []',
      'auth:',
      `  verification_keys: ["${'h'.repeat(32)}"]`,
      '  algorithm: HS256',
      '',
    ].join('\n'),
  );
  const assembly = await assemble(t, loaded);
  t.same(assembly.problems, []);
  t.equal(assembly.devKeys, null);
  t.ok(assembly.state);
});

t.test(
  'an unusable development key file is a problem on auth.dev_keys with its line',
  async (t) => {
    const rows: { name: string; make: (dir: string) => void; files?: Tree; message: RegExp }[] = [
      {
        name: 'a folder where the file should be',
        make: (dir) => mkdirSync(join(dir, 'keys/dev.json'), { recursive: true }),
        message: /^cannot read development key file .*keys\/dev\.json \(EISDIR\)$/,
      },
      {
        name: 'not JSON',
        make: () => {},
        files: { keys: { 'dev.json': 'not json' } },
        message:
          /^development key file .*keys\/dev\.json is not an ES256 \(P-256\) private JWK with a kid$/,
      },
    ];
    for (const row of rows) {
      t.test(row.name, async (t) => {
        const loaded = load(t, DEV, row.files);
        row.make(loaded.dir);
        const assembly = await assemble(t, loaded);
        t.equal(assembly.state, null, 'no state');
        t.equal(assembly.devKeys, null, 'no key');
        t.equal(assembly.problems.length, 1, 'one problem');
        t.match(assembly.problems[0], {
          file: loaded.file,
          key: 'auth.dev_keys',
          line: 5,
          message: row.message,
        });
      });
    }
  },
);

t.test(
  'an unreadable file: verification key is a problem naming the key and its line',
  async (t) => {
    const loaded = load(
      t,
      [
        'policies: []',
        'auth:',
        '  algorithm: RS256',
        '  verification_keys:',
        '    - file:keys/good.pem',
        '    - file:keys/missing.pem',
        '',
      ].join('\n'),
      { keys: { 'good.pem': RSA_KEY.publicPem } },
    );
    const assembly = await assemble(t, loaded);
    t.equal(assembly.state, null);
    t.same(assembly.problems, [
      {
        file: loaded.file,
        key: 'auth.verification_keys[1]',
        line: 6,
        message: 'cannot read key file "keys/missing.pem" (ENOENT)',
      },
    ]);
  },
);

t.test('a key problem on a key not written in the file has no line', async (t) => {
  const dir = t.testdir({ 'gateway.yaml': 'policies: []\nauth: { algorithm: RS256 }\n' });
  const loaded = loadConfig(join(dir, 'gateway.yaml'), {
    env: { JWT_VERIFICATION_KEY: 'file:nowhere.pem' },
  });
  const assembly = await assemble(t, loaded);
  t.same(assembly.problems, [
    {
      file: loaded.file,
      key: 'auth.verification_keys[0]',
      line: undefined,
      message: 'cannot read key file "nowhere.pem" (ENOENT)',
    },
  ]);
});

t.test('warnings: config, auth chain and mode warnings, each with its line', async (t) => {
  const loaded = load(
    t,
    [
      'policies: []',
      'upstream: { url: "http://127.0.0.1:9" }',
      'auth:',
      '  algorithm: ES256',
      '  dev_keys: dev.json',
      '  security_key: a-root-key',
      '  jwks_url: https://idp.example/jwks.json',
      '  validate: false',
      '',
    ].join('\n'),
  );
  const assembly = await assemble(t, loaded);
  t.same(assembly.problems, []);
  t.ok(assembly.state, 'warnings do not stop the start');
  const byCode = Object.fromEntries(assembly.warnings.map((w) => [w.code, w]));
  t.match(byCode['SGWRN001'], {
    key: 'auth.security_key',
    line: 6,
    message: /^ignored: a JWT source/,
  });
  // SGWRN005 (a key verifying none of the accepted algorithms) cannot come from the dev key any
  // more: config refuses dev_keys without ES256. test/auth/jwt/keys.test.ts covers it for JWKS.
  // jwks_url is fetched now (SGWRN006 is retired); with validate: false it is never needed.
  t.equal(assembly.state?.chain.remoteJwks, null, 'validate: false fetches no JWKS');
  t.match(byCode['SGWRN007'], { key: 'auth.validate', line: 8, message: /NOT checked/ });
  t.equal(assembly.warnings.length, 2);
});

t.test('SGWRN009: a trusted_proxies range of every address', async (t) => {
  const loaded = load(
    t,
    [
      'policies: []',
      'upstream: { url: "http://127.0.0.1:9" }',
      'listen:',
      '  trusted_proxies:',
      '    - 10.0.0.0/8',
      '    - 0.0.0.0/0',
      '    - fd00::/8',
      '    - ::/0',
      'auth: { security_key: k }',
      '',
    ].join('\n'),
  );
  const assembly = await assemble(t, loaded);
  t.same(assembly.problems, []);
  t.ok(assembly.state, 'a warning does not stop the start');
  const warning = (i: number, line: number) => ({
    file: loaded.file,
    key: `listen.trusted_proxies[${i}]`,
    line,
    message:
      'trusts every peer: any client can set its own address (the throttle key, client_ip) ' +
      'and the X-Forwarded-Host and -Proto the upstream sees; list only your load balancers',
    code: 'SGWRN009',
  });
  t.same(
    assembly.warnings.filter((w) => w.code === 'SGWRN009'),
    [warning(1, 6), warning(3, 8)],
  );
  t.equal(assembly.state?.trustedProxies?.check('203.0.113.9'), true, 'and it is applied');
});

t.test('the state carries the settings the pipeline reads', async (t) => {
  const loaded = load(
    t,
    [
      'policies: []',
      'upstream:',
      '  url: "http://127.0.0.1:9/base/"',
      '  timeout_ms: 1234',
      '  forward_authorization: false',
      '  identity_secret: "sixteen-characters!"',
      'auth:',
      '  authorization: true',
      `  verification_keys: ["${'h'.repeat(32)}"]`,
      '  algorithm: HS256',
      '  token_source: BOTH',
      '  token_header_key: X-Token',
      '  cookie_name: sg',
      '  user_isolation: true',
      '',
    ].join('\n'),
  );
  const { state } = await assemble(t, loaded);
  if (state === null) throw new Error('no state');
  t.ok(Object.isFrozen(state));
  t.equal(state.rbacEnabled, true);
  t.same(state.credentialNames, { header: 'X-Token', cookie: 'sg' });
  t.same(state.identity, { rbacEnabled: true, userIsolation: true });
  t.same(state.forwardHeaders, {
    forwardAuthorization: false,
    identitySecret: 'sixteen-characters!',
    tokenHeader: 'x-token',
    tokenCookie: 'sg',
    identityToken: null,
  });
  t.match(state.upstream, { origin: 'http://127.0.0.1:9', basePath: '/base', timeoutMs: 1234 });
  t.equal(state.trustedProxies, null, 'no trusted proxies: nothing compiled');
});

t.test('the previous upstream pool is kept when URL and time-out are unchanged', async (t) => {
  const yaml = (upstream: string) =>
    ['policies: []', `upstream: ${upstream}`, 'auth: { security_key: k }', ''].join('\n');
  const before = await assemble(
    t,
    load(t, yaml('{ url: "http://127.0.0.1:9/api", timeout_ms: 500 }')),
  );
  const previous = before.state?.upstream;
  if (previous === undefined) throw new Error('no state');
  const rows: { name: string; upstream: string; kept: boolean }[] = [
    {
      name: 'unchanged',
      upstream: '{ url: "http://127.0.0.1:9/api", timeout_ms: 500 }',
      kept: true,
    },
    {
      name: 'only a trailing slash added',
      upstream: '{ url: "http://127.0.0.1:9/api/", timeout_ms: 500 }',
      kept: true,
    },
    {
      name: 'another port',
      upstream: '{ url: "http://127.0.0.1:10/api", timeout_ms: 500 }',
      kept: false,
    },
    {
      name: 'another host',
      upstream: '{ url: "http://localhost:9/api", timeout_ms: 500 }',
      kept: false,
    },
    {
      name: 'another base path',
      upstream: '{ url: "http://127.0.0.1:9/v2", timeout_ms: 500 }',
      kept: false,
    },
    {
      name: 'another time-out',
      upstream: '{ url: "http://127.0.0.1:9/api", timeout_ms: 501 }',
      kept: false,
    },
    {
      name: 'another max_connections',
      upstream: '{ url: "http://127.0.0.1:9/api", timeout_ms: 500, max_connections: 8 }',
      kept: false,
    },
    {
      name: 'other admission limits (read per request)',
      upstream:
        '{ url: "http://127.0.0.1:9/api", timeout_ms: 500, queue_timeout_ms: 1, max_in_flight_per_principal: 2 }',
      kept: true,
    },
  ];
  for (const row of rows) {
    const { state } = await assemble(t, load(t, yaml(row.upstream)), {
      previousUpstream: previous,
    });
    if (state === null) throw new Error('no state');
    t.equal(
      state.upstream === previous,
      row.kept,
      `${row.name}: ${row.kept ? 'kept' : 'replaced'}`,
    );
    t.equal(state.upstream.pool === previous.pool, row.kept, `${row.name}: the pool`);
    t.equal(state.upstream.callers, previous.callers, `${row.name}: callers' counts carried`);
  }
});

t.test('the limits of a config are in its state', async (t) => {
  const text = [
    'policies: []',
    'listen: { body_idle_timeout_ms: 111, body_timeout_ms: 222 }',
    'upstream: { url: "http://127.0.0.1:9", max_connections: 3, queue_timeout_ms: 44, max_in_flight_per_principal: 5 }',
    'auth: { security_key: k }',
    '',
  ].join('\n');
  const { state } = await assemble(t, load(t, text));
  t.same(state?.limits, {
    body: { idleMs: 111, totalMs: 222 },
    admission: { maxInFlightPerCaller: 5, queueTimeoutMs: 44 },
  });
  t.equal(state?.upstream.maxConnections, 3);
  t.equal(state?.upstream.slots.capacity, 3);
});

t.test(
  'jwks_url: fetched at start, never by check, kept across a reload, closed with the state',
  async (t) => {
    const JWKS = [
      'policies: []',
      'upstream: { url: "http://127.0.0.1:9" }',
      'auth:',
      '  jwks_url: https://idp.example/jwks',
      '  service_accounts: { enabled: false }',
      '',
    ].join('\n');
    let fetches = 0;
    const scheduler = createManualScheduler();
    const jwks = {
      fetch: async () => {
        fetches += 1;
        return JSON.stringify({ keys: [RSA_KEY.publicJwk] });
      },
      schedule: scheduler,
    };
    const loaded = load(t, JWKS);
    const checked = await assemble(t, loaded, { checkOnly: true, jwks });
    t.equal(checked.state, null);
    t.equal(fetches, 0, 'check fetches nothing');

    const first = await assemble(t, loaded, { jwks });
    const remote = first.state?.chain.remoteJwks;
    t.equal(fetches, 1, 'serve fetches at start, before the first request');
    t.equal(remote?.ready(), true);
    t.same(first.warnings, []);

    const reloaded = await assemble(t, loaded, { jwks: { ...jwks, previous: remote } });
    t.equal(reloaded.state?.chain.remoteJwks, remote, 'a reload keeps the set (and its keys)');
    t.equal(fetches, 1, 'and fetches nothing more');

    t.not(scheduler.pending, null, 'the refresh is scheduled');
    await closeGatewayState(first.state!);
    t.equal(scheduler.pending, null, 'closing the state stops the refresh loop');
  },
);

t.test('a policy problem gives state null, with the problem listed', async (t) => {
  const loaded = load(
    t,
    [
      'policies: []',
      'auth:',
      '  security_key: k',
      '  scope_mappings:',
      '    "GET /agents/*x": [agents:read]',
      '',
    ].join('\n'),
  );
  const assembly = await assemble(t, loaded);
  t.equal(assembly.state, null);
  t.equal(assembly.policy.state, null);
  t.equal(assembly.problems.length, 1);
  t.match(assembly.problems[0], {
    file: loaded.file,
    key: 'auth.scope_mappings."GET /agents/*x"',
    line: 5,
    message: /malformed pattern/,
  });
});

t.test(
  'check-only: reads an existing development key, never creates one, builds no state',
  async (t) => {
    const loaded = load(t, DEV);
    const path = join(loaded.dir, 'keys/dev.json');
    const dry = await assemble(t, loaded, { checkOnly: true });
    t.same(dry.problems, []);
    t.equal(dry.state, null, 'no state in check-only mode');
    t.ok(dry.policy.state, 'the policy half is there');
    t.equal(dry.devKeys, null);
    t.equal(existsSync(path), false, 'no key file written');

    const created = await assemble(t, loaded);
    const existing = await assemble(t, loaded, { checkOnly: true });
    t.equal(existing.state, null);
    t.equal(existing.devKeys?.kid, created.devKeys?.kid, 'an existing key is read');
    t.equal(existing.devKeys?.created, false);

    t.test('a bad existing key is still refused', async (t) => {
      const broken = await assemble(t, load(t, DEV, { keys: { 'dev.json': '{}' } }), {
        checkOnly: true,
      });
      t.match(broken.problems, [{ key: 'auth.dev_keys', line: 5 }]);
      t.equal(broken.state, null);
    });
  },
);

t.test(
  'draftPolicyProblems: best-effort policy problems of a config that failed validation',
  async (t) => {
    const dir = t.testdir({
      'p.yaml': 'scope_mappings:\n  "FETCH /x": [a:b]\n',
      'ok.yaml': 'scope_mappings:\n  "GET /ok": [a:read]\n',
    });
    const draft = (tree: unknown): ConfigDraft => ({
      file: 'gateway.yaml',
      dir,
      tree,
      lineOf: (path) => (path.join('.') === 'auth.scope_mappings.GET /bad/*x' ? 7 : undefined),
    });
    const messages = (tree: unknown) =>
      draftPolicyProblems(draft(tree)).map((p) => `${p.file} ${p.key}: ${p.message}`);
    const rows: { name: string; tree: unknown; want: RegExp[] }[] = [
      { name: 'not a mapping: the shipped policies, no problem', tree: ['x'], want: [] },
      { name: 'null tree', tree: null, want: [] },
      {
        name: 'a policy file with a bad method',
        tree: { policies: ['p.yaml'] },
        want: [/^p\.yaml scope_mappings\."FETCH \/x": malformed pattern: method must be one of/],
      },
      {
        name: 'a missing policy file',
        tree: { policies: ['ok.yaml', 'gone.yaml'] },
        want: [
          /^gateway\.yaml policies\[1\]: cannot read policy file \/.*\/gone\.yaml \(ENOENT\); "gone\.yaml" is resolved against the config's folder \//,
        ],
      },
      {
        name: 'policies of the wrong shape fall back to the shipped files',
        tree: { policies: 'p.yaml', auth: 'not a mapping', a2a: 7 },
        want: [],
      },
      {
        name: 'a bad override pattern',
        tree: { policies: [], auth: { scope_mappings: { 'GET /bad/*x': ['a:read'] } } },
        want: [/^gateway\.yaml auth\.scope_mappings\."GET \/bad\/\*x": malformed pattern/],
      },
      {
        name: 'scope_mappings as a list is ignored',
        tree: { policies: [], auth: { scope_mappings: ['GET /x'] } },
        want: [],
      },
      {
        name: 'scope_mappings null is ignored',
        tree: { policies: [], auth: { scope_mappings: null } },
        want: [],
      },
      {
        name: 'a malformed excluded route',
        tree: { policies: [], auth: { excluded_route_paths: ['/a/**/b'] } },
        want: [/^gateway\.yaml auth\.excluded_route_paths\[0\]: /],
      },
      {
        name: 'excluded_route_paths of the wrong shape fall back to the default',
        tree: { policies: [], auth: { excluded_route_paths: [1, 2] } },
        want: [],
      },
      {
        name: 'a custom admin scope is the admin scope in mappings',
        tree: {
          policies: [],
          auth: { admin_scope: 'root', scope_mappings: { 'GET /x': ['root'] } },
        },
        want: [],
      },
      {
        name: 'a non-string admin scope falls back to the default',
        tree: {
          policies: [],
          auth: { admin_scope: 5, scope_mappings: { 'GET /x': ['agent_os:admin'] } },
        },
        want: [],
      },
      {
        name: 'a valid a2a prefix is used',
        tree: { policies: [], a2a: { prefix: '/agents-a2a' } },
        want: [],
      },
      {
        name: 'a malformed a2a prefix falls back to /a2a',
        tree: { policies: [], a2a: { prefix: 'no-slash' } },
        want: [],
      },
    ];
    for (const row of rows) {
      const got = messages(row.tree);
      t.equal(got.length, row.want.length, `${row.name}: ${JSON.stringify(got)}`);
      row.want.forEach((re, i) => t.match(got[i], re, row.name));
    }
    t.match(
      draftPolicyProblems(
        draft({ policies: [], auth: { scope_mappings: { 'GET /bad/*x': ['a:read'] } } }),
      ),
      [{ line: 7 }],
      'the line comes from the draft',
    );
  },
);
