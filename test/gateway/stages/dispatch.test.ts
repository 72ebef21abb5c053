/**
 * The dispatch stage: which routes are dynamic dispatch (under any prefix), and the decision it
 * hands on — the target's `<family>:run` after the coarse scopes, listed once, held globally or
 * for that id — resolved against a real catalogue upstream. Refusal statuses and details are
 * covered end to end in test/e2e/dispatch.test.ts.
 */
import t, { type Test } from 'tap';
import { Pool } from 'undici';
import type { BodyRead } from '../../../src/gateway/body.js';
import { createCatalogue } from '../../../src/gateway/catalogue.js';
import { catalogueContext, encodeIdentity } from '../../../src/gateway/identity.js';
import {
  checkDispatch,
  isDispatchRoute,
  type DispatchSettings,
} from '../../../src/gateway/stages/dispatch.js';
import type { Requirement } from '../../../src/policy/compile.js';
import type { Decision } from '../../../src/policy/decide.js';
import { compileGrants, parseScope, type ParsedScope } from '../../../src/policy/scopes.js';
import { startCatalogueUpstream } from '../../fixtures/catalogue-upstream.js';
import { createTestClock } from '../../fixtures/tokens.js';

async function settingsFor(t: Test, prefix: string[] = ['a2a']): Promise<DispatchSettings> {
  const upstream = await startCatalogueUpstream(t, {
    '/agents': ['a1'],
    '/teams': ['t1'],
    '/workflows': ['w1'],
  });
  const pool = new Pool(upstream.url);
  t.teardown(() => pool.destroy());
  return {
    prefix,
    maxBodyBytes: 1024,
    catalogue: createCatalogue({
      dispatcher: pool,
      basePath: '',
      token: null,
      identity: encodeIdentity(catalogueContext({ rbacEnabled: true, userIsolation: false }), null),
      ttlSeconds: 30,
      timeoutMs: 5000,
      clock: createTestClock(),
    }),
  };
}

const requirement = (raw: string): Requirement => ({
  raw,
  scope: parseScope(raw, 'agent_os:admin') as ParsedScope,
});

/** An allowed coarse decision requiring `required`. */
const coarse = (required: Requirement[]): Decision => ({
  allow: true,
  reason: required.length === 0 ? 'no_scopes_required' : 'scopes_satisfied',
  route: null,
  required,
  missing: [],
  resource: null,
  accessibleResourceIds: null,
});

const body = (agentId: string): (() => Promise<BodyRead>) => {
  return () =>
    Promise.resolve({
      ok: true,
      body: Buffer.from(JSON.stringify({ params: { message: { agentId } } })),
    });
};

t.test('isDispatchRoute: POST <prefix>/message/send|stream only', async (t) => {
  const settings = await settingsFor(t, ['api', 'a2a']);
  const rows: [string, string[], boolean][] = [
    ['POST', ['api', 'a2a', 'message', 'send'], true],
    ['POST', ['api', 'a2a', 'message', 'stream'], true],
    ['GET', ['api', 'a2a', 'message', 'send'], false],
    ['POST', ['a2a', 'message', 'send'], false],
    ['POST', ['api', 'x2a', 'message', 'send'], false],
    ['POST', ['api', 'a2a', 'message', 'get'], false],
    ['POST', ['api', 'a2a', 'messages', 'send'], false],
    ['POST', ['api', 'a2a', 'message', 'send', 'x'], false],
  ];
  for (const [method, segments, expected] of rows) {
    t.equal(
      isDispatchRoute(settings, method, segments),
      expected,
      `${method} /${segments.join('/')}`,
    );
  }
});

t.test('the target requirement follows the coarse one, once', async (t) => {
  const settings = await settingsFor(t);
  const agentsRun = requirement('agents:run');
  const check = (target: string, required: Requirement[], scopes: string[]) =>
    checkDispatch(settings, {
      headers: {},
      agentIdHeaders: undefined,
      decision: coarse(required),
      grants: compileGrants(scopes, 'agent_os:admin'),
      readBody: body(target),
    });

  const agent = await check('a1', [agentsRun], ['agents:run']);
  t.ok(agent?.ok);
  if (agent?.ok) {
    t.same(
      agent.value.decision.required.map((r) => r.raw),
      ['agents:run'],
      'agents:run is not listed twice',
    );
    t.same(agent.value.decision.resource, { family: 'agents', id: 'a1' });
    t.equal(agent.value.body.toString(), '{"params":{"message":{"agentId":"a1"}}}');
  }

  const team = await check('t1', [agentsRun], ['agents:run', 'teams:t1:run']);
  t.ok(team?.ok);
  if (team?.ok) {
    t.same(
      team.value.decision.required.map((r) => r.raw),
      ['agents:run', 'teams:run'],
    );
    t.equal(team.value.decision.allow, true);
  }

  // An operator who remapped the coarse gate (to nothing) cannot remove the family check.
  const open = await check('a1', [], []);
  t.same(open, {
    ok: false,
    code: 'SG_ERR_SCOPE_INSUFFICIENT',
    params: { scopes: ['agents:run'] },
  });
  const remapped = await check('w1', [requirement('a2a:dispatch')], ['a2a:dispatch']);
  t.same(remapped, {
    ok: false,
    code: 'SG_ERR_SCOPE_INSUFFICIENT',
    params: { scopes: ['a2a:dispatch', 'workflows:run'] },
  });
  const admin = await check('w1', [agentsRun], ['agent_os:admin']);
  t.equal(admin?.ok, true, 'the admin scope holds every family');
});

t.test('a client gone mid-body is null; over the bound is 413 with the bound', async (t) => {
  const settings = await settingsFor(t);
  const base = {
    headers: {},
    agentIdHeaders: undefined,
    decision: coarse([]),
    grants: compileGrants([], 'agent_os:admin'),
  };
  t.equal(
    await checkDispatch(settings, {
      ...base,
      readBody: () => Promise.resolve({ ok: false, reason: 'aborted' }),
    }),
    null,
  );
  let bound = 0;
  t.same(
    await checkDispatch(settings, {
      ...base,
      readBody: (maxBytes) => {
        bound = maxBytes;
        return Promise.resolve({ ok: false, reason: 'too_large' });
      },
    }),
    { ok: false, code: 'SG_ERR_DISPATCH_BODY_TOO_LARGE', params: { limit: 1024 } },
  );
  t.equal(bound, 1024, 'read with a2a.max_dispatch_body_bytes');
});
