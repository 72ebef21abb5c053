/**
 * End to end: path handling on raw request targets that nothing normalizes
 * on the way, and per-resource authorization with the shipped policies.
 */
import t from 'tap';
import { RSA_KEY } from '../fixtures/keys.js';
import {
  assertForwarded,
  assertRefused,
  bearer,
  startPair,
  yamlOf,
  type ExpectedRefusal,
} from '../fixtures/e2e.js';
import { goodToken } from '../fixtures/tokens.js';

const DETAIL = {
  encodedSeparator:
    'Invalid request path: an encoded "/", "\\" or NUL (%2F, %5C, %00) is not allowed',
  forbiddenCharacter: 'Invalid request path: "\\", NUL, ";" and "#" are not allowed in the path',
  doubleEncoded: 'Invalid request path: double percent-encoding (%25XX) is not allowed',
  emptySegment: 'Invalid request path: empty path segment ("//")',
  dotSegment: 'Invalid request path: "." and ".." segments are not allowed',
  invalidEncoding: 'Invalid request path: malformed percent-encoding or invalid UTF-8',
} as const;

const bad = (detail: string): ExpectedRefusal => ({ status: 400, detail, challenge: null });

t.test('malformed paths are 400 before any credential is looked at', async (t) => {
  const pair = await startPair(t, {
    yaml: yamlOf({ auth: { verification_keys: [RSA_KEY.publicPem], authorization: true } }),
  });
  const rows: { name: string; path: string; detail: string }[] = [
    { name: 'encoded slash %2F', path: '/agents%2Fa1', detail: DETAIL.encodedSeparator },
    {
      name: 'encoded slash %2f (lower case)',
      path: '/agents/a%2f1',
      detail: DETAIL.encodedSeparator,
    },
    { name: 'encoded backslash %5C', path: '/agents/a%5C1', detail: DETAIL.encodedSeparator },
    { name: 'encoded NUL %00', path: '/agents/a1%00', detail: DETAIL.encodedSeparator },
    { name: 'raw backslash', path: '/agents\\a1', detail: DETAIL.forbiddenCharacter },
    { name: 'semicolon', path: '/agents/a1;jsessionid=x', detail: DETAIL.forbiddenCharacter },
    { name: 'empty segment //', path: '/agents//a1', detail: DETAIL.emptySegment },
    { name: 'leading //', path: '//agents', detail: DETAIL.emptySegment },
    { name: 'trailing //', path: '/agents//', detail: DETAIL.emptySegment },
    { name: 'dot-dot segment', path: '/agents/../config', detail: DETAIL.dotSegment },
    { name: 'dot segment', path: '/agents/./a1', detail: DETAIL.dotSegment },
    { name: 'encoded dot-dot %2e%2e', path: '/agents/%2e%2e/config', detail: DETAIL.dotSegment },
    {
      name: 'encoded dot-dot %2E%2E as the last segment',
      path: '/agents/%2E%2E',
      detail: DETAIL.dotSegment,
    },
    { name: 'double-encoded slash %252F', path: '/agents%252Fa1', detail: DETAIL.doubleEncoded },
    { name: 'invalid UTF-8 %ff', path: '/agents/%ff', detail: DETAIL.invalidEncoding },
    { name: 'malformed escape %zz', path: '/agents/%zz', detail: DETAIL.invalidEncoding },
  ];
  await t.test('asterisk-form OPTIONS *', async (t) => {
    await assertRefused(
      t,
      pair,
      { method: 'OPTIONS', path: '*' },
      bad('Invalid request path: the request target must be a path starting with "/"'),
    );
  });
  for (const row of rows) {
    await t.test(row.name, async (t) => {
      await assertRefused(t, pair, { path: row.path }, bad(row.detail));
    });
    await t.test(`${row.name}, with a valid admin token too`, async (t) => {
      const headers = bearer(await goodToken({ scopes: ['agent_os:admin'] }));
      await assertRefused(t, pair, { path: row.path, headers }, bad(row.detail));
    });
  }
  t.equal(pair.upstream.received.length, 0, 'nothing reached the upstream');
});

t.test('the forwarded path is exactly the authorized one', async (t) => {
  const pair = await startPair(t, {
    yaml: yamlOf({
      auth: {
        verification_keys: [RSA_KEY.publicPem],
        authorization: true,
        unmapped_routes: 'deny',
      },
    }),
  });
  const token = await goodToken({ scopes: ['config:read', 'sessions:read', 'agents:read'] });
  const rows: { name: string; method?: string; path: string; forwarded: string }[] = [
    { name: 'one trailing slash is dropped', path: '/config/', forwarded: '/config' },
    {
      name: 'the query string is untouched',
      path: '/config?a=%2F&b=1',
      forwarded: '/config?a=%2F&b=1',
    },
    {
      name: 'trailing slash dropped, query kept',
      path: '/config/?x=..%2F..&y=%252F',
      forwarded: '/config?x=..%2F..&y=%252F',
    },
    {
      name: 'percent-encoding is preserved',
      path: '/sessions/a%20b',
      forwarded: '/sessions/a%20b',
    },
    {
      name: 'encoded UTF-8 is preserved',
      path: '/sessions/caf%C3%A9',
      forwarded: '/sessions/caf%C3%A9',
    },
    {
      name: 'an encoded dot that is not a dot segment',
      path: '/sessions/%2e%2ex',
      forwarded: '/sessions/%2e%2ex',
    },
    { name: 'HEAD is authorized as GET', method: 'HEAD', path: '/config', forwarded: '/config' },
    {
      name: 'absolute-form: only the path is used, the upstream is the configured one',
      path: 'http://elsewhere.example:9/config?q=1',
      forwarded: '/config?q=1',
    },
  ];
  for (const row of rows) {
    await t.test(row.name, async (t) => {
      const method = row.method ?? 'GET';
      const { received } = await assertForwarded(t, pair, {
        method,
        path: row.path,
        headers: bearer(token),
      });
      t.equal(received.url, row.forwarded, 'the upstream saw this target');
      t.equal(received.method, method, 'with this method');
    });
  }
  await t.test('HEAD needs the GET scope', async (t) => {
    const before = pair.upstream.received.length;
    const headers = bearer(await goodToken({ scopes: ['agents:read'] }));
    const answer = await pair.send({ method: 'HEAD', path: '/config', headers });
    t.equal(answer.status, 403);
    t.equal(
      answer.headers['www-authenticate'],
      'Bearer realm="scopegate", error="insufficient_scope", scope="config:read"',
    );
    t.equal(answer.body, '', 'a HEAD answer has no body');
    t.equal(pair.upstream.received.length, before, 'the upstream never saw it');
  });
});

t.test('per-resource scopes with the shipped policies', async (t) => {
  const pair = await startPair(t, {
    yaml: yamlOf({
      auth: {
        verification_keys: [RSA_KEY.publicPem],
        authorization: true,
        unmapped_routes: 'deny',
      },
    }),
  });
  const token = await goodToken({ scopes: ['agents:a1:read'] });
  await t.test('GET /agents/a1 with agents:a1:read is allowed', async (t) => {
    const { context } = await assertForwarded(t, pair, {
      path: '/agents/a1',
      headers: bearer(token),
    });
    t.same(context.required_scopes, ['agents:read']);
    t.equal(context.accessible_resource_ids, null, 'not a listing');
  });
  await t.test('GET /agents/a2 is 403', async (t) => {
    await assertRefused(
      t,
      pair,
      { path: '/agents/a2', headers: bearer(token) },
      {
        status: 403,
        detail: 'Insufficient permissions. Required scope(s): agents:read',
        challenge: 'Bearer realm="scopegate", error="insufficient_scope", scope="agents:read"',
      },
    );
  });
  await t.test('POST /agents/a1/runs is 403: read is not run', async (t) => {
    await assertRefused(
      t,
      pair,
      { method: 'POST', path: '/agents/a1/runs', headers: bearer(token) },
      {
        status: 403,
        detail: 'Insufficient permissions. Required scope(s): agents:run',
        challenge: 'Bearer realm="scopegate", error="insufficient_scope", scope="agents:run"',
      },
    );
  });
  await t.test('GET /agents is filtered to the accessible ids', async (t) => {
    const { context } = await assertForwarded(t, pair, { path: '/agents', headers: bearer(token) });
    t.same(context.accessible_resource_ids, ['a1']);
  });
  await t.test('agents:*:read reaches every agent and the whole listing', async (t) => {
    const wildcard = bearer(await goodToken({ scopes: ['agents:*:read'] }));
    await assertForwarded(t, pair, { path: '/agents/a2', headers: wildcard });
    const { context } = await assertForwarded(t, pair, { path: '/agents', headers: wildcard });
    t.equal(context.accessible_resource_ids, null);
  });
  await t.test('a per-resource scope outside its family satisfies nothing', async (t) => {
    await assertRefused(
      t,
      pair,
      { path: '/config', headers: bearer(await goodToken({ scopes: ['config:a1:read'] })) },
      {
        status: 403,
        detail: 'Insufficient permissions. Required scope(s): config:read',
        challenge: 'Bearer realm="scopegate", error="insufficient_scope", scope="config:read"',
      },
    );
  });
  await t.test('GET /agents with the global scope is not filtered', async (t) => {
    const { context } = await assertForwarded(t, pair, {
      path: '/agents',
      headers: bearer(await goodToken({ scopes: ['agents:read'] })),
    });
    t.equal(context.accessible_resource_ids, null);
  });
  await t.test('an unmapped route is 403 under unmapped_routes: deny', async (t) => {
    const before = pair.upstream.received.length;
    const refused = await pair.send({ path: '/not-a-route/x', headers: bearer(token) });
    t.equal(refused.status, 403);
    t.same(refused.json, {
      detail: 'Forbidden: no scope mapping covers GET /not-a-route/x and unmapped_routes is deny',
    });
    t.equal(pair.upstream.received.length, before, 'the upstream never saw it');
  });
});

t.test('authorization off: listings are not filtered, nothing is refused for scopes', async (t) => {
  const pair = await startPair(t, {
    yaml: yamlOf({ auth: { verification_keys: [RSA_KEY.publicPem], authorization: false } }),
  });
  const token = await goodToken({ scopes: ['agents:a1:read'] });
  const { context } = await assertForwarded(t, pair, { path: '/agents', headers: bearer(token) });
  t.equal(context.accessible_resource_ids, null, 'no filtering without RBAC');
  t.equal(context.authorization_enabled, false);
  await assertForwarded(t, pair, { path: '/agents/a2', headers: bearer(token) });
});
