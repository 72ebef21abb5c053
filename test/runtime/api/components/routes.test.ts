/**
 * Components and the `POST/PATCH/DELETE /agents|teams|workflows` aliases:
 * create, version, publish, set current, delete; the component listed and runnable as
 * soon as it has a config; configured entities read-only; configs that do not resolve refused.
 */
import t, { type Test } from 'tap';
import {
  call,
  FORM,
  form,
  runtimeApp,
  SETTINGS,
  TEST_NOW,
  type TestRuntime,
} from '../../fixtures/runtime.js';

async function runOf(rt: TestRuntime, path: string, message: string) {
  const res = await rt.app.inject({
    method: 'POST',
    url: `${path}/runs`,
    headers: FORM,
    payload: form({ message, stream: 'false' }),
  });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}

const expectStatus = (
  t: Test,
  res: { status: number; body: unknown },
  status: number,
  what: string,
) => t.equal(res.status, status, `${what}: ${status} (${JSON.stringify(res.body)})`);

t.test('POST /agents creates a component agent: listed, readable and runnable', async (t) => {
  const rt = runtimeApp(t);
  const created = await call(rt, 'POST', '/agents', {
    json: {
      name: 'Helper Bot',
      description: 'Made through the API.',
      config: { instructions: 'Be kind.', tools: ['add'] },
    },
  });
  expectStatus(t, created, 201, 'create');
  t.same(created.body, {
    component_id: 'helper-bot',
    component_type: 'agent',
    name: 'Helper Bot',
    description: 'Made through the API.',
    current_version: 1,
    created_at: TEST_NOW,
    updated_at: TEST_NOW,
  });
  const listed = (await call(rt, 'GET', '/agents')).body as { id: string }[];
  t.same(
    listed.map((a) => a.id),
    ['a1', 'a2', 'helper-bot'],
    'configured agents first, then components',
  );
  t.match((await call(rt, 'GET', '/agents/helper-bot')).body, {
    id: 'helper-bot',
    name: 'Helper Bot',
    description: 'Made through the API.',
    is_component: true,
    current_version: 1,
    stage: 'draft',
    system_message: { instructions: 'Be kind.' },
  });
  const run = await runOf(rt, '/agents/helper-bot', '/tool add {"a": 2, "b": 3}');
  t.equal(run.status, 200);
  t.match(run.body, { agent_id: 'helper-bot', content: 'Tool add returned: 5' });
});

t.test('PATCH /agents/{id}: metadata, and a new config version made current', async (t) => {
  const rt = runtimeApp(t);
  await call(rt, 'POST', '/agents', { json: { name: 'bot', component_id: 'bot', config: {} } });
  const patched = await call(rt, 'PATCH', '/agents/bot', {
    json: {
      name: 'Bot',
      metadata: { team: 'x' },
      config: { instructions: 'v2' },
    },
  });
  expectStatus(t, patched, 200, 'patch');
  t.match(patched.body, { name: 'Bot', metadata: { team: 'x' }, current_version: 2 });
  t.match((await call(rt, 'GET', '/agents/bot')).body, {
    name: 'Bot',
    current_version: 2,
    system_message: { instructions: 'v2' },
  });
  const configs = (await call(rt, 'GET', '/components/bot/configs')).body as { version: number }[];
  t.same(
    configs.map((c) => c.version),
    [1, 2],
  );
});

t.test('DELETE /agents/{id}: gone from the listing; 404 after', async (t) => {
  const rt = runtimeApp(t);
  await call(rt, 'POST', '/agents', { json: { name: 'temp', config: {} } });
  expectStatus(t, await call(rt, 'DELETE', '/agents/temp'), 204, 'delete');
  expectStatus(t, await call(rt, 'GET', '/agents/temp'), 404, 'read after delete');
  const again = await call(rt, 'DELETE', '/agents/temp');
  expectStatus(t, again, 404, 'delete again');
  t.same(again.body, { detail: 'Agent not found' });
});

t.test('configured entities are read-only (409)', async (t) => {
  const rt = runtimeApp(t);
  const rows = [
    { method: 'POST', url: '/agents', body: { name: 'x', component_id: 'a1' }, what: "Agent 'a1'" },
    { method: 'PATCH', url: '/teams/t1', body: { name: 'x' }, what: "Team 't1'" },
    { method: 'DELETE', url: '/workflows/w1', body: undefined, what: "Workflow 'w1'" },
    {
      method: 'POST',
      url: '/components',
      body: { name: 'x', component_id: 'a2', component_type: 'agent' },
      what: "Agent 'a2'",
    },
  ] as const;
  for (const row of rows) {
    const res = await call(rt, row.method, row.url, { json: row.body });
    expectStatus(t, res, 409, `${row.method} ${row.url}`);
    t.same(res.body, { detail: `${row.what} is defined in configuration and is read-only` });
  }
});

t.test('a team and a workflow of components and configured agents', async (t) => {
  const rt = runtimeApp(t);
  await call(rt, 'POST', '/agents', { json: { name: 'member', config: {} } });
  const team = await call(rt, 'POST', '/teams', {
    json: {
      name: 'squad',
      config: { members: ['a2', 'member'] },
    },
  });
  expectStatus(t, team, 201, 'team');
  const flow = await call(rt, 'POST', '/workflows', {
    json: {
      name: 'pipeline',
      config: { steps: [{ name: 'one', team: 'squad' }] },
    },
  });
  expectStatus(t, flow, 201, 'workflow');
  t.match((await call(rt, 'GET', '/teams/squad')).body, {
    is_component: true,
    members: [{ id: 'a2' }, { id: 'member' }],
  });
  const run = await runOf(rt, '/workflows/pipeline', 'hello');
  t.match(run.body, { status: 'COMPLETED', content: 'Echo: hello\n\nEcho: hello' });

  // The member is in use: deleting it would leave the team dangling.
  const refused = await call(rt, 'DELETE', '/agents/member');
  expectStatus(t, refused, 400, 'delete a member');
  t.match(refused.body, {
    detail:
      /^Invalid component config: components\.squad\.v1\.config\.members\.1: no agent "member"/,
  });
  t.equal((await call(rt, 'GET', '/agents/member')).status, 200, 'still there');
});

t.test('configs that do not resolve or parse are refused, naming the key', async (t) => {
  const rt = runtimeApp(t);
  const rows = [
    {
      body: { name: 'bad-tool', config: { tools: ['nope'] } },
      detail: /components\.bad-tool\.v1\.config\.tools\.0: unknown built-in tool "nope"/,
    },
    {
      body: { name: 'bad-key', config: { colour: 'red' } },
      detail: /components\.bad-key\.v1\.config: Unrecognized key: "colour"/,
    },
    {
      body: { name: 'bad-model', config: { model: 'gpt-9' } },
      detail:
        /components\.bad-model\.v1\.config\.model: agent "bad-model" names unknown model "gpt-9"/,
    },
  ];
  for (const row of rows) {
    const res = await call(rt, 'POST', '/agents', { json: row.body });
    expectStatus(t, res, 400, row.body.name);
    t.match(res.body, { detail: row.detail });
    t.equal((await call(rt, 'GET', `/components/${row.body.name}`)).status, 404, 'nothing stored');
  }
});

t.test('request bodies of the wrong shape are 422 in pydantic style', async (t) => {
  const rt = runtimeApp(t);
  const missing = await call(rt, 'POST', '/components', { json: { component_type: 'agent' } });
  expectStatus(t, missing, 422, 'missing name');
  t.same(missing.body, {
    detail: [{ type: 'missing', loc: ['body', 'name'], msg: 'Field required', input: null }],
  });
  const badType = await call(rt, 'POST', '/components', {
    json: { name: 'x', component_type: 'robot' },
  });
  expectStatus(t, badType, 422, 'bad component_type');
  t.same(badType.body, {
    detail: [
      {
        type: 'enum',
        loc: ['body', 'component_type'],
        msg: "Input should be 'agent', 'team' or 'workflow'",
        input: 'robot',
        ctx: { expected: "'agent', 'team' or 'workflow'" },
      },
    ],
  });
  const unknown = await call(rt, 'POST', '/agents', {
    json: { name: 'x', component_type: 'agent' },
  });
  expectStatus(t, unknown, 422, 'component_type on the alias');
  t.same(unknown.body, {
    detail: [
      {
        type: 'extra_forbidden',
        loc: ['body', 'component_type'],
        msg: 'Extra inputs are not permitted',
        input: 'agent',
      },
    ],
  });
  const wrongType = await call(rt, 'POST', '/agents', { json: { name: 5, set_current: 'yes' } });
  t.same(wrongType.body, {
    detail: [
      {
        type: 'string_type',
        loc: ['body', 'name'],
        msg: 'Input should be a valid string',
        input: 5,
      },
      {
        type: 'bool_type',
        loc: ['body', 'set_current'],
        msg: 'Input should be a valid boolean',
        input: 'yes',
      },
    ],
  });
  const badId = await call(rt, 'POST', '/agents', { json: { name: '--', config: {} } });
  expectStatus(t, badId, 400, 'a name that makes no id');
  t.same(badId.body, { detail: "Invalid component id '--'" });
  const empty = await rt.app.inject({ method: 'POST', url: '/components' });
  t.equal(empty.statusCode, 422, 'no body at all');
});

t.test('/components: list, read, update, delete', async (t) => {
  const rt = runtimeApp(t);
  for (const [name, type] of [
    ['first', 'agent'],
    ['second', 'team'],
  ] as const) {
    const config = type === 'team' ? { members: ['a1'] } : {};
    expectStatus(
      t,
      await call(rt, 'POST', '/components', { json: { name, component_type: type, config } }),
      201,
      name,
    );
  }
  rt.clock.advance(10_000);
  expectStatus(
    t,
    await call(rt, 'POST', '/components', {
      json: {
        name: 'third',
        component_type: 'agent',
        set_current: false,
      },
    }),
    201,
    'third',
  );
  const all = (await call(rt, 'GET', '/components')).body as {
    data: { component_id: string }[];
    meta: Record<string, number>;
  };
  t.same(
    all.data.map((c) => c.component_id),
    ['third', 'first', 'second'],
    'newest first',
  );
  t.same(all.meta, { page: 1, limit: 20, total_pages: 1, total_count: 3, search_time_ms: 0 });
  const agents = (await call(rt, 'GET', '/components?component_type=agent&limit=1&page=2'))
    .body as { data: { component_id: string }[]; meta: Record<string, number> };
  t.same(
    agents.data.map((c) => c.component_id),
    ['first'],
  );
  t.equal(agents.meta['total_pages'], 2);
  const badType = await call(rt, 'GET', '/components?component_type=robot');
  expectStatus(t, badType, 422, 'bad filter');
  expectStatus(t, await call(rt, 'GET', '/components?limit=101'), 422, 'limit over 100');

  t.match((await call(rt, 'GET', '/components/third')).body, { component_id: 'third' });
  t.notOk('current_version' in ((await call(rt, 'GET', '/components/third')).body as object));
  t.match(
    (await call(rt, 'GET', '/agents/third')).body,
    { stage: 'draft', current_version: 1 },
    'no current version: listed with its latest draft',
  );
  const unknown = await call(rt, 'GET', '/components/nope');
  expectStatus(t, unknown, 404, 'unknown');
  t.same(unknown.body, { detail: 'Component nope not found' });

  const patched = await call(rt, 'PATCH', '/components/third', {
    json: {
      description: 'now described',
      current_version: 1,
    },
  });
  t.match(patched.body, { description: 'now described', current_version: 1 });
  const badVersion = await call(rt, 'PATCH', '/components/third', { json: { current_version: 9 } });
  expectStatus(t, badVersion, 400, 'unknown current version');
  t.same(badVersion.body, { detail: 'Config third v9 not found' });
  expectStatus(t, await call(rt, 'PATCH', '/components/nope', { json: {} }), 404, 'patch unknown');

  expectStatus(t, await call(rt, 'DELETE', '/components/third'), 204, 'delete');
  expectStatus(t, await call(rt, 'DELETE', '/components/third'), 404, 'delete again');
  expectStatus(t, await call(rt, 'GET', '/agents/third'), 404, 'gone from /agents');
});

t.test('config versions: add, label, read, publish, set current, delete', async (t) => {
  const rt = runtimeApp(t);
  await call(rt, 'POST', '/components', {
    json: { name: 'ver', component_type: 'agent', label: 'one' },
  });
  const v2 = await call(rt, 'POST', '/components/ver/configs', {
    json: {
      config: { instructions: 'second' },
      label: 'two',
      set_current: false,
    },
  });
  expectStatus(t, v2, 201, 'v2');
  t.same(v2.body, {
    component_id: 'ver',
    version: 2,
    label: 'two',
    stage: 'draft',
    config: { instructions: 'second' },
    created_at: TEST_NOW,
    updated_at: TEST_NOW,
  });
  const rows = [
    {
      body: { config: {}, label: 'two' },
      detail: "Label 'two' is already used by ver",
    },
    { body: { config: {}, version: 1 }, detail: 'Config ver v1 already exists' },
  ];
  for (const row of rows) {
    const res = await call(rt, 'POST', '/components/ver/configs', { json: row.body });
    expectStatus(t, res, 400, row.detail);
    t.same(res.body, { detail: row.detail });
  }
  const noComponent = await call(rt, 'POST', '/components/nope/configs', { json: { config: {} } });
  expectStatus(t, noComponent, 400, 'configs of an unknown component');
  t.same(noComponent.body, { detail: 'Component nope not found' });

  t.match((await call(rt, 'GET', '/components/ver/configs/current')).body, { version: 1 });
  t.match((await call(rt, 'GET', '/components/ver/configs/2')).body, { label: 'two' });
  const list = (await call(rt, 'GET', '/components/ver/configs?include_config=false'))
    .body as object[];
  t.notOk(
    list.some((c) => 'config' in c),
    'include_config=false leaves configs out',
  );
  for (const version of ['9', 'x']) {
    const res = await call(rt, 'GET', `/components/ver/configs/${version}`);
    expectStatus(t, res, 404, `v${version}`);
    t.same(res.body, { detail: `Config ver v${version} not found` });
  }

  // Only a published version can be made current through set-current.
  const draft = await call(rt, 'POST', '/components/ver/configs/2/set-current');
  expectStatus(t, draft, 404, 'set-current of a draft');
  t.same(draft.body, { detail: 'Component ver or config version 2 not found' });
  const edited = await call(rt, 'PATCH', '/components/ver/configs/2', {
    json: {
      config: { instructions: 'edited' },
      notes: 'ready',
      label: 'two',
    },
  });
  t.match(edited.body, { config: { instructions: 'edited' }, notes: 'ready' });
  const published = await call(rt, 'PATCH', '/components/ver/configs/2', {
    json: { stage: 'published' },
  });
  t.match(published.body, { stage: 'published' });
  t.match(
    (await call(rt, 'GET', '/components/ver')).body,
    { current_version: 2 },
    'publishing made it current',
  );
  const frozen = await call(rt, 'PATCH', '/components/ver/configs/2', { json: { notes: 'late' } });
  expectStatus(t, frozen, 400, 'edit a published config');
  t.same(frozen.body, { detail: 'Cannot update published config ver v2' });
  const setCurrent = await call(rt, 'POST', '/components/ver/configs/2/set-current');
  expectStatus(t, setCurrent, 200, 'set-current of a published version');
  t.match(setCurrent.body, { current_version: 2 });

  const current = await call(rt, 'DELETE', '/components/ver/configs/2');
  expectStatus(t, current, 400, 'delete the current version');
  t.same(current.body, { detail: 'Cannot delete current config ver v2' });
  expectStatus(t, await call(rt, 'DELETE', '/components/ver/configs/1'), 204, 'delete v1');
  expectStatus(t, await call(rt, 'DELETE', '/components/ver/configs/1'), 404, 'delete v1 again');
  const published3 = await call(rt, 'POST', '/components/ver/configs', {
    json: {
      config: {},
      stage: 'published',
      set_current: false,
    },
  });
  t.match(published3.body, { version: 3, stage: 'published' });
  t.match(
    (await call(rt, 'GET', '/components/ver')).body,
    { current_version: 3 },
    'a published new version is current',
  );
  const noneCurrent = await call(rt, 'POST', '/components', {
    json: {
      name: 'empty',
      component_type: 'agent',
      set_current: false,
    },
  });
  expectStatus(t, noneCurrent, 201, 'no current');
  await call(rt, 'DELETE', '/components/empty/configs/1');
  const nothing = await call(rt, 'GET', '/components/empty/configs/current');
  expectStatus(t, nothing, 404, 'no config at all');
  t.same(nothing.body, { detail: 'No current config for empty' });
  t.equal((await call(rt, 'GET', '/agents/empty')).status, 404, 'not listed without a config');
  const fresh = await call(rt, 'POST', '/components/empty/configs', { json: { config: {} } });
  t.match(fresh.body, { version: 1 }, 'numbering starts again at 1 when none is left');
  const noSuch = await call(rt, 'POST', '/components/nope/configs/1/set-current');
  expectStatus(t, noSuch, 404, 'set-current of an unknown component');
  t.same(noSuch.body, { detail: 'Component nope or config version 1 not found' });
});

t.test('a duplicate id is 400; a type can be changed by PATCH', async (t) => {
  const rt = runtimeApp(t);
  await call(rt, 'POST', '/components', { json: { name: 'dup', component_type: 'agent' } });
  const dup = await call(rt, 'POST', '/components', {
    json: { name: 'dup', component_type: 'agent' },
  });
  expectStatus(t, dup, 400, 'duplicate');
  t.same(dup.body, { detail: 'Component dup already exists' });
  const retyped = await call(rt, 'PATCH', '/components/dup', {
    json: { component_type: 'workflow' },
  });
  expectStatus(t, retyped, 400, 'an empty config is no workflow');
  t.match(retyped.body, { detail: /components\.dup\.v1\.config\.steps: / });
  const agentAlias = await call(rt, 'PATCH', '/teams/dup', { json: { name: 'x' } });
  expectStatus(t, agentAlias, 404, 'an agent component is no team');
  t.same(agentAlias.body, { detail: 'Team not found' });
});

t.test('a stored component that no longer resolves is skipped at start', async (t) => {
  const first = runtimeApp(t);
  await call(first, 'POST', '/agents', { json: { name: 'lonely', config: {} } });
  await call(first, 'POST', '/teams', { json: { name: 'crew', config: { members: ['lonely'] } } });
  // Break the team behind the API's back: its member's config no longer parses.
  await first.store.components.putConfig({
    ...((await first.store.components.config('lonely', 1)) as NonNullable<
      Awaited<ReturnType<typeof first.store.components.config>>
    >),
    config: { tools: ['nope'] },
  });
  const second = runtimeApp(t, { store: first.store });
  const { createLiveCatalogue } = await import('../../../../src/runtime/catalogue/live.js');
  const { buildCatalogue } = await import('../../../../src/runtime/catalogue/resolve.js');
  const live = await createLiveCatalogue(
    buildCatalogue(SETTINGS).settings as NonNullable<ReturnType<typeof buildCatalogue>['settings']>,
    first.store.components,
  );
  t.match(live.skipped, [
    /^components\.lonely\.v1\.config\.tools\.0: unknown built-in tool "nope"/,
  ]);
  t.equal((await call(second, 'GET', '/agents/lonely')).status, 404);
  t.equal((await call(second, 'GET', '/teams/crew')).status, 404, 'its team goes with it');
  t.equal((await call(second, 'GET', '/agents/a1')).status, 200, 'the rest is served');
  // A later unrelated change is not blocked by the problems that were already there.
  expectStatus(
    t,
    await call(second, 'POST', '/agents', { json: { name: 'fresh', config: {} } }),
    201,
    'new',
  );
});
