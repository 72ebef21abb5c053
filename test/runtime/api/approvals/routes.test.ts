/**
 * Approvals: a run paused on a tool that needs approval creates one;
 * the list, count, read and status routes; resolving approves or rejects and resumes the run
 * (checked in the stored run); 409 on a second resolve; continuing directly resolves it too;
 * audit records; cancel; delete; isolation between two confined users.
 */
import t from 'tap';
import {
  contextHeader,
  FORM,
  form,
  runtimeApp,
  TEST_NOW,
  type TestRuntime,
} from '../../fixtures/runtime.js';

/** One agent with a tool of every kind that stops a run, plus an audited one. */
const SETTINGS = {
  os_id: 'approval-tests',
  db: ':memory:',
  agents: [
    {
      id: 'guarded',
      name: 'Guarded',
      tools: [
        // Needs approval: waits for confirmation.
        { name: 'add', description: 'Adds two numbers.', approval_type: 'required' },
        // Waits for confirmation, no approval.
        { name: 'echo', requires_confirmation: true },
        // Needs approval: waits for the user's value.
        {
          name: 'set_state',
          requires_user_input: true,
          user_input_schema: [{ name: 'value', description: 'The value to store.' }],
          approval_type: 'required',
        },
        // Needs approval: executed by the client.
        { name: 'ask', external_execution: true, approval_type: 'required' },
        // Runs at once; recorded.
        { name: 'get_state', approval_type: 'audit' },
        // Waits for confirmation; recorded once decided.
        { name: 'fail', requires_confirmation: true, approval_type: 'audit' },
      ],
    },
  ],
  teams: [{ id: 'crew', name: 'Crew', members: ['guarded'] }],
  workflows: [{ id: 'flow', name: 'Flow', steps: [{ name: 'only', agent: 'guarded' }] }],
};

const ADMIN = contextHeader({ user_id: 'root', is_admin: true });
const ALICE = contextHeader({ user_id: 'alice', scoped_user_id: 'alice' });
const BOB = contextHeader({ user_id: 'bob', scoped_user_id: 'bob' });

async function run(
  rt: TestRuntime,
  message: string,
  headers: Record<string, string> = {},
  path = '/agents/guarded',
): Promise<Record<string, unknown>> {
  const res = await rt.app.inject({
    method: 'POST',
    url: `${path}/runs`,
    headers: { ...FORM, ...headers },
    payload: form({ message, stream: 'false' }),
  });
  return res.json() as Record<string, unknown>;
}

async function resolve(
  rt: TestRuntime,
  id: string,
  body: unknown,
  headers: Record<string, string> = ADMIN,
) {
  return rt.app.inject({
    method: 'POST',
    url: `/approvals/${id}/resolve`,
    headers,
    payload: body as object,
  });
}

async function get(rt: TestRuntime, url: string, headers: Record<string, string> = {}) {
  return rt.app.inject({ method: 'GET', url, headers });
}

const approvalIdOf = (output: Record<string, unknown>): string =>
  (output['tools'] as Record<string, unknown>[])[0]?.['approval_id'] as string;

t.test('a run paused on a tool that needs approval creates a pending approval', async (t) => {
  const rt = runtimeApp(t, { settings: SETTINGS });
  const output = await run(rt, '/tool add {"a": 1, "b": 2}', ALICE);
  t.equal(output['status'], 'PAUSED');
  const [tool] = output['tools'] as Record<string, unknown>[];
  t.match(tool, {
    tool_name: 'add',
    requires_confirmation: true,
    confirmed: null,
    approval_type: 'required',
    approval_id: String,
  });
  const [requirement] = output['requirements'] as Record<string, unknown>[];
  const id = approvalIdOf(output);

  const res = await get(rt, `/approvals/${id}`, ALICE);
  t.equal(res.statusCode, 200);
  t.same(res.json(), {
    id,
    run_id: output['run_id'],
    session_id: output['session_id'],
    status: 'pending',
    source_type: 'agent',
    approval_type: 'required',
    pause_type: 'confirmation',
    tool_name: 'add',
    tool_args: { a: 1, b: 2 },
    expires_at: null,
    agent_id: 'guarded',
    team_id: null,
    workflow_id: null,
    user_id: 'alice',
    schedule_id: null,
    schedule_run_id: null,
    source_name: 'Guarded',
    requirements: [requirement],
    context: { tool_names: ['add'], source_name: 'Guarded' },
    resolution_data: null,
    resolved_by: null,
    resolved_at: null,
    run_status: 'PAUSED',
    created_at: TEST_NOW,
    updated_at: TEST_NOW,
  });
  t.same((await get(rt, `/approvals/${id}/status`, ALICE)).json(), {
    approval_id: id,
    status: 'pending',
    run_id: output['run_id'],
    resolved_at: null,
    resolved_by: null,
  });
  t.same((await get(rt, '/approvals/count')).json(), { count: 1 });
  const list = (await get(rt, '/approvals')).json();
  t.same(list.meta, { page: 1, limit: 100, total_pages: 1, total_count: 1, search_time_ms: 0 });
  t.equal(list.data[0].id, id);
});

t.test('approving resumes the run: the tool runs and the model answers', async (t) => {
  const rt = runtimeApp(t, { settings: SETTINGS });
  const output = await run(rt, '/tool add {"a": 1, "b": 2}', ALICE);
  const id = approvalIdOf(output);
  rt.clock.advance(5_000);
  const res = await resolve(rt, id, { status: 'approved', resolved_by: 'ignored' });
  t.equal(res.statusCode, 200);
  t.match(res.json(), {
    id,
    status: 'approved',
    resolved_by: 'root',
    resolved_at: TEST_NOW + 5,
    run_status: 'COMPLETED',
  });
  const stored = await rt.store.getRun(output['run_id'] as string);
  t.equal(stored?.status, 'COMPLETED');
  t.equal(stored?.output['content'], 'Tool add returned: 3');
  t.match((stored?.output['tools'] as unknown[])[0], { confirmed: true, result: '3' });

  const again = await resolve(rt, id, { status: 'rejected' });
  t.equal(again.statusCode, 409);
  t.same(again.json(), { detail: "Approval is already 'approved' and cannot be resolved" });
});

t.test('rejecting resumes the run: the tool is not run and the model says so', async (t) => {
  const rt = runtimeApp(t, { settings: SETTINGS });
  const output = await run(rt, '/tool add {"a": 1, "b": 2}');
  const id = approvalIdOf(output);
  // Without a gateway identity, the body's resolved_by is kept.
  const res = await resolve(
    rt,
    id,
    { status: 'rejected', resolved_by: 'ops', resolution_data: { why: 'no' } },
    {},
  );
  t.match(res.json(), {
    status: 'rejected',
    resolved_by: 'ops',
    resolution_data: { why: 'no' },
    run_status: 'COMPLETED',
  });
  const stored = await rt.store.getRun(output['run_id'] as string);
  t.equal(stored?.output['content'], 'Tool add was rejected');
  t.match((stored?.output['tools'] as unknown[])[0], {
    confirmed: false,
    tool_call_error: true,
    result: 'Function call was rejected by the user',
  });
});

t.test('continuing the run directly resolves its approval', async (t) => {
  const rt = runtimeApp(t, { settings: SETTINGS });
  for (const [confirmed, status, content] of [
    [true, 'approved', 'Tool add returned: 3'],
    [false, 'rejected', 'Tool add was rejected'],
  ] as const) {
    const output = await run(rt, '/tool add {"a": 1, "b": 2}');
    const tools = (output['tools'] as Record<string, unknown>[]).map((tool) => ({
      ...tool,
      confirmed,
      confirmation_note: 'by hand',
    }));
    const res = await rt.app.inject({
      method: 'POST',
      url: `/agents/guarded/runs/${output['run_id'] as string}/continue`,
      headers: { ...FORM, ...contextHeader({ user_id: 'carol', scopes: ['approvals:write'] }) },
      payload: form({
        tools: JSON.stringify(tools),
        session_id: output['session_id'] as string,
        stream: 'false',
      }),
    });
    t.equal(res.json().content, content);
    t.match((await get(rt, `/approvals/${approvalIdOf(output)}`)).json(), {
      status,
      resolved_by: 'carol',
      run_status: 'COMPLETED',
    });
  }
});

t.test(
  'with RBAC on, only an approver may continue a run that awaits approval (403)',
  async (t) => {
    const rt = runtimeApp(t, { settings: SETTINGS });
    const output = await run(rt, '/tool add {"a": 1, "b": 2}');
    const tools = (output['tools'] as Record<string, unknown>[]).map((tool) => ({
      ...tool,
      confirmed: true,
    }));
    const continueAs = (headers: Record<string, string>) =>
      rt.app.inject({
        method: 'POST',
        url: `/agents/guarded/runs/${output['run_id'] as string}/continue`,
        headers: { ...FORM, ...headers },
        payload: form({
          tools: JSON.stringify(tools),
          session_id: output['session_id'] as string,
          stream: 'false',
        }),
      });
    const runner = await continueAs(contextHeader({ user_id: 'dave', scopes: ['agents:run'] }));
    t.equal(runner.statusCode, 403);
    t.same(runner.json(), {
      detail: 'This run requires admin approval before it can be continued',
    });
    t.match((await get(rt, `/approvals/${approvalIdOf(output)}`)).json(), { status: 'pending' });
    t.match(
      (
        await get(
          rt,
          `/agents/guarded/runs/${output['run_id'] as string}?session_id=${output['session_id'] as string}`,
        )
      ).json(),
      {
        status: 'PAUSED',
      },
    );
    // Without RBAC (authorization off) the gateway let the caller through: no gate.
    const open = await continueAs(contextHeader({ user_id: 'dave', authorization_enabled: false }));
    t.equal(open.statusCode, 200);
    t.match(open.json(), { status: 'COMPLETED', content: 'Tool add returned: 3' });
  },
);

t.test('a continue must settle every held call the way it waits', async (t) => {
  const rt = runtimeApp(t, { settings: SETTINGS });
  const cases = [
    ['/tool echo {"text": "hi"}', 'Tool echo requires confirmation, cannot continue run'],
    ['/tool set_state {"key": "k"}', 'Tool set_state requires user input, cannot continue run'],
    ['/tool ask {}', 'Tool ask requires external execution, cannot continue run'],
  ] as const;
  for (const [message, detail] of cases) {
    const output = await run(rt, message);
    const res = await rt.app.inject({
      method: 'POST',
      url: `/agents/guarded/runs/${output['run_id'] as string}/continue`,
      headers: FORM,
      payload: form({
        tools: JSON.stringify(output['tools']),
        session_id: output['session_id'] as string,
        stream: 'false',
      }),
    });
    t.equal(res.statusCode, 400, message);
    t.same(res.json(), { detail });
  }
});

t.test('user input: an approval with the values resumes; without them the run waits', async (t) => {
  const rt = runtimeApp(t, { settings: SETTINGS });
  const first = await run(rt, '/tool set_state {"key": "color"}');
  t.match((first['tools'] as unknown[])[0], {
    requires_user_input: true,
    user_input_schema: [
      { name: 'value', field_type: 'str', description: 'The value to store.', value: null },
    ],
  });
  const res = await resolve(
    rt,
    approvalIdOf(first),
    { status: 'approved', resolution_data: { value: 'blue' } },
    {},
  );
  t.match(res.json(), {
    status: 'approved',
    resolved_by: null,
    run_status: 'COMPLETED',
    pause_type: 'user_input',
  });
  const done = await rt.store.getRun(first['run_id'] as string);
  t.equal(done?.output['content'], 'Tool set_state returned: ok');
  t.same(done?.output['session_state'], { color: 'blue' });
  t.match((done?.output['tools'] as unknown[])[0], {
    answered: true,
    tool_args: { key: 'color', value: 'blue' },
  });

  const second = await run(rt, '/tool set_state {"key": "shade"}');
  const waiting = await resolve(rt, approvalIdOf(second), { status: 'approved' });
  t.match(waiting.json(), { status: 'approved', run_status: 'PAUSED' });
  const tools = (second['tools'] as Record<string, unknown>[]).map((tool) => ({
    ...tool,
    user_input_schema: [{ name: 'value', value: 'dark' }, { name: 'other', value: null }, 'junk'],
  }));
  const cont = await rt.app.inject({
    method: 'POST',
    url: `/agents/guarded/runs/${second['run_id'] as string}/continue`,
    headers: FORM,
    payload: form({
      tools: JSON.stringify(tools),
      session_id: second['session_id'] as string,
      stream: 'false',
    }),
  });
  t.equal(cont.json().content, 'Tool set_state returned: ok');
  t.equal((await get(rt, `/approvals/${approvalIdOf(second)}`)).json().run_status, 'COMPLETED');
});

t.test(
  'a client-executed tool: the approval lets the client continue with its result',
  async (t) => {
    const rt = runtimeApp(t, { settings: SETTINGS });
    const output = await run(rt, '/tool ask {"q": "why"}', {}, '/teams/crew');
    t.equal(output['status'], 'PAUSED');
    const requirements = output['requirements'] as Record<string, unknown>[];
    const tool = requirements[0]?.['tool_execution'] as Record<string, unknown>;
    const id = tool['approval_id'] as string;
    t.match((await get(rt, `/approvals/${id}`)).json(), {
      source_type: 'team',
      team_id: 'crew',
      agent_id: null,
      source_name: 'Crew',
      pause_type: 'external_execution',
    });
    const res = await resolve(rt, id, { status: 'approved' });
    t.match(res.json(), { status: 'approved', run_status: 'PAUSED' });
    const cont = await rt.app.inject({
      method: 'POST',
      url: `/teams/crew/runs/${output['run_id'] as string}/continue`,
      headers: FORM,
      payload: form({
        requirements: JSON.stringify(
          requirements.map((r) => ({ ...r, external_execution_result: 'because' })),
        ),
        session_id: output['session_id'] as string,
        stream: 'false',
      }),
    });
    t.equal(cont.json().status, 'COMPLETED');
    t.equal((await get(rt, `/approvals/${id}`)).json().run_status, 'COMPLETED');
  },
);

t.test('rejecting a workflow step’s client-executed tool resumes the workflow', async (t) => {
  const rt = runtimeApp(t, { settings: SETTINGS });
  const output = await run(rt, '/tool ask {}', {}, '/workflows/flow');
  t.equal(output['status'], 'PAUSED');
  const [approval] = (await get(rt, '/approvals?workflow_id=flow')).json().data;
  t.match(approval, { source_type: 'workflow', workflow_id: 'flow', source_name: 'Flow' });
  const res = await resolve(rt, approval.id, { status: 'rejected' });
  t.match(res.json(), { status: 'rejected', run_status: 'COMPLETED' });
  t.equal(
    (await rt.store.getRun(output['run_id'] as string))?.output['content'],
    'Tool ask was rejected',
  );
});

t.test('audit tools run at once and are recorded already resolved', async (t) => {
  const rt = runtimeApp(t, { settings: SETTINGS });
  const output = await run(rt, '/tool get_state {"key": "k"}', ALICE);
  t.equal(output['status'], 'COMPLETED');
  const [tool] = output['tools'] as Record<string, unknown>[];
  t.match(tool, { approval_type: 'audit', approval_id: String });
  t.match((await get(rt, `/approvals/${tool?.['approval_id'] as string}`)).json(), {
    status: 'approved',
    approval_type: 'audit',
    pause_type: null,
    tool_name: 'get_state',
    user_id: 'alice',
    resolved_at: TEST_NOW,
    run_status: 'COMPLETED',
  });
  t.same((await get(rt, '/approvals/count')).json(), { count: 0 }, 'nothing pending');

  // An audited tool that waits for confirmation is recorded once decided.
  const paused = await run(rt, '/tool fail {}');
  t.same((await get(rt, '/approvals?approval_type=audit')).json().meta.total_count, 1);
  const tools = (paused['tools'] as Record<string, unknown>[]).map((t) => ({
    ...t,
    confirmed: false,
  }));
  await rt.app.inject({
    method: 'POST',
    url: `/agents/guarded/runs/${paused['run_id'] as string}/continue`,
    headers: FORM,
    payload: form({
      tools: JSON.stringify(tools),
      session_id: paused['session_id'] as string,
      stream: 'false',
    }),
  });
  const audits = (await get(rt, '/approvals?approval_type=audit&pause_type=confirmation')).json();
  t.match(audits.data, [{ status: 'rejected', tool_name: 'fail', run_status: 'COMPLETED' }]);
});

t.test('cancelling a paused run cancels its pending approval', async (t) => {
  const rt = runtimeApp(t, { settings: SETTINGS });
  const output = await run(rt, '/tool add {"a": 1, "b": 2}');
  await rt.app.inject({
    method: 'POST',
    url: `/agents/guarded/runs/${output['run_id'] as string}/cancel?session_id=${output['session_id'] as string}`,
  });
  const id = approvalIdOf(output);
  t.match((await get(rt, `/approvals/${id}`)).json(), {
    status: 'cancelled',
    run_status: 'CANCELLED',
  });
  const res = await resolve(rt, id, { status: 'approved' });
  t.same(res.json(), { detail: "Approval is already 'cancelled' and cannot be resolved" });
});

t.test('resolving leaves a run alone that is no longer paused or no longer served', async (t) => {
  const rt = runtimeApp(t, { settings: SETTINGS });
  const output = await run(rt, '/tool add {"a": 1, "b": 2}');
  const id = approvalIdOf(output);
  // The session (and its run) deleted: the approval outlives it and is still resolved.
  await rt.store.deleteSession(output['session_id'] as string);
  t.match((await resolve(rt, id, { status: 'approved' })).json(), {
    status: 'approved',
    run_status: 'PAUSED',
  });

  // A component agent deleted while its run waits.
  const created = await rt.app.inject({
    method: 'POST',
    url: '/components',
    payload: {
      name: 'Temp',
      component_id: 'temp',
      component_type: 'agent',
      config: { id: 'temp', name: 'Temp', tools: [{ name: 'add', approval_type: 'required' }] },
      stage: 'published',
    },
  });
  t.equal(created.statusCode, 201);
  const temp = await run(rt, '/tool add {"a": 1, "b": 1}', {}, '/agents/temp');
  t.equal(temp['status'], 'PAUSED');
  t.equal((await rt.app.inject({ method: 'DELETE', url: '/components/temp' })).statusCode, 204);
  t.match((await resolve(rt, approvalIdOf(temp), { status: 'approved' })).json(), {
    status: 'approved',
    run_status: 'PAUSED',
  });
  t.equal((await rt.store.getRun(temp['run_id'] as string))?.status, 'PAUSED');
});

t.test('list filters, pagination and bad parameters', async (t) => {
  const rt = runtimeApp(t, { settings: SETTINGS });
  for (let i = 0; i < 3; i++) {
    await run(rt, '/tool add {"a": 1, "b": 2}');
    rt.clock.advance(1_000);
  }
  const page = (await get(rt, '/approvals?limit=2&page=2')).json();
  t.same(page.meta, { page: 2, limit: 2, total_pages: 2, total_count: 3, search_time_ms: 0 });
  t.equal(page.data.length, 1);
  t.equal(page.data[0].created_at, TEST_NOW, 'newest first: the oldest is last');
  t.equal((await get(rt, '/approvals?page=0')).json().meta.page, 1);
  t.equal((await get(rt, '/approvals?status=approved')).json().meta.total_count, 0);
  const tooBig = await get(rt, '/approvals?limit=1001');
  t.equal(tooBig.statusCode, 422);
  t.match(tooBig.json(), { detail: [{ type: 'less_than_equal', loc: ['query', 'limit'] }] });
  const bad = await resolve(rt, 'x', { status: 'maybe' });
  t.equal(bad.statusCode, 422);
  t.match(bad.json(), { detail: [{ type: 'enum', loc: ['body', 'status'] }] });
  t.same((await resolve(rt, 'nope', { status: 'approved' })).json(), {
    detail: 'Approval not found',
  });
  t.same((await get(rt, '/approvals/nope')).json(), { detail: 'Approval not found' });
});

t.test('delete: 204, then 500 when there is nothing to delete', async (t) => {
  const rt = runtimeApp(t, { settings: SETTINGS });
  const id = approvalIdOf(await run(rt, '/tool add {"a": 1, "b": 2}'));
  const res = await rt.app.inject({ method: 'DELETE', url: `/approvals/${id}`, headers: ADMIN });
  t.equal(res.statusCode, 204);
  t.equal(res.body, '');
  const again = await rt.app.inject({ method: 'DELETE', url: `/approvals/${id}` });
  t.equal(again.statusCode, 500);
  t.same(again.json(), { detail: 'Failed to delete approval' });
});

t.test('isolation: a confined user sees only its own approvals and resolves none', async (t) => {
  const rt = runtimeApp(t, { settings: SETTINGS });
  const alices = approvalIdOf(await run(rt, '/tool add {"a": 1, "b": 2}', ALICE));
  const bobs = approvalIdOf(await run(rt, '/tool add {"a": 2, "b": 2}', BOB));

  const list = (await get(rt, '/approvals?user_id=bob', ALICE)).json();
  t.same(
    list.data.map((a: { id: string }) => a.id),
    [alices],
    'the user_id filter is replaced by the caller',
  );
  t.same((await get(rt, '/approvals/count?user_id=bob', ALICE)).json(), { count: 1 });
  t.same((await get(rt, '/approvals/count?user_id=bob')).json(), { count: 1 }, 'a plain filter');
  t.same((await get(rt, '/approvals/count', ADMIN)).json(), { count: 2 });
  for (const url of [`/approvals/${bobs}`, `/approvals/${bobs}/status`]) {
    const res = await get(rt, url, ALICE);
    t.equal(res.statusCode, 404, url);
    t.same(res.json(), { detail: 'Approval not found' });
  }
  for (const id of [alices, bobs]) {
    const res = await resolve(rt, id, { status: 'approved' }, ALICE);
    t.equal(res.statusCode, 404);
    t.same(res.json(), { detail: 'Approval not found' });
    const del = await rt.app.inject({ method: 'DELETE', url: `/approvals/${id}`, headers: ALICE });
    t.equal(del.statusCode, 404);
    t.same(del.json(), { detail: 'Approval not found' });
  }
  t.equal((await get(rt, `/approvals/${alices}`, ALICE)).json().status, 'pending');
  t.equal((await get(rt, `/approvals/${bobs}`, BOB)).json().user_id, 'bob');
});
