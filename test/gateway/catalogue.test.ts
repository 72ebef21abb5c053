/**
 * The upstream catalogue against a real HTTP upstream on port 0: the three
 * listings, first family wins, both body shapes, the TTL on an injected clock, one refresh on a
 * miss, one shared refresh for concurrent look-ups, the internal token, and every failure.
 */
import { importJWK, jwtVerify, type JWK } from 'jose';
import t, { type Test } from 'tap';
import { Pool } from 'undici';
import { createCatalogue, type Catalogue } from '../../src/gateway/catalogue.js';
import { catalogueContext, encodeIdentity } from '../../src/gateway/identity.js';
import { createIdentityKeyRing } from '../../src/gateway/identity-token/keys.js';
import {
  createIdentityTokenSigner,
  type IdentityTokenSigner,
} from '../../src/gateway/identity-token/sign.js';
import {
  decodeIdentityContext,
  identityContextHashOf,
  verifyIdentitySignature,
} from '../../src/shared/identity-context.js';
import { startCatalogueUpstream, type Listing } from '../fixtures/catalogue-upstream.js';
import { closedPortUrl } from '../fixtures/e2e.js';
import { createTestClock, type TestClock } from '../fixtures/tokens.js';

interface Setup {
  readonly catalogue: Catalogue;
  readonly clock: TestClock;
  readonly upstream: Awaited<ReturnType<typeof startCatalogueUpstream>>;
}

async function setup(
  t: Test,
  listings: Record<string, Listing>,
  options: {
    token?: string | null;
    basePath?: string;
    url?: string;
    timeoutMs?: number;
    identitySecret?: string;
    identityToken?: IdentityTokenSigner;
  } = {},
): Promise<Setup> {
  const upstream = await startCatalogueUpstream(t, listings);
  const pool = new Pool(options.url ?? upstream.url);
  t.teardown(() => pool.destroy());
  const clock = createTestClock();
  const catalogue = createCatalogue({
    dispatcher: pool,
    basePath: options.basePath ?? '',
    token: options.token ?? null,
    identity: encodeIdentity(
      catalogueContext({ rbacEnabled: true, userIsolation: false }),
      options.identitySecret ?? null,
    ),
    identityToken: options.identityToken ?? null,
    ttlSeconds: 30,
    timeoutMs: options.timeoutMs ?? 5000,
    clock,
  });
  return { catalogue, clock, upstream };
}

const LISTINGS = (): Record<string, Listing> => ({
  '/agents': ['a1', 'both'],
  '/teams': ['t1', 'both'],
  '/workflows': ['w1', 't1'],
});

t.test('resolves each family; the first of agents, teams, workflows wins', async (t) => {
  const { catalogue, upstream } = await setup(t, LISTINGS());
  t.equal(await catalogue.familyOf('a1'), 'agents');
  t.equal(await catalogue.familyOf('t1'), 'teams', 'teams before workflows');
  t.equal(await catalogue.familyOf('w1'), 'workflows');
  t.equal(await catalogue.familyOf('both'), 'agents', 'agents before teams');
  t.same(
    upstream.catalogueReads.map((r) => r.url).sort(),
    ['/agents', '/teams', '/workflows'],
    'one read of each listing served every hit',
  );
  t.equal(upstream.catalogueReads[0]?.headers.authorization, undefined, 'no credential');
  t.equal(upstream.catalogueReads[0]?.headers.accept, 'application/json');
});

t.test('cached for the TTL, read again once it has passed', async (t) => {
  const { catalogue, clock, upstream } = await setup(t, LISTINGS());
  t.equal(await catalogue.familyOf('a1'), 'agents');
  clock.advance(29_999);
  t.equal(await catalogue.familyOf('t1'), 'teams');
  t.equal(upstream.catalogueReads.length, 3, 'still the first read');
  clock.advance(1);
  upstream.listings['/agents'] = ['a9'];
  t.equal(await catalogue.familyOf('a9'), 'agents', 'expired: read again');
  t.equal(upstream.catalogueReads.length, 6);
  t.equal(await catalogue.familyOf('a1'), 'unknown', 'gone from the new read');
});

t.test('a miss refreshes once: a new entity is found, an unknown id stays unknown', async (t) => {
  const { catalogue, upstream } = await setup(t, LISTINGS());
  t.equal(await catalogue.familyOf('a1'), 'agents');
  upstream.listings['/teams'] = ['t1', 'fresh'];
  t.equal(await catalogue.familyOf('fresh'), 'teams', 'found by the refresh on the miss');
  t.equal(upstream.catalogueReads.length, 6, 'one refresh');
  t.equal(await catalogue.familyOf('nobody'), 'unknown');
  t.equal(upstream.catalogueReads.length, 9, 'one refresh for that miss, no second');
});

t.test('concurrent look-ups share one refresh', async (t) => {
  const { catalogue, upstream } = await setup(t, LISTINGS());
  upstream.hold();
  const answers = Promise.all([
    catalogue.familyOf('a1'),
    catalogue.familyOf('nobody'),
    catalogue.familyOf('w1'),
  ]);
  await upstream.catalogueReadCount(3);
  upstream.release();
  t.same(await answers, ['agents', 'unknown', 'workflows']);
  t.equal(upstream.catalogueReads.length, 3, 'three look-ups, one read of each listing');
});

t.test('the internal service token is sent as a Bearer token; the base path applies', async (t) => {
  const { catalogue, upstream } = await setup(
    t,
    { '/base/agents': ['a1'], '/base/teams': [], '/base/workflows': [] },
    { token: 'internal-secret', basePath: '/base' },
  );
  t.equal(await catalogue.familyOf('a1'), 'agents');
  t.same(
    upstream.catalogueReads.map((r) => r.headers.authorization),
    ['Bearer internal-secret', 'Bearer internal-secret', 'Bearer internal-secret'],
  );
});

t.test(
  'every read carries the internal catalogue identity, signed when a secret is set',
  async (t) => {
    const secret = 'catalogue-identity-secret';
    const rows = [
      { name: 'no identity secret: unsigned', identitySecret: undefined },
      { name: 'an identity secret: signed', identitySecret: secret },
    ];
    for (const row of rows) {
      const { catalogue, upstream } = await setup(
        t,
        LISTINGS(),
        row.identitySecret === undefined ? {} : { identitySecret: row.identitySecret },
      );
      t.equal(await catalogue.familyOf('a1'), 'agents', row.name);
      t.equal(upstream.catalogueReads.length, 3, row.name);
      for (const read of upstream.catalogueReads) {
        const value = read.headers['x-auth-context'] as string;
        t.match(
          decodeIdentityContext(value),
          {
            authenticated: true,
            principal_type: 'internal',
            user_id: null,
            is_admin: false,
            scoped_user_id: null,
            accessible_resource_ids: null,
            scopes: ['agents:read', 'teams:read', 'workflows:read'],
            authorization_enabled: true,
          },
          `${row.name}: ${read.url} as the internal reader`,
        );
        t.equal(read.headers['x-auth-scopes'], 'agents:read teams:read workflows:read');
        const signature = read.headers['x-auth-signature'];
        if (row.identitySecret === undefined) t.equal(signature, undefined, `${row.name}: none`);
        else t.ok(verifyIdentitySignature(value, String(signature), secret), `${row.name}: valid`);
      }
    }
  },
);

t.test('with identity tokens on, every read carries one binding its context', async (t) => {
  const clock = createTestClock();
  const ring = createIdentityKeyRing(clock, 60, 24, null);
  const signer = createIdentityTokenSigner(
    ring,
    { header: 'x-identity', issuer: 'scopegate:test', audience: 'http://up', ttlSeconds: 60 },
    clock,
  );
  const { catalogue, upstream } = await setup(t, LISTINGS(), { identityToken: signer });
  t.equal(await catalogue.familyOf('a1'), 'agents');
  const key = await importJWK(ring.jwks().keys[0] as unknown as JWK, 'ES256');
  for (const read of upstream.catalogueReads) {
    const { payload } = await jwtVerify(read.headers['x-identity'] as string, key, {
      currentDate: new Date(clock.now()),
    });
    t.match(payload, { principal_type: 'internal', sub: 'internal' }, `${read.url}: internal`);
    t.equal(
      payload['ctx'],
      identityContextHashOf(read.headers['x-auth-context'] as string),
      `${read.url}: bound to its context`,
    );
  }
});

t.test('listings as {"data": [...]}; entries without a string id are skipped', async (t) => {
  const { catalogue } = await setup(t, {
    '/agents': {
      status: 200,
      body: JSON.stringify({ data: [{ id: 'a1' }, { id: 7 }, null, 'x'] }),
    },
    '/teams': { status: 200, body: JSON.stringify([{ name: 'no id' }, { id: 't1' }]) },
    '/workflows': { status: 404, body: '{"detail":"Not Found"}' },
  });
  t.equal(await catalogue.familyOf('a1'), 'agents');
  t.equal(await catalogue.familyOf('t1'), 'teams');
  t.equal(await catalogue.familyOf('7'), 'unknown');
  t.equal(await catalogue.familyOf('x'), 'unknown', 'a 404 listing is an empty family');
});

t.test('a listing that cannot be read makes the catalogue unavailable', async (t) => {
  const rows: [string, Listing][] = [
    ['a 500', { status: 500, body: '{}' }],
    ['a 401', { status: 401, body: '{"detail":"no"}' }],
    ['not JSON', { status: 200, body: '<html>' }],
    ['an object without data', { status: 200, body: '{"items":[]}' }],
    ['a string', { status: 200, body: '"agents"' }],
    ['null', { status: 200, body: 'null' }],
  ];
  for (const [name, listing] of rows) {
    await t.test(name, async (t) => {
      const { catalogue, upstream } = await setup(t, { ...LISTINGS(), '/teams': listing });
      t.equal(await catalogue.familyOf('a1'), 'unavailable');
      upstream.listings['/teams'] = ['t1'];
      t.equal(await catalogue.familyOf('t1'), 'teams', 'a failed read is not cached');
    });
  }
});

t.test('an unreachable upstream: unavailable; an expired read is not served', async (t) => {
  const { catalogue } = await setup(t, LISTINGS(), { url: await closedPortUrl() });
  t.equal(await catalogue.familyOf('a1'), 'unavailable');
});

t.test(
  'a hit in an expired catalogue still refreshes; a failed refresh is unavailable',
  async (t) => {
    const { catalogue, clock, upstream } = await setup(t, LISTINGS());
    t.equal(await catalogue.familyOf('a1'), 'agents');
    clock.advance(30_000);
    upstream.listings['/agents'] = { status: 503, body: '{}' };
    t.equal(await catalogue.familyOf('a1'), 'unavailable', 'never an expired answer');
  },
);
