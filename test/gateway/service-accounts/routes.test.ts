/**
 * The gateway's own `/service-accounts` API over
 * real HTTP: every rule with its status and exact detail, the 201 and listing shapes, revoke,
 * methods and paths it does not serve, bounded bodies, and the enabled: false fallback.
 */
import { request } from 'node:http';
import t from 'tap';
import { DEFAULT_SERVICE_ACCOUNT_SCOPES } from '../../../src/gateway/service-accounts/accounts.js';
import { parseMintBody } from '../../../src/gateway/service-accounts/mint-body.js';
import {
  createdByOf,
  renderScope,
  type ListedAccount,
  type MintedAccount,
} from '../../../src/gateway/service-accounts/render.js';
import { createPrincipal } from '../../../src/auth/principal.js';
import { SECURITY_KEY_PRINCIPAL } from '../../../src/auth/security-key.js';
import { bearer, CHALLENGE, startPair, yamlOf } from '../../fixtures/e2e.js';
import {
  caller,
  MANAGE,
  mintAccount,
  postAccount,
  startAccountsPair,
  STORE,
} from '../../fixtures/service-accounts.js';
import { TEST_NOW } from '../../fixtures/tokens.js';

const DAY = 86_400;

t.test('201: the minted account, its token once, default scopes and 90 days', async (t) => {
  const pair = await startAccountsPair(t);
  const jwt = await caller([...MANAGE, ...DEFAULT_SERVICE_ACCOUNT_SCOPES]);
  const answer = await postAccount(pair, jwt, { name: 'ci-bot' });
  t.equal(answer.status, 201);
  t.equal(answer.headers['content-type'], 'application/json');
  t.equal(answer.headers['cache-control'], 'no-store', 'the token is never cached on the way');
  const body = answer.json as MintedAccount;
  t.same(Object.keys(body), [
    'id',
    'name',
    'principal',
    'token_prefix',
    'scopes',
    'created_at',
    'expires_at',
    'token',
  ]);
  t.match(body.id, /^[0-9a-f-]{36}$/);
  t.equal(body.name, 'ci-bot');
  t.equal(body.principal, 'sa:ci-bot');
  t.match(body.token, /^svc_pat_[0-9A-Za-z]{43}$/);
  t.equal(body.token_prefix, body.token.slice(0, 16));
  t.equal(body.created_at, TEST_NOW);
  t.equal(body.expires_at, TEST_NOW + 90 * DAY);
  t.same(
    body.scopes.map((s) => s.raw),
    ['agents:run', 'teams:run', 'workflows:run', 'sessions:read', 'config:read'],
  );
  t.equal(pair.upstream.received.length, 0, 'never forwarded');
});

t.test('scopes render as {raw, namespace, sub_namespace, permission, value}', async (t) => {
  const pair = await startAccountsPair(t);
  const jwt = await caller([...MANAGE, 'agent_os:admin']);
  const body = await mintAccount(t, pair, jwt, {
    name: 'renders',
    scopes: [
      { scope: 'system:read', effect: 'allow' },
      { scope: 'agents:a1:run' },
      { scope: 'agents:*:read' },
      { scope: 'agents:a1:run' },
      { scope: 'agent_os:admin' },
    ],
    allow_privileged_scopes: true,
  });
  t.same(
    body.scopes,
    [
      {
        raw: 'system:read',
        namespace: 'config',
        sub_namespace: null,
        permission: 'read',
        value: 'allow',
      },
      {
        raw: 'agents:a1:run',
        namespace: 'agents',
        sub_namespace: 'a1',
        permission: 'run',
        value: 'allow',
      },
      {
        raw: 'agents:*:read',
        namespace: 'agents',
        sub_namespace: '*',
        permission: 'read',
        value: 'allow',
      },
      {
        raw: 'agent_os:admin',
        namespace: 'agent_os',
        sub_namespace: null,
        permission: 'admin',
        value: 'allow',
      },
    ],
    'a repeated scope is kept once; effect defaults to allow',
  );
  t.same(renderScope('odd'), {
    raw: 'odd',
    namespace: 'odd',
    sub_namespace: null,
    permission: null,
    value: 'allow',
  });
});

t.test('expires_in_days and never_expires', async (t) => {
  const pair = await startAccountsPair(t);
  const jwt = await caller([...MANAGE, 'config:read']);
  const scopes = [{ scope: 'config:read' }];
  const one = await mintAccount(t, pair, jwt, { name: 'one-day', scopes, expires_in_days: 1 });
  t.equal(one.expires_at, TEST_NOW + DAY);
  const max = await mintAccount(t, pair, jwt, { name: 'max', scopes, expires_in_days: 3650 });
  t.equal(max.expires_at, TEST_NOW + 3650 * DAY);
  const never = await mintAccount(t, pair, jwt, { name: 'forever', scopes, never_expires: true });
  t.equal(never.expires_at, null);
  const nulls = await mintAccount(t, pair, jwt, {
    name: 'nulls',
    scopes,
    expires_in_days: null,
    never_expires: false,
    allow_privileged_scopes: null,
  });
  t.equal(nulls.expires_at, TEST_NOW + 90 * DAY, 'null means the default');
  const none = await mintAccount(t, pair, jwt, { name: 'no-scopes', scopes: [] });
  t.same(none.scopes, [], 'an empty list is no scopes, not the defaults');
});

t.test('422: a body of the wrong shape, every issue listed (HTTPValidationError)', async (t) => {
  const pair = await startAccountsPair(t);
  const jwt = await caller([...MANAGE, 'agent_os:admin']);
  const issue = (type: string, loc: (string | number)[], msg: string, input: unknown = null) => ({
    type,
    loc: ['body', ...loc],
    msg,
    input,
  });
  const rows: [string, unknown, unknown[]][] = [
    ['no body', '', [issue('missing', [], 'a JSON body is required')]],
    [
      'not JSON',
      '{"name": ',
      [
        issue(
          'json_invalid',
          [],
          `the body must be valid JSON: ${(() => {
            try {
              JSON.parse('{"name": ');
            } catch (err) {
              return (err as Error).message;
            }
            return '';
          })()}`,
        ),
      ],
    ],
    ['a list', [], [issue('model_attributes_type', [], 'the body must be a JSON object', [])]],
    ['null', 'null', [issue('model_attributes_type', [], 'the body must be a JSON object')]],
    ['no name', {}, [issue('missing', ['name'], 'name is required')]],
    ['a number as name', { name: 7 }, [issue('string_type', ['name'], 'name must be a string', 7)]],
    ...['Upper', '-lead', '', 'a'.repeat(64), 'with space', 'dot.ted', 'ünï'].map(
      (name): [string, unknown, unknown[]] => [
        `name ${JSON.stringify(name)}`,
        { name },
        [
          issue(
            'string_pattern_mismatch',
            ['name'],
            'name must match ^[a-z0-9][a-z0-9_-]{0,62}$: 1 to 63 lower-case letters, digits, "_" or "-", starting with a letter or digit',
            name,
          ),
        ],
      ],
    ),
    [
      'scopes not a list',
      { name: 'x', scopes: 'agents:run' },
      [
        issue(
          'list_type',
          ['scopes'],
          'scopes must be a list of {"scope": ..., "effect": "allow"}',
          'agents:run',
        ),
      ],
    ],
    [
      'a scope item that is a string',
      { name: 'x', scopes: ['agents:run'] },
      [
        issue(
          'model_attributes_type',
          ['scopes', 0],
          'scopes[0] must be an object {"scope": ..., "effect": "allow"}',
          'agents:run',
        ),
      ],
    ],
    [
      'a scope item without scope',
      { name: 'x', scopes: [{ effect: 'allow' }] },
      [issue('missing', ['scopes', 0, 'scope'], 'scopes[0].scope is required')],
    ],
    [
      'a non-string scope',
      { name: 'x', scopes: [{ scope: 'config:read' }, { scope: ['agents:run'] }] },
      [
        issue('string_type', ['scopes', 1, 'scope'], 'scopes[1].scope must be a string', [
          'agents:run',
        ]),
      ],
    ],
    [
      'effect other than allow',
      { name: 'x', scopes: [{ scope: 'config:read', effect: 'deny' }] },
      [issue('literal_error', ['scopes', 0, 'effect'], 'scopes[0].effect must be "allow"', 'deny')],
    ],
    [
      'an unknown key in a scope item',
      { name: 'x', scopes: [{ scope: 'config:read', value: 'allow' }] },
      [
        issue(
          'extra_forbidden',
          ['scopes', 0, 'value'],
          'scopes[0].value is not a known field',
          'allow',
        ),
      ],
    ],
    [
      'too many scopes',
      { name: 'x', scopes: Array.from({ length: 101 }, () => ({ scope: 'config:read' })) },
      [issue('too_long', ['scopes'], 'scopes may list at most 100 scopes', 101)],
    ],
    ...[1.5, '10', true].map((value): [string, unknown, unknown[]] => [
      `expires_in_days ${JSON.stringify(value)}`,
      { name: 'x', expires_in_days: value },
      [issue('int_type', ['expires_in_days'], 'expires_in_days must be an integer', value)],
    ]),
    [
      'expires_in_days 0',
      { name: 'x', expires_in_days: 0 },
      [issue('greater_than_equal', ['expires_in_days'], 'expires_in_days must be at least 1', 0)],
    ],
    [
      'expires_in_days 3651',
      { name: 'x', expires_in_days: 3651 },
      [issue('less_than_equal', ['expires_in_days'], 'expires_in_days must be at most 3650', 3651)],
    ],
    [
      'expires_in_days with never_expires',
      { name: 'x', expires_in_days: 5, never_expires: true },
      [
        issue(
          'value_error',
          ['expires_in_days'],
          'expires_in_days cannot be combined with never_expires: true',
          5,
        ),
      ],
    ],
    [
      'flags that are not booleans',
      { name: 'x', never_expires: 'yes', allow_privileged_scopes: 1 },
      [
        issue('bool_type', ['never_expires'], 'never_expires must be true or false', 'yes'),
        issue(
          'bool_type',
          ['allow_privileged_scopes'],
          'allow_privileged_scopes must be true or false',
          1,
        ),
      ],
    ],
    [
      'an unknown key, and several issues at once',
      { name: 'BAD', never_expire: true, scopes: [{ scope: 1, effect: 'deny', extra: 2 }] },
      [
        issue('extra_forbidden', ['never_expire'], 'never_expire is not a known field', true),
        issue(
          'string_pattern_mismatch',
          ['name'],
          'name must match ^[a-z0-9][a-z0-9_-]{0,62}$: 1 to 63 lower-case letters, digits, "_" or "-", starting with a letter or digit',
          'BAD',
        ),
        issue('extra_forbidden', ['scopes', 0, 'extra'], 'scopes[0].extra is not a known field', 2),
        issue('literal_error', ['scopes', 0, 'effect'], 'scopes[0].effect must be "allow"', 'deny'),
        issue('string_type', ['scopes', 0, 'scope'], 'scopes[0].scope must be a string', 1),
      ],
    ],
  ];
  for (const [name, body, detail] of rows) {
    const answer = await postAccount(pair, jwt, body);
    t.equal(answer.status, 422, `${name}: 422`);
    t.same(answer.json, { detail }, `${name}: detail`);
  }
  t.equal(pair.upstream.received.length, 0);
});

t.test('400: malformed, then unknown, then privileged scopes, in that order', async (t) => {
  const pair = await startAccountsPair(t);
  const jwt = await caller([...MANAGE, 'agents:run', 'agents:write', 'config:read']);
  const rows: [string, Record<string, unknown>, string][] = [
    [
      'malformed',
      {
        name: 'x',
        scopes: [{ scope: 'agents run' }, { scope: 'config:read' }, { scope: 'a:b:c:d' }],
      },
      'Malformed scope(s): scopes[0].scope "agents run"; scopes[2].scope "a:b:c:d". A scope is the admin scope, or two or three non-empty ":"-separated parts without whitespace where "*" may only be the whole middle part',
    ],
    [
      'malformed before unknown',
      { name: 'x', scopes: [{ scope: 'foo:read' }, { scope: 'agents:' }] },
      'Malformed scope(s): scopes[1].scope "agents:". A scope is the admin scope, or two or three non-empty ":"-separated parts without whitespace where "*" may only be the whole middle part',
    ],
    [
      'unknown namespace and action',
      {
        name: 'x',
        scopes: [{ scope: 'foo:read' }, { scope: 'config:run' }, { scope: 'sessions:s1:read' }],
      },
      'Unknown scope(s): scopes[0].scope "foo:read": "foo" is not a resource namespace this gateway knows; ' +
        'scopes[1].scope "config:run": "run" is not an action of "config" (known: read, write, delete); ' +
        'scopes[2].scope "sessions:s1:read": per-resource scopes (resource:<id>:action) exist only for agents, teams and workflows',
    ],
    [
      'unknown before privileged',
      { name: 'x', scopes: [{ scope: 'agents:write' }, { scope: 'os:read' }] },
      'Unknown scope(s): scopes[1].scope "os:read": "os" is not a resource namespace this gateway knows',
    ],
    [
      'privileged without the flag',
      {
        name: 'x',
        scopes: [
          { scope: 'agents:write' },
          { scope: 'agents:run' },
          { scope: 'service_accounts:read' },
        ],
      },
      'scopes: privileged scope(s) agents:write, service_accounts:read need "allow_privileged_scopes": true (write and delete actions, the admin scope and every service_accounts scope are privileged)',
    ],
    [
      'privileged before the subset rule',
      { name: 'x', scopes: [{ scope: 'teams:delete' }], allow_privileged_scopes: false },
      'scopes: privileged scope(s) teams:delete need "allow_privileged_scopes": true (write and delete actions, the admin scope and every service_accounts scope are privileged)',
    ],
    [
      'the admin scope is privileged',
      { name: 'x', scopes: [{ scope: 'agent_os:admin' }] },
      'scopes: privileged scope(s) agent_os:admin need "allow_privileged_scopes": true (write and delete actions, the admin scope and every service_accounts scope are privileged)',
    ],
  ];
  for (const [name, body, detail] of rows) {
    const answer = await postAccount(pair, jwt, body);
    t.equal(answer.status, 400, `${name}: 400`);
    t.same(answer.json, { detail }, `${name}: detail`);
  }
});

t.test('403: a caller grants only scopes that its own scopes satisfy', async (t) => {
  const pair = await startAccountsPair(t);
  const jwt = await caller([
    ...MANAGE,
    'agents:run',
    'teams:t1:run',
    'config:read',
    'agents:write',
  ]);
  const refused: [string, Record<string, unknown>, string][] = [
    [
      'a scope it does not hold',
      {
        name: 'x',
        scopes: [{ scope: 'agents:run' }, { scope: 'workflows:run' }, { scope: 'sessions:read' }],
      },
      'scopes: a caller may grant only scopes it holds; not held: workflows:run, sessions:read',
    ],
    [
      'a per-resource grant does not cover the global scope',
      { name: 'x', scopes: [{ scope: 'teams:run' }] },
      'scopes: a caller may grant only scopes it holds; not held: teams:run',
    ],
    [
      'the default scopes too',
      { name: 'x' },
      'scopes (default): a caller may grant only scopes it holds; not held: teams:run, workflows:run, sessions:read',
    ],
    [
      'privileged scopes with the flag',
      { name: 'x', scopes: [{ scope: 'agents:delete' }], allow_privileged_scopes: true },
      'scopes: a caller may grant only scopes it holds; not held: agents:delete',
    ],
  ];
  for (const [name, body, detail] of refused) {
    const answer = await postAccount(pair, jwt, body);
    t.equal(answer.status, 403, `${name}: 403`);
    t.same(answer.json, { detail }, `${name}: detail`);
    t.equal(answer.headers['www-authenticate'], undefined, `${name}: no challenge`);
  }
  const granted = await mintAccount(t, pair, jwt, {
    name: 'subset',
    scopes: [
      { scope: 'agents:run' },
      { scope: 'agents:a9:run' },
      { scope: 'agents:*:run' },
      { scope: 'teams:t1:run' },
      { scope: 'system:read' },
      { scope: 'agents:write' },
    ],
    allow_privileged_scopes: true,
  });
  t.equal(granted.scopes.length, 6, 'agents:run covers agents:a9:run; system: is config:');
});

t.test('the admin scope and the security-key root may grant anything', async (t) => {
  const pair = await startAccountsPair(t);
  const admin = await caller(['agent_os:admin'], 'root-user');
  const minted = await mintAccount(t, pair, admin, {
    name: 'by-admin',
    scopes: [{ scope: 'service_accounts:write' }, { scope: 'agent_os:admin' }],
    allow_privileged_scopes: true,
  });
  t.equal(minted.principal, 'sa:by-admin');

  const keyed = await startPair(t, {
    yaml: yamlOf({
      auth: {
        security_key: 'a-static-security-key',
        service_accounts: { enabled: true, store: `sqlite:${STORE}` },
      },
    }),
  });
  const answer = await postAccount(keyed, 'a-static-security-key', {
    name: 'by-key',
    scopes: [{ scope: 'agents:delete' }],
    allow_privileged_scopes: true,
  });
  t.equal(answer.status, 201);
  const list = await keyed.send({
    path: '/service-accounts',
    headers: bearer('a-static-security-key'),
  });
  t.equal((list.json as { data: ListedAccount[] }).data[0]?.created_by, 'security_key');
});

t.test('409: a duplicate active name; free again once revoked', async (t) => {
  const pair = await startAccountsPair(t);
  const jwt = await caller([...MANAGE, 'config:read']);
  const scopes = [{ scope: 'config:read' }];
  const first = await mintAccount(t, pair, jwt, { name: 'dup', scopes });
  const again = await postAccount(pair, jwt, { name: 'dup', scopes });
  t.equal(again.status, 409);
  t.same(again.json, {
    detail:
      'name: an active service account named "dup" already exists (revoke it first, or choose another name)',
  });
  const deleted = await pair.send({
    method: 'DELETE',
    path: `/service-accounts/${first.id}`,
    headers: bearer(jwt),
  });
  t.equal(deleted.status, 204);
  const reused = await mintAccount(t, pair, jwt, { name: 'dup', scopes });
  t.not(reused.id, first.id);
});

t.test('401: anonymous callers never mint, list or revoke', async (t) => {
  const closed = await startAccountsPair(t);
  for (const [method, path] of [
    ['POST', '/service-accounts'],
    ['GET', '/service-accounts'],
    ['DELETE', '/service-accounts/x'],
  ] as const) {
    const answer = await closed.send({ method, path });
    t.equal(answer.status, 401, `${method} ${path}`);
    t.same(answer.json, {
      detail: 'Not authenticated: expected a bearer token in the Authorization header',
    });
  }
  const open = await startAccountsPair(t, { auth: { allow_anonymous: true } });
  for (const [method, path] of [
    ['POST', '/service-accounts'],
    ['GET', '/service-accounts'],
    ['DELETE', '/service-accounts/x'],
    ['PUT', '/service-accounts/x/y'],
  ] as const) {
    const answer = await open.send({ method, path, body: '{"name":"x"}' });
    t.equal(answer.status, 401, `allow_anonymous: ${method} ${path}`);
    t.same(answer.json, {
      detail: 'Not authenticated: service accounts are never managed anonymously',
    });
    t.equal(answer.headers['www-authenticate'], CHALLENGE);
  }
  const anonymousConfig = await open.send({ path: '/config' });
  t.equal(anonymousConfig.status, 403, 'elsewhere allow_anonymous is unchanged');
});

t.test('always scope-checked, with authorization off and for every credential kind', async (t) => {
  const pair = await startAccountsPair(t, { auth: { authorization: false } });
  const rows: [string, string, string][] = [
    ['GET', '/service-accounts', 'service_accounts:read'],
    ['HEAD', '/service-accounts', 'service_accounts:read'],
    ['POST', '/service-accounts', 'service_accounts:write'],
    ['DELETE', '/service-accounts/x', 'service_accounts:delete'],
  ];
  const jwt = await caller(['agents:run', 'config:read']);
  for (const [method, path, scope] of rows) {
    const answer = await pair.send({ method, path, headers: bearer(jwt) });
    t.equal(answer.status, 403, `${method} ${path}`);
    if (method !== 'HEAD') {
      t.same(answer.json, { detail: `Insufficient permissions. Required scope(s): ${scope}` });
    }
  }
  const saHolder = await caller(['service_accounts:read'], 'reader');
  const mint = await postAccount(pair, saHolder, { name: 'x' });
  t.same(
    [mint.status, mint.json],
    [403, { detail: 'Insufficient permissions. Required scope(s): service_accounts:write' }],
    'read does not open POST',
  );
});

t.test('the built-in requirement holds with no policy files and under overrides', async (t) => {
  const bare = await startAccountsPair(t, { top: { policies: [] } });
  const nobody = await caller(['config:read']);
  for (const [method, path, scope] of [
    ['GET', '/service-accounts', 'service_accounts:read'],
    ['POST', '/service-accounts', 'service_accounts:write'],
    ['PATCH', '/service-accounts', 'service_accounts:write'],
    ['DELETE', '/service-accounts/x', 'service_accounts:delete'],
  ] as const) {
    const answer = await bare.send({ method, path, headers: bearer(nobody) });
    t.same(
      [answer.status, answer.json],
      [403, { detail: `Insufficient permissions. Required scope(s): ${scope}` }],
      `policies: [] ${method} ${path}`,
    );
  }
  const reader = await caller(['service_accounts:read']);
  const listed = await bare.send({ path: '/service-accounts', headers: bearer(reader) });
  t.equal(listed.status, 200, 'the scope opens it as usual');
  const admin = await caller(['agent_os:admin']);
  t.equal((await bare.send({ path: '/service-accounts', headers: bearer(admin) })).status, 200);

  const overridden = await startAccountsPair(t, {
    auth: {
      scope_mappings: {
        'GET /service-accounts': [],
        'POST /service-accounts': ['config:read'],
        'DELETE /service-accounts/*': ['ops:approve'],
      },
    },
  });
  const emptied = await overridden.send({ path: '/service-accounts', headers: bearer(nobody) });
  t.same(
    [emptied.status, emptied.json],
    [403, { detail: 'Insufficient permissions. Required scope(s): service_accounts:read' }],
    'an empty mapping cannot remove it',
  );
  const added = await overridden.send({
    method: 'POST',
    path: '/service-accounts',
    headers: bearer(nobody),
  });
  t.same(
    [added.status, added.json],
    [
      403,
      {
        detail: 'Insufficient permissions. Required scope(s): config:read, service_accounts:write',
      },
    ],
    'an override adds to it',
  );
  const neither = await overridden.send({
    method: 'DELETE',
    path: '/service-accounts/x',
    headers: bearer(nobody),
  });
  t.same(neither.json, {
    detail: 'Insufficient permissions. Required scope(s): ops:approve, service_accounts:delete',
  });
  const onlyOverride = await caller(['ops:approve']);
  const missingFloor = await overridden.send({
    method: 'DELETE',
    path: '/service-accounts/x',
    headers: bearer(onlyOverride),
  });
  t.same(missingFloor.json, {
    detail: 'Insufficient permissions. Required scope(s): ops:approve, service_accounts:delete',
  });
  const floorOnly = await caller(['service_accounts:delete']);
  const missingOverride = await overridden.send({
    method: 'DELETE',
    path: '/service-accounts/x',
    headers: bearer(floorOnly),
  });
  t.same(missingOverride.json, {
    detail: 'Insufficient permissions. Required scope(s): ops:approve, service_accounts:delete',
  });
  const both = await caller(['ops:approve', 'service_accounts:delete']);
  const passed = await overridden.send({
    method: 'DELETE',
    path: '/service-accounts/x',
    headers: bearer(both),
  });
  t.equal(passed.status, 404, 'both held: the API answers (no such id)');
});

t.test('unmapped_routes: deny still refuses unserved /service-accounts paths', async (t) => {
  const pair = await startAccountsPair(t, { auth: { unmapped_routes: 'deny' } });
  const jwt = await caller(MANAGE);
  const answer = await pair.send({ path: '/service-accounts/a/b', headers: bearer(jwt) });
  t.equal(answer.status, 403);
  t.same(answer.json, {
    detail:
      'Forbidden: no scope mapping covers GET /service-accounts/a/b and unmapped_routes is deny',
  });
});

t.test('excluded_route_paths never exempt /service-accounts', async (t) => {
  const pair = await startAccountsPair(t, { auth: { excluded_route_paths: ['/**'] } });
  const answer = await pair.send({ path: '/service-accounts' });
  t.equal(answer.status, 401);
  t.equal((await pair.send({ path: '/config' })).status, 200, 'other routes are exempt');
});

t.test('GET lists in the pagination envelope, newest first, never a token', async (t) => {
  const pair = await startAccountsPair(t);
  const jwt = await caller([...MANAGE, 'config:read'], 'lister');
  const minted: MintedAccount[] = [];
  for (let i = 0; i < 5; i++) {
    minted.push(
      await mintAccount(t, pair, jwt, { name: `acct-${i}`, scopes: [{ scope: 'config:read' }] }),
    );
    pair.clock.advance(1_000);
  }
  const all = await pair.send({ path: '/service-accounts', headers: bearer(jwt) });
  t.equal(all.status, 200);
  t.equal(all.headers['cache-control'], 'no-store');
  const body = all.json as { data: ListedAccount[]; meta: unknown };
  t.same(body.meta, { page: 1, limit: 20, total_pages: 1, total_count: 5 });
  t.same(
    body.data.map((a) => a.name),
    ['acct-4', 'acct-3', 'acct-2', 'acct-1', 'acct-0'],
  );
  t.same(body.data[4], {
    id: minted[0]?.id,
    name: 'acct-0',
    principal: 'sa:acct-0',
    token_prefix: minted[0]?.token_prefix,
    scopes: [renderScope('config:read')],
    created_at: TEST_NOW,
    expires_at: TEST_NOW + 90 * DAY,
    last_used_at: null,
    revoked_at: null,
    created_by: 'lister',
  });
  for (const m of minted) {
    t.notMatch(all.body, m.token, 'no token in the listing');
    t.notMatch(all.body, m.token.slice(16), 'not even its secret part');
  }
  t.notMatch(all.body, /token_hash/);

  const page = await pair.send({ path: '/service-accounts?page=2&limit=2', headers: bearer(jwt) });
  t.same(page.json, {
    data: body.data.slice(2, 4) as unknown[],
    meta: { page: 2, limit: 2, total_pages: 3, total_count: 5 },
  });
  const zero = await pair.send({
    path: '/service-accounts?page=0&limit=100',
    headers: bearer(jwt),
  });
  t.same(
    (zero.json as { meta: unknown }).meta,
    { page: 1, limit: 100, total_pages: 1, total_count: 5 },
    'page 0 is page 1',
  );
  const past = await pair.send({ path: '/service-accounts?page=9', headers: bearer(jwt) });
  t.same(past.json, { data: [], meta: { page: 9, limit: 20, total_pages: 1, total_count: 5 } });
  const head = await pair.send({ method: 'HEAD', path: '/service-accounts', headers: bearer(jwt) });
  t.equal(head.status, 200);
  t.equal(head.body, '', 'HEAD: no body');
  t.equal(head.headers['content-length'], String(Buffer.byteLength(all.body)));
});

t.test('GET: an empty store has zero pages', async (t) => {
  const pair = await startAccountsPair(t);
  const jwt = await caller(MANAGE);
  const answer = await pair.send({ path: '/service-accounts', headers: bearer(jwt) });
  t.same(answer.json, { data: [], meta: { page: 1, limit: 20, total_pages: 0, total_count: 0 } });
});

t.test('422: bad page and limit', async (t) => {
  const pair = await startAccountsPair(t);
  const jwt = await caller(MANAGE);
  const q = (type: string, key: string, msg: string, input: string) => ({
    type,
    loc: ['query', key],
    msg,
    input,
  });
  const rows: [string, unknown[]][] = [
    ['page=x', [q('int_parsing', 'page', 'page must be an integer', 'x')]],
    ['page=-1', [q('greater_than_equal', 'page', 'page must be at least 0', '-1')]],
    [
      'page=1000000001',
      [q('less_than_equal', 'page', 'page must be at most 1000000000', '1000000001')],
    ],
    ['limit=0', [q('greater_than_equal', 'limit', 'limit must be at least 1', '0')]],
    ['limit=101', [q('less_than_equal', 'limit', 'limit must be at most 100', '101')]],
    [
      'page=1.5&limit=',
      [
        q('int_parsing', 'page', 'page must be an integer', '1.5'),
        q('int_parsing', 'limit', 'limit must be an integer', ''),
      ],
    ],
  ];
  for (const [query, detail] of rows) {
    const answer = await pair.send({ path: `/service-accounts?${query}`, headers: bearer(jwt) });
    t.equal(answer.status, 422, query);
    t.same(answer.json, { detail }, query);
  }
});

t.test('DELETE revokes: 204, again 204, unknown 404', async (t) => {
  const pair = await startAccountsPair(t);
  const jwt = await caller([...MANAGE, 'config:read']);
  const account = await mintAccount(t, pair, jwt, {
    name: 'gone',
    scopes: [{ scope: 'config:read' }],
  });
  pair.clock.advance(5_000);
  const first = await pair.send({
    method: 'DELETE',
    path: `/service-accounts/${account.id}`,
    headers: bearer(jwt),
  });
  t.equal(first.status, 204);
  t.equal(first.body, '');
  t.equal(first.headers['content-length'], undefined);
  const listed = await pair.send({ path: '/service-accounts', headers: bearer(jwt) });
  t.equal((listed.json as { data: ListedAccount[] }).data[0]?.revoked_at, TEST_NOW + 5);
  const again = await pair.send({
    method: 'DELETE',
    path: `/service-accounts/${account.id}`,
    headers: bearer(jwt),
  });
  t.equal(again.status, 204, 'already revoked: 204');
  const unknown = await pair.send({
    method: 'DELETE',
    path: '/service-accounts/no%20such',
    headers: bearer(jwt),
  });
  t.equal(unknown.status, 404);
  t.same(unknown.json, { detail: 'id: no service account has the id "no such"' });
});

t.test('methods and paths the API does not serve: 405 with Allow, 404', async (t) => {
  const pair = await startAccountsPair(t);
  const jwt = await caller(MANAGE);
  const put = await pair.send({ method: 'PUT', path: '/service-accounts', headers: bearer(jwt) });
  t.equal(put.status, 405);
  t.equal(put.headers['allow'], 'GET, HEAD, POST');
  t.same(put.json, {
    detail: 'Method not allowed: PUT /service-accounts supports GET, HEAD, POST',
  });
  const get = await pair.send({ path: '/service-accounts/some-id', headers: bearer(jwt) });
  t.equal(get.status, 405);
  t.equal(get.headers['allow'], 'DELETE');
  t.same(get.json, {
    detail: 'Method not allowed: GET /service-accounts/{id} supports DELETE',
  });
  const deep = await pair.send({
    method: 'DELETE',
    path: '/service-accounts/a/b',
    headers: bearer(jwt),
  });
  t.equal(deep.status, 404);
  t.same(deep.json, {
    detail:
      'Not found: the gateway serves GET /service-accounts, POST /service-accounts and DELETE /service-accounts/{id}',
  });
  t.equal(pair.upstream.received.length, 0, 'none forwarded');
});

t.test('413: a body over 64 KiB, declared or streamed', async (t) => {
  const pair = await startAccountsPair(t);
  const jwt = await caller(MANAGE);
  const big = JSON.stringify({ name: 'x', pad: 'y'.repeat(70_000) });
  const detail =
    'Request body too large: a /service-accounts request body may be at most 65536 bytes';
  const declared = await postAccount(pair, jwt, big);
  t.same([declared.status, declared.json], [413, { detail }], 'Content-Length over the bound');
  const streamed = await pair.send({
    method: 'POST',
    path: '/service-accounts',
    headers: bearer(jwt),
    chunks: [big.slice(0, 40_000), big.slice(40_000)],
  });
  t.same([streamed.status, streamed.json], [413, { detail }], 'chunked past the bound');
  const edge = JSON.stringify({ name: 'edge', scopes: [] }).padEnd(65_536, ' ');
  const fits = await postAccount(pair, jwt, edge);
  t.equal(fits.status, 201, 'exactly 64 KiB is read');
});

t.test('enabled: false: svc_pat_ tokens are 401 and /service-accounts is forwarded', async (t) => {
  const pair = await startAccountsPair(t, { serviceAccounts: { enabled: false } });
  const jwt = await caller(MANAGE);
  const forwarded = await postAccount(pair, jwt, { name: 'x' });
  t.equal(forwarded.status, 200, 'the upstream answers');
  t.equal(pair.upstream.received[0]?.url, '/service-accounts');
  t.equal(pair.upstream.received[0]?.body, '{"name":"x"}', 'the body streamed on untouched');
  const refused = await pair.send({
    path: '/service-accounts',
    headers: bearer(await caller(['config:read'])),
  });
  t.equal(refused.status, 403, 'still always scope-checked');
  const token = `svc_pat_${'a'.repeat(43)}`;
  const sa = await pair.send({ path: '/config', headers: bearer(token) });
  t.same([sa.status, sa.json], [401, { detail: 'Invalid or expired service account token' }]);
});

t.test('parseMintBody and createdByOf on their own', async (t) => {
  t.same(parseMintBody({ name: 'ok' }), {
    ok: true,
    value: { name: 'ok', scopes: null, expiresInDays: 90, allowPrivilegedScopes: false },
  });
  t.same(createdByOf(SECURITY_KEY_PRINCIPAL), 'security_key');
  t.same(createdByOf(createPrincipal({ type: 'jwt', userId: 'u-1' })), 'u-1');
  t.same(createdByOf(createPrincipal({ type: 'jwt' })), 'jwt', 'a JWT without sub');
});

t.test('a client that leaves while its body is being read gets nothing, harmlessly', async (t) => {
  const pair = await startAccountsPair(t);
  const jwt = await caller([...MANAGE, 'config:read']);
  const { hostname, port } = new URL(pair.gateway.url);
  const closed = new Promise<void>((resolve) => {
    const req = request({
      host: hostname,
      port,
      method: 'POST',
      path: '/service-accounts',
      headers: { ...bearer(jwt), 'content-length': '100', expect: '100-continue' },
      agent: false,
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.on('continue', () => {
      req.write('{"name": "half');
      req.destroy();
    });
    req.flushHeaders();
  });
  await closed;
  const after = await postAccount(pair, jwt, { name: 'after', scopes: [{ scope: 'config:read' }] });
  t.equal(after.status, 201, 'the gateway serves on');
  const list = await pair.send({ path: '/service-accounts', headers: bearer(jwt) });
  t.same(
    (list.json as { data: ListedAccount[] }).data.map((a) => a.name),
    ['after'],
    'nothing was minted from the half body',
  );
});
