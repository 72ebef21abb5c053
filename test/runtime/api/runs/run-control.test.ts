/**
 * Continue, cancel and read runs: a paused agent, team and workflow
 * run continued with the client's tool results from a form, every refusal of continue, cancel
 * of a live and of a paused run, ownership for confined callers, and GET of a session's runs.
 */
import t, { type Test } from 'tap';
import {
  contextHeader,
  deferred,
  FORM,
  form,
  runtimeApp,
  sseFrames,
  type TestRuntime,
} from '../../fixtures/runtime.js';

const PICK = '/tool pick_color {}';

async function post(
  rt: TestRuntime,
  url: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return rt.app.inject({
    method: 'POST',
    url,
    headers: { ...FORM, ...headers },
    payload: form(fields),
  });
}

/** Starts a run that pauses on a client tool; returns its ids and paused output. */
async function paused(
  t: Test,
  rt: TestRuntime,
  path = '/agents/a1',
  headers: Record<string, string> = {},
): Promise<{ runId: string; sessionId: string; output: Record<string, unknown> }> {
  const res = await post(rt, `${path}/runs`, { message: PICK, stream: 'false' }, headers);
  t.equal(res.statusCode, 200);
  const output = res.json() as Record<string, unknown>;
  t.equal(output['status'], 'PAUSED', `${path} paused`);
  return { runId: output['run_id'] as string, sessionId: output['session_id'] as string, output };
}

/** The paused tool calls of an agent run's output, each answered `result`. */
function answered(output: Record<string, unknown>, result: string): string {
  const tools = output['tools'] as Record<string, unknown>[];
  return JSON.stringify(tools.map((tool) => ({ ...tool, result })));
}

t.test(
  'an agent run paused on a client tool continues with its result (JSON answer)',
  async (t) => {
    const rt = runtimeApp(t);
    const { runId, sessionId, output } = await paused(t, rt);
    const res = await post(rt, `/agents/a1/runs/${runId}/continue`, {
      tools: answered(output, 'teal'),
      session_id: sessionId,
      stream: 'false',
    });
    t.equal(res.statusCode, 200);
    t.match(res.json(), {
      run_id: runId,
      status: 'COMPLETED',
      content: 'Tool pick_color returned: teal',
    });
    t.match(await rt.store.getRun(runId), { status: 'COMPLETED', checkpoint: null });

    const again = await post(rt, `/agents/a1/runs/${runId}/continue`, {
      tools: answered(output, 'teal'),
      session_id: sessionId,
    });
    t.equal(again.statusCode, 409);
    t.same(again.json(), { detail: `Cannot continue run ${runId}: run is completed, not paused` });
  },
);

t.test('a continue streams RunContinued first, then the rest of the run', async (t) => {
  const rt = runtimeApp(t);
  const { runId, sessionId, output } = await paused(t, rt);
  const res = await post(rt, `/agents/a1/runs/${runId}/continue?session_id=${sessionId}`, {
    tools: answered(output, 'teal'),
  });
  t.equal(res.statusCode, 200);
  const frames = sseFrames(res.body);
  t.equal(frames[0]?.event, 'RunContinued');
  t.equal(frames.at(-1)?.event, 'RunCompleted');
  t.match(frames.at(-1)?.data, { run_id: runId, content: 'Tool pick_color returned: teal' });
});

t.test('a team continues from `requirements`, a workflow from `step_requirements`', async (t) => {
  const rt = runtimeApp(t);
  const team = await paused(t, rt, '/teams/t1');
  const requirements = (team.output['requirements'] as Record<string, unknown>[]).map((r) => ({
    ...r,
    external_execution_result: 'green',
  }));
  const res = await post(rt, `/teams/t1/runs/${team.runId}/continue`, {
    requirements: JSON.stringify(requirements),
    session_id: team.sessionId,
    stream: 'false',
  });
  t.equal(res.statusCode, 200);
  // a1 continues with the answer; a2, which has no pick_color, then fails the team.
  t.match(res.json(), {
    status: 'ERROR',
    content: 'Unknown tool pick_color',
    member_responses: [
      { agent_id: 'a1', status: 'COMPLETED', content: 'Tool pick_color returned: green' },
      { agent_id: 'a2', status: 'ERROR' },
    ],
  });

  const flow = await paused(t, rt, '/workflows/w1');
  const run = await rt.store.getRun(flow.runId);
  const calls = JSON.stringify(
    (run?.output['step_executor_runs'] as { tools: Record<string, unknown>[] }[])[0]?.tools.map(
      (tool) => ({ tool_execution: tool, external_execution_result: 'blue' }),
    ),
  );
  const done = await post(rt, `/workflows/w1/runs/${flow.runId}/continue`, {
    step_requirements: calls,
    session_id: flow.sessionId,
    stream: 'false',
  });
  t.equal(done.statusCode, 200);
  t.match(done.json(), { status: 'COMPLETED', workflow_id: 'w1' });
});

t.test('continue refusals: each status and detail', async (t) => {
  const rt = runtimeApp(t);
  const { runId, sessionId, output } = await paused(t, rt);
  const url = `/agents/a1/runs/${runId}/continue`;
  const rows: {
    name: string;
    url?: string;
    fields: Record<string, string>;
    status: number;
    detail: string;
  }[] = [
    {
      name: 'no session id',
      fields: { tools: answered(output, 'x') },
      status: 400,
      detail: 'session_id is required for this action',
    },
    {
      name: 'no answer for the pending call',
      fields: { session_id: sessionId },
      status: 400,
      detail: 'Tool pick_color requires external execution, cannot continue run',
    },
    {
      name: 'answers for other calls only',
      fields: {
        session_id: sessionId,
        tools: JSON.stringify([{ tool_call_id: 'elsewhere', result: 'x' }, { result: 'no id' }]),
      },
      status: 400,
      detail: 'Tool pick_color requires external execution, cannot continue run',
    },
    {
      name: 'tools not JSON',
      fields: { session_id: sessionId, tools: '[{' },
      status: 400,
      detail: 'Invalid JSON in tools field',
    },
    {
      name: 'tools not an array',
      fields: { session_id: sessionId, tools: '{}' },
      status: 400,
      detail: 'tools must be a JSON array',
    },
    {
      name: 'an entry not an object',
      fields: { session_id: sessionId, requirements: '[1]' },
      status: 400,
      detail: 'Each entry of requirements must be a JSON object',
    },
    {
      name: 'an unknown run',
      url: '/agents/a1/runs/nope/continue',
      fields: { session_id: sessionId },
      status: 404,
      detail: 'No runs found for run ID nope',
    },
    {
      name: 'the run of another agent',
      url: `/agents/a2/runs/${runId}/continue`,
      fields: { session_id: sessionId, tools: answered(output, 'x') },
      status: 404,
      detail: 'Run not found',
    },
    {
      name: 'another session',
      fields: { session_id: 'other', tools: answered(output, 'x') },
      status: 404,
      detail: 'Run not found',
    },
    {
      name: 'an unknown agent',
      url: `/agents/zz/runs/${runId}/continue`,
      fields: { session_id: sessionId },
      status: 404,
      detail: 'Agent not found',
    },
  ];
  for (const row of rows) {
    const res = await post(rt, row.url ?? url, row.fields);
    t.equal(res.statusCode, row.status, `${row.name}: ${row.status}`);
    t.same(res.json(), { detail: row.detail }, `${row.name}: detail`);
  }
  t.match(await rt.store.getRun(runId), { status: 'PAUSED' }, 'still paused after every refusal');
});

t.test('a paused run that is cancelled cannot be continued (409)', async (t) => {
  const rt = runtimeApp(t);
  const { runId, sessionId, output } = await paused(t, rt);
  const cancel = await rt.app.inject({
    method: 'POST',
    url: `/agents/a1/runs/${runId}/cancel?session_id=${sessionId}`,
  });
  t.equal(cancel.statusCode, 200);
  t.same(cancel.json(), {});
  t.match(await rt.store.getRun(runId), {
    status: 'CANCELLED',
    checkpoint: null,
    output: { status: 'CANCELLED' },
  });
  const res = await post(rt, `/agents/a1/runs/${runId}/continue`, {
    tools: answered(output, 'x'),
    session_id: sessionId,
  });
  t.equal(res.statusCode, 409);
  t.same(res.json(), { detail: `Cannot continue run ${runId}: run is cancelled` });
});

t.test('cancel stops a live run at its next delta; the stream ends cancelled', async (t) => {
  const sleeping = deferred();
  const wake = deferred();
  const rt = runtimeApp(t, {
    sleep: async () => {
      sleeping.resolve();
      await wake.promise;
    },
  });
  const running = post(rt, '/agents/a2/runs', { message: '/slow 3 1000' });
  await sleeping.promise;
  const runId = 'id-1'; // the run's id comes first, then the session's (counter ids)
  t.match(await rt.store.getRun(runId), { status: 'RUNNING' });
  const cancel = await rt.app.inject({
    method: 'POST',
    url: `/agents/a2/runs/${runId}/cancel`,
    headers: FORM,
    payload: form({ session_id: 'id-2' }),
  });
  t.equal(cancel.statusCode, 200);
  wake.resolve();
  const frames = sseFrames((await running).body);
  t.same(
    frames.slice(-2).map((f) => f.event),
    ['RunCancelled', 'RunCompleted'],
  );
  t.match(await rt.store.getRun(runId), { status: 'CANCELLED' });
});

t.test('cancel is 200 for unknown and finished runs (intent recorded)', async (t) => {
  const rt = runtimeApp(t);
  for (const url of ['/agents/a1/runs/never/cancel', '/teams/t1/runs/never/cancel']) {
    const res = await rt.app.inject({ method: 'POST', url });
    t.equal(res.statusCode, 200, url);
    t.same(res.json(), {});
  }
  const unknownAgent = await rt.app.inject({ method: 'POST', url: '/agents/zz/runs/x/cancel' });
  t.equal(unknownAgent.statusCode, 404);
  t.same(unknownAgent.json(), { detail: 'Agent not found' });
});

t.test('confined callers: their own runs only, and a session id is required', async (t) => {
  const rt = runtimeApp(t);
  const alice = contextHeader({ user_id: 'alice', scoped_user_id: 'alice' });
  const bob = contextHeader({ user_id: 'bob', scoped_user_id: 'bob' });
  const { runId, sessionId, output } = await paused(t, rt, '/agents/a1', alice);
  const cases: {
    name: string;
    url: string;
    headers: Record<string, string>;
    status: number;
    detail: string;
  }[] = [
    {
      name: 'cancel without a session id',
      url: `/agents/a1/runs/${runId}/cancel`,
      headers: bob,
      status: 400,
      detail: 'session_id is required for this action',
    },
    {
      name: "cancel of another user's run",
      url: `/agents/a1/runs/${runId}/cancel?session_id=${sessionId}`,
      headers: bob,
      status: 404,
      detail: 'Run not found',
    },
    {
      name: 'cancel of an unknown run',
      url: `/agents/a1/runs/nope/cancel?session_id=${sessionId}`,
      headers: bob,
      status: 404,
      detail: 'Run not found',
    },
    {
      name: "continue of another user's run",
      url: `/agents/a1/runs/${runId}/continue?session_id=${sessionId}`,
      headers: bob,
      status: 404,
      detail: 'Run not found',
    },
    {
      name: "GET of another user's run",
      url: `/agents/a1/runs/${runId}?session_id=${sessionId}`,
      headers: bob,
      status: 404,
      detail: 'Run not found',
    },
  ];
  for (const row of cases) {
    const res = row.name.startsWith('GET')
      ? await rt.app.inject({ method: 'GET', url: row.url, headers: row.headers })
      : await post(rt, row.url, { tools: answered(output, 'x') }, row.headers);
    t.equal(res.statusCode, row.status, row.name);
    t.same(res.json(), { detail: row.detail }, row.name);
  }
  const own = await post(
    rt,
    `/agents/a1/runs/${runId}/continue?session_id=${sessionId}`,
    { tools: answered(output, 'mine'), stream: 'false' },
    alice,
  );
  t.equal(own.statusCode, 200);
  t.match(own.json(), { content: 'Tool pick_color returned: mine', user_id: 'alice' });
});

t.test("GET a session's runs of an entity, and one run", async (t) => {
  const rt = runtimeApp(t);
  const { runId, sessionId } = await paused(t, rt);
  const second = await post(rt, '/agents/a1/runs', {
    message: 'hello',
    session_id: sessionId,
    stream: 'false',
  });
  t.equal(second.statusCode, 200);

  const all = await rt.app.inject({ url: `/agents/a1/runs?session_id=${sessionId}` });
  t.equal(all.statusCode, 200);
  t.match(all.json(), [
    { run_id: runId, status: 'PAUSED', agent_id: 'a1' },
    { status: 'COMPLETED', content: 'Echo: hello' },
  ]);
  const pausedOnly = await rt.app.inject({
    url: `/agents/a1/runs?session_id=${sessionId}&status=PAUSED`,
  });
  t.equal((pausedOnly.json() as unknown[]).length, 1);

  const one = await rt.app.inject({ url: `/agents/a1/runs/${runId}?session_id=${sessionId}` });
  t.equal(one.statusCode, 200);
  t.match(one.json(), { run_id: runId, session_id: sessionId, status: 'PAUSED', agent_id: 'a1' });

  const rows: { url: string; status: number; body: unknown }[] = [
    {
      url: '/agents/a1/runs',
      status: 422,
      body: {
        detail: [
          { type: 'missing', loc: ['query', 'session_id'], msg: 'Field required', input: null },
        ],
      },
    },
    {
      url: `/agents/a1/runs/${runId}`,
      status: 422,
      body: {
        detail: [
          { type: 'missing', loc: ['query', 'session_id'], msg: 'Field required', input: null },
        ],
      },
    },
    { url: '/agents/a1/runs?session_id=nope', status: 404, body: { detail: 'Session not found' } },
    {
      url: `/agents/a2/runs?session_id=${sessionId}`,
      status: 404,
      body: { detail: 'Session not found' },
    },
    {
      url: `/agents/a1/runs/nope?session_id=${sessionId}`,
      status: 404,
      body: { detail: 'Run not found' },
    },
  ];
  for (const row of rows) {
    const res = await rt.app.inject({ url: row.url });
    t.equal(res.statusCode, row.status, row.url);
    t.same(res.json(), row.body, row.url);
  }
  const bob = contextHeader({ user_id: 'bob', scoped_user_id: 'bob' });
  const foreign = await rt.app.inject({
    url: `/agents/a1/runs?session_id=${sessionId}`,
    headers: bob,
  });
  t.equal(foreign.statusCode, 404);
});

t.test('session_state from the form and from the claims the gateway extracted', async (t) => {
  const rt = runtimeApp(t);
  const first = await post(rt, '/agents/a1/runs', {
    message: '/tool get_state {"key": "plan"}',
    session_state: '{"plan": "basic", "seats": 2}',
    stream: 'false',
  });
  t.match(first.json(), { content: 'Tool get_state returned: basic' });
  const sessionId = (first.json() as { session_id: string }).session_id;
  t.match(await rt.store.getSession(sessionId), { session_state: { plan: 'basic', seats: 2 } });

  const claimed = await post(
    rt,
    '/agents/a1/runs',
    { message: '/tool get_state {"key": "plan"}', session_id: sessionId, stream: 'false' },
    contextHeader({ session_state: { plan: 'pro' } }),
  );
  t.match(claimed.json(), { content: 'Tool get_state returned: pro' });
  t.match(
    await rt.store.getSession(sessionId),
    { session_state: { plan: 'pro', seats: 2 } },
    'the claim over the stored state',
  );

  const bad = await post(rt, '/agents/a1/runs', { message: 'hi', session_state: '[1]' });
  t.equal(bad.statusCode, 400);
  t.same(bad.json(), { detail: 'session_state must be a JSON object' });
});

t.test('multipart forms: fields, files of supported types, 400 for others', async (t) => {
  const rt = runtimeApp(t);
  const boundary = 'X-SCOPEGATE';
  const part = (name: string, value: string, file?: { filename: string; type: string }) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"` +
    (file === undefined
      ? `\r\n\r\n${value}\r\n`
      : `; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n${value}\r\n`);
  const send = (parts: string[]) =>
    rt.app.inject({
      method: 'POST',
      url: '/agents/a2/runs',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `${parts.join('')}--${boundary}--\r\n`,
    });

  const ok = await send([
    part('message', 'first'),
    part('message', 'from multipart'),
    part('stream', 'false'),
    part('files', 'a,b\n1,2\n', { filename: 'data.csv', type: 'text/csv' }),
  ]);
  t.equal(ok.statusCode, 200);
  t.match(ok.json(), { content: 'Echo: from multipart', status: 'COMPLETED' });

  const bad = await send([
    part('message', 'hi'),
    part('files', 'MZ', { filename: 'x.exe', type: 'application/x-msdownload' }),
  ]);
  t.equal(bad.statusCode, 400);
  t.same(bad.json(), { detail: 'Unsupported file type' });

  const noMessage = await send([part('stream', 'false')]);
  t.equal(noMessage.statusCode, 422);
});

t.test('a repeated urlencoded field: the last value counts', async (t) => {
  const rt = runtimeApp(t);
  const res = await rt.app.inject({
    method: 'POST',
    url: '/agents/a2/runs',
    headers: FORM,
    payload: 'message=one&message=two&stream=false',
  });
  t.match(res.json(), { content: 'Echo: two' });
});

t.test('dependencies from the form and from the claims reach the system prompt', async (t) => {
  const rt = runtimeApp(t);
  const res = await post(
    rt,
    '/agents/a2/runs',
    { message: 'hi', stream: 'false', dependencies: '{"region": "eu", "tier": "free"}' },
    contextHeader({ dependencies: { tier: 'pro' } }),
  );
  t.equal(res.statusCode, 200);
  const messages = (res.json() as { messages: { role: string; content: string }[] }).messages;
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  t.match(system, /"region": "eu"/);
  t.match(system, /"tier": "pro"/, 'the claim wins over the form');
  const bad = await post(rt, '/agents/a2/runs', { message: 'hi', dependencies: '"x"' });
  t.equal(bad.statusCode, 400);
  t.same(bad.json(), { detail: 'dependencies must be a JSON object' });
  const none = await post(rt, '/agents/a2/runs', { message: 'hi', stream: 'false' });
  t.notOk(
    (none.json() as { messages: { role: string }[] }).messages.some((m) => m.role === 'system'),
    'no dependencies, no system prompt for an agent without instructions',
  );
});
