/**
 * `POST /agents|teams|workflows/{id}/runs`: form parsing, the 404s
 * and 422s, streamed and plain runs of each kind, sessions reused and confined to their owner and
 * component, run attribution, and a client that leaves mid-stream cancelling its run.
 */
import { once } from 'node:events';
import { request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import type { RunRecord } from '../../../../src/runtime/store/records.js';
import { openRuntimeStore, type RuntimeStore } from '../../../../src/runtime/store/store.js';
import {
  anonymousHeader,
  contextHeader,
  deferred,
  FORM,
  form,
  runtimeApp,
  sessionRecord,
  sseFrames,
  TEST_NOW,
  type Frame,
  type TestRuntime,
} from '../../fixtures/runtime.js';

/** POSTs a urlencoded run form. */
function postRun(
  rt: TestRuntime,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return rt.app.inject({
    method: 'POST',
    url: path,
    headers: { ...FORM, ...headers },
    payload: form(fields),
  });
}

/** A non-streamed run's output (fails the test unless 200). */
async function runJson(
  t: Test,
  rt: TestRuntime,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const res = await postRun(rt, path, { stream: 'false', ...fields }, headers);
  t.equal(res.statusCode, 200, `${path} ${fields.message}: 200`);
  return res.json() as Record<string, unknown>;
}

const VALIDATION_BOOL = (field: string, input: unknown) => ({
  detail: [
    {
      type: 'bool_parsing',
      loc: ['body', field],
      msg: 'Input should be a valid boolean, unable to interpret input',
      input,
    },
  ],
});

const MISSING_MESSAGE = {
  detail: [{ type: 'missing', loc: ['body', 'message'], msg: 'Field required', input: null }],
};

t.test('the stream field picks SSE or JSON; a bad value is 422', async (t) => {
  const rt = runtimeApp(t);
  const rows: { name: string; fields: Record<string, string>; sse: boolean }[] = [
    { name: 'absent', fields: {}, sse: true },
    { name: 'empty', fields: { stream: '' }, sse: true },
    { name: 'yes', fields: { stream: 'yes' }, sse: true },
    { name: '1', fields: { stream: '1' }, sse: true },
    { name: 'off', fields: { stream: 'off' }, sse: false },
    { name: 'False', fields: { stream: 'False' }, sse: false },
  ];
  for (const row of rows) {
    const res = await postRun(rt, '/agents/a2/runs', { message: 'hi', ...row.fields });
    t.equal(res.statusCode, 200, `${row.name}: 200`);
    if (row.sse) {
      t.equal(res.headers['content-type'], 'text/event-stream; charset=utf-8', `${row.name}: SSE`);
      t.equal(sseFrames(res.body).at(-1)?.event, 'RunCompleted', `${row.name}: ends completed`);
    } else {
      t.match(res.headers['content-type'], /^application\/json/, `${row.name}: JSON`);
      t.match(res.json(), { status: 'COMPLETED', content: 'Echo: hi' }, `${row.name}: output`);
    }
  }
  const bad = await postRun(rt, '/agents/a2/runs', { message: 'hi', stream: 'sometimes' });
  t.equal(bad.statusCode, 422);
  t.same(bad.json(), VALIDATION_BOOL('stream', 'sometimes'));
  const sessions = (await rt.app.inject({ url: '/sessions' })).json() as { meta: unknown };
  t.match(sessions.meta, { total_count: rows.length }, 'the refused run stored nothing');
});

t.test('a missing message is 422 Field required', async (t) => {
  const rt = runtimeApp(t);
  const rows = [
    { name: 'no body', headers: {}, payload: undefined },
    { name: 'an empty form', headers: FORM, payload: '' },
    { name: 'a form without message', headers: FORM, payload: form({ stream: 'false' }) },
    { name: 'plain text', headers: { 'content-type': 'text/plain' }, payload: 'message=hi' },
    {
      name: 'JSON without message',
      headers: { 'content-type': 'application/json' },
      payload: '{"stream": false}',
    },
    {
      name: 'a JSON message that is not a string',
      headers: { 'content-type': 'application/json' },
      payload: '{"message": 42}',
    },
  ];
  for (const row of rows) {
    const res = await rt.app.inject({
      method: 'POST',
      url: '/agents/a1/runs',
      headers: row.headers,
      ...(row.payload === undefined ? {} : { payload: row.payload }),
    });
    t.equal(res.statusCode, 422, `${row.name}: 422`);
    t.same(res.json(), MISSING_MESSAGE, `${row.name}: detail`);
  }
  t.equal(
    (await rt.store.listSessions({ page: 1, limit: 10, sortBy: 'created_at', sortOrder: 'asc' }))
      .total,
    0,
  );
});

t.test('a JSON body is not a form: 422 missing message', async (t) => {
  const rt = runtimeApp(t);
  const res = await rt.app.inject({
    method: 'POST',
    url: '/agents/a1/runs',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ message: 'hi', stream: false }),
  });
  t.equal(res.statusCode, 422);
  t.same(res.json(), MISSING_MESSAGE);
});

t.test('an unknown agent, team or workflow is 404, before the form is read', async (t) => {
  const rt = runtimeApp(t);
  const rows = [
    { path: '/agents/zz/runs', detail: 'Agent not found' },
    { path: '/teams/zz/runs', detail: 'Team not found' },
    { path: '/workflows/zz/runs', detail: 'Workflow not found' },
    { path: '/teams/a1/runs', detail: 'Team not found' },
    { path: '/workflows/t1/runs', detail: 'Workflow not found' },
    { path: '/agents/w1/runs', detail: 'Agent not found' },
  ];
  for (const row of rows) {
    for (const fields of [{ message: 'hi' }, {}] as Record<string, string>[]) {
      const res = await postRun(rt, row.path, fields);
      t.equal(res.statusCode, 404, `${row.path} ${JSON.stringify(fields)}: 404`);
      t.same(res.json(), { detail: row.detail }, `${row.path}: detail`);
    }
  }
});

t.test('non-streamed runs answer the run output and store session and run', async (t) => {
  const rt = runtimeApp(t);
  const rows = [
    {
      path: '/agents/a1/runs',
      type: 'agent',
      id: 'a1',
      expected: { agent_id: 'a1', agent_name: 'Agent One', content: 'Echo: hello' },
    },
    {
      path: '/teams/t1/runs',
      type: 'team',
      id: 't1',
      expected: { team_id: 't1', team_name: 'Team One', content: 'Echo: hello\n\nEcho: hello' },
    },
    {
      path: '/workflows/w2/runs',
      type: 'workflow',
      id: 'w2',
      expected: { workflow_id: 'w2', workflow_name: 'Flow Two', content: 'Echo: hello' },
    },
  ] as const;
  for (const row of rows) {
    const out = await runJson(t, rt, row.path, { message: 'hello' });
    t.match(
      out,
      { ...row.expected, status: 'COMPLETED', created_at: TEST_NOW },
      `${row.type}: output`,
    );
    const sessionId = out.session_id as string;
    const runId = out.run_id as string;
    t.match(
      await rt.store.getSession(sessionId),
      {
        session_type: row.type,
        component_id: row.id,
        user_id: null,
        session_name: 'hello',
        created_at: TEST_NOW,
      },
      `${row.type}: session stored, named after the message`,
    );
    const stored = await rt.store.getRun(runId);
    t.match(
      stored,
      {
        session_id: sessionId,
        session_type: row.type,
        component_id: row.id,
        status: 'COMPLETED',
        input: 'hello',
      },
      `${row.type}: run stored`,
    );
    t.same(stored?.output, out, `${row.type}: the stored output is the answer`);
  }
});

t.test('streamed runs: SSE frames of each kind, and the run stored when done', async (t) => {
  const rt = runtimeApp(t);
  const rows = [
    { path: '/agents/a1/runs', first: 'RunStarted', last: 'RunCompleted', id: 'agent_id' },
    { path: '/teams/t2/runs', first: 'TeamRunStarted', last: 'TeamRunCompleted', id: 'team_id' },
    {
      path: '/workflows/w1/runs',
      first: 'WorkflowStarted',
      last: 'WorkflowCompleted',
      id: 'workflow_id',
    },
  ];
  for (const row of rows) {
    const res = await postRun(rt, row.path, { message: 'stream me' });
    t.equal(res.statusCode, 200, `${row.path}: 200`);
    t.equal(res.headers['content-type'], 'text/event-stream; charset=utf-8');
    t.equal(res.headers['cache-control'], 'no-cache');
    const frames = sseFrames(res.body);
    t.equal(frames[0]?.event, row.first, `${row.path}: first frame`);
    t.equal(frames.at(-1)?.event, row.last, `${row.path}: last frame`);
    for (const frame of frames) t.equal(frame.data.event, frame.event, 'data.event is the name');
    const last = frames.at(-1) as Frame;
    const stored = await rt.store.getRun(last.data.run_id as string);
    t.match(
      stored,
      { status: 'COMPLETED', session_id: last.data.session_id },
      `${row.path}: stored`,
    );
    t.same(
      stored?.output.events,
      frames.map((f) => f.data),
      `${row.path}: the stored events are the streamed ones`,
    );
  }
});

t.test('errors and pauses: HTTP 200, the status in the output, the stored run', async (t) => {
  const rt = runtimeApp(t);
  const failed = await runJson(t, rt, '/agents/a2/runs', { message: '/error boom' });
  t.match(failed, { status: 'ERROR', content: 'boom' });
  t.match(await rt.store.getRun(failed.run_id as string), { status: 'ERROR' });

  const streamed = await postRun(rt, '/agents/a2/runs', { message: '/error boom' });
  t.equal(streamed.statusCode, 200, 'a failure after the stream started stays 200');
  const frames = sseFrames(streamed.body);
  t.match(frames.at(-1), { event: 'RunError', data: { content: 'boom' } });

  const paused = await runJson(t, rt, '/agents/a1/runs', { message: '/tool pick_color {}' });
  t.match(paused, { status: 'PAUSED' });
  t.match(await rt.store.getRun(paused.run_id as string), { status: 'PAUSED' });
});

t.test('a session_id from the form: created, then reused by the next run', async (t) => {
  const rt = runtimeApp(t);
  const first = await runJson(t, rt, '/agents/a1/runs', {
    message: '/tool set_state {"key": "color", "value": "teal"}',
    session_id: 'my-session',
  });
  t.equal(first.session_id, 'my-session', 'the given id is used for a new session');
  rt.clock.advance(5000);
  const second = await runJson(t, rt, '/agents/a1/runs', {
    message: '/tool get_state {"key": "color"}',
    session_id: 'my-session',
  });
  t.equal(second.session_id, 'my-session');
  t.equal(second.content, 'Tool get_state returned: teal', 'the second run sees the first’s state');
  t.match(
    await rt.store.getSession('my-session'),
    {
      session_name: '/tool set_state {"key": "color", "value": "teal"}',
      session_state: { color: 'teal' },
      created_at: TEST_NOW,
      updated_at: TEST_NOW + 5,
    },
    'the name stays the first message; updated_at moves',
  );
  t.same(
    (await rt.store.listRuns('my-session')).map((r) => r.run_id),
    [first.run_id, second.run_id],
  );
  const fresh = await runJson(t, rt, '/agents/a1/runs', { message: 'x', session_id: '' });
  t.not(fresh.session_id, 'my-session', 'an empty session_id means a new session');
  t.match(fresh.session_id, /^id-\d+$/);
});

t.test('the session name is the first message, cut at 100 characters', async (t) => {
  const rt = runtimeApp(t);
  const long = 'word '.repeat(40);
  const out = await runJson(t, rt, '/agents/a2/runs', { message: long });
  t.equal((await rt.store.getSession(out.session_id as string))?.session_name, long.slice(0, 100));
});

t.test("the context's session_id wins over the form's", async (t) => {
  const rt = runtimeApp(t);
  const out = await runJson(
    t,
    rt,
    '/agents/a2/runs',
    { message: 'hi', session_id: 'from-form' },
    contextHeader({ session_id: 'from-token' }),
  );
  t.equal(out.session_id, 'from-token');
  t.not(await rt.store.getSession('from-token'), null);
  t.equal(await rt.store.getSession('from-form'), null, 'the form value was not used');
});

t.test('a session of another component or kind is 404 Session not found', async (t) => {
  const rt = runtimeApp(t);
  await rt.store.putSession(
    sessionRecord({ session_id: 'agent-a1', session_type: 'agent', component_id: 'a1' }),
  );
  await rt.store.putSession(
    sessionRecord({ session_id: 'team-t1', session_type: 'team', component_id: 't1' }),
  );
  const rows = [
    { name: 'another agent', path: '/agents/a2/runs', session: 'agent-a1' },
    { name: 'a team using an agent session', path: '/teams/t1/runs', session: 'agent-a1' },
    { name: 'a workflow using a team session', path: '/workflows/w1/runs', session: 'team-t1' },
    { name: 'an agent using a team session', path: '/agents/a1/runs', session: 'team-t1' },
  ];
  for (const row of rows) {
    const res = await postRun(rt, row.path, {
      message: 'x',
      stream: 'false',
      session_id: row.session,
    });
    t.equal(res.statusCode, 404, `${row.name}: 404`);
    t.same(res.json(), { detail: 'Session not found' }, `${row.name}: detail`);
  }
  t.same(await rt.store.listRuns('agent-a1'), [], 'nothing was written into them');
  t.same(await rt.store.listRuns('team-t1'), []);
  const own = await runJson(t, rt, '/agents/a1/runs', { message: 'x', session_id: 'agent-a1' });
  t.equal(own.session_id, 'agent-a1', 'its own component may use it');
});

t.test('a scoped caller runs as itself and only in its own sessions', async (t) => {
  const rt = runtimeApp(t);
  await rt.store.putSession(sessionRecord({ session_id: 'alice-s', user_id: 'alice' }));
  await rt.store.putSession(sessionRecord({ session_id: 'nobody-s', user_id: null }));
  const bob = contextHeader({ user_id: 'bob', scoped_user_id: 'bob' });
  for (const session of ['alice-s', 'nobody-s']) {
    const res = await postRun(
      rt,
      '/agents/a1/runs',
      { message: 'x', stream: 'false', session_id: session },
      bob,
    );
    t.equal(res.statusCode, 404, `${session}: 404`);
    t.same(res.json(), { detail: 'Session not found' }, `${session}: detail`);
    t.same(await rt.store.listRuns(session), [], `${session}: untouched`);
  }
  const own = await runJson(
    t,
    rt,
    '/agents/a1/runs',
    { message: 'x', session_id: 'bob-s', user_id: 'mallory' },
    bob,
  );
  t.equal(own.user_id, 'bob', 'the scoped user, not the form’s');
  t.match(await rt.store.getSession('bob-s'), { user_id: 'bob' });
  const again = await runJson(t, rt, '/agents/a1/runs', { message: 'y', session_id: 'bob-s' }, bob);
  t.equal(again.session_id, 'bob-s', 'its own session is reused');
  const alice = contextHeader({ user_id: 'alice', scoped_user_id: 'alice' });
  const aliceOwn = await runJson(
    t,
    rt,
    '/agents/a1/runs',
    { message: 'z', session_id: 'alice-s' },
    alice,
  );
  t.equal(aliceOwn.session_id, 'alice-s');
  const sa = contextHeader({
    user_id: 'svc',
    scoped_user_id: 'sa:svc',
    principal_type: 'service_account',
  });
  const scopedWins = await runJson(t, rt, '/agents/a2/runs', { message: 'x' }, sa);
  t.equal(scopedWins.user_id, 'sa:svc', 'scoped_user_id beats the context user_id');
  const admin = contextHeader({ user_id: 'root', is_admin: true });
  const adminInto = await runJson(
    t,
    rt,
    '/agents/a1/runs',
    { message: 'x', session_id: 'alice-s' },
    admin,
  );
  t.equal(
    adminInto.session_id,
    'alice-s',
    'an unscoped caller may use any session of the component',
  );
});

t.test('run attribution: context user, else the anonymous client’s value', async (t) => {
  const rt = runtimeApp(t);
  const rows: {
    name: string;
    headers: Record<string, string>;
    form: Record<string, string>;
    user: string | undefined;
  }[] = [
    { name: 'anonymous, no user_id', headers: {}, form: {}, user: undefined },
    { name: 'anonymous, empty user_id', headers: {}, form: { user_id: '' }, user: undefined },
    { name: 'anonymous client value', headers: {}, form: { user_id: 'carol' }, user: 'carol' },
    {
      name: 'anonymous context header',
      headers: contextHeader({ authenticated: false, principal_type: 'anonymous' }),
      form: { user_id: 'carol' },
      user: 'carol',
    },
    {
      name: 'authenticated: context user_id wins',
      headers: contextHeader({ user_id: 'alice' }),
      form: { user_id: 'mallory' },
      user: 'alice',
    },
    {
      name: 'authenticated without a user: the form is ignored',
      headers: contextHeader({ user_id: null, principal_type: 'security_key' }),
      form: { user_id: 'mallory' },
      user: undefined,
    },
    {
      name: 'authenticated with an empty user: the form is ignored',
      headers: contextHeader({ user_id: '' }),
      form: { user_id: 'mallory' },
      user: undefined,
    },
    {
      name: 'authenticated sending a reserved id: ignored, not refused',
      headers: contextHeader({ user_id: 'alice' }),
      form: { user_id: 'sa:bot' },
      user: 'alice',
    },
  ];
  for (const row of rows) {
    const out = await runJson(
      t,
      rt,
      '/agents/a2/runs',
      { message: row.name, ...row.form },
      row.headers,
    );
    t.equal(out.user_id, row.user, `${row.name}: output user_id`);
    t.equal(
      (await rt.store.getSession(out.session_id as string))?.user_id,
      row.user ?? null,
      `${row.name}: session owner`,
    );
    t.equal(
      (await rt.store.getRun(out.run_id as string))?.user_id,
      row.user ?? null,
      `${row.name}: run user`,
    );
  }
});

t.test('an anonymous client may not claim a reserved principal: 403', async (t) => {
  const rt = runtimeApp(t);
  for (const userId of ['sa:bot', '__oauth__:github', '__scheduler__']) {
    for (const stream of ['true', 'false']) {
      const res = await postRun(rt, '/agents/a1/runs', { message: 'x', user_id: userId, stream });
      t.equal(res.statusCode, 403, `${userId} stream=${stream}: 403`);
      t.same(res.json(), { detail: 'Client-supplied user_id may not claim a reserved principal' });
    }
  }
  const anonymousHeader = contextHeader({ authenticated: false, principal_type: 'anonymous' });
  const res = await postRun(
    rt,
    '/teams/t1/runs',
    { message: 'x', user_id: 'sa:x' },
    anonymousHeader,
  );
  t.equal(res.statusCode, 403, 'also with an anonymous context header');
  t.equal(
    (await rt.store.listSessions({ page: 1, limit: 10, sortBy: 'created_at', sortOrder: 'asc' }))
      .total,
    0,
  );
});

/** A store that reports the first run written with a final status. */
function watchSettled(store: RuntimeStore): { store: RuntimeStore; settled: Promise<RunRecord> } {
  const done = deferred<RunRecord>();
  return {
    store: {
      ...store,
      async updateRun(run) {
        const stored = await store.updateRun(run);
        if (run.status !== 'RUNNING') done.resolve(run);
        return stored;
      },
    },
    settled: done.promise,
  };
}

/** Reads `res` until the first complete SSE frame, then stops reading. */
function firstFrame(res: IncomingMessage): Promise<Frame> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\n\n');
      if (end === -1) return;
      res.off('data', onData);
      res.pause();
      resolve(sseFrames(text.slice(0, end + 2))[0] as Frame);
    };
    res.on('data', onData);
  });
}

t.test('a client that leaves mid-stream cancels the run', async (t) => {
  const sleeping = deferred();
  const wake = deferred();
  const watched = watchSettled(openRuntimeStore(':memory:'));
  const rt = runtimeApp(t, {
    store: watched.store,
    // The model sleeps between deltas: hold it there until the client has gone.
    sleep: async () => {
      sleeping.resolve();
      await wake.promise;
    },
  });
  await rt.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = rt.app.server.address() as AddressInfo;
  const serverSideClosed = new Promise<void>((resolve) =>
    rt.app.server.once('connection', (socket) => socket.once('close', () => resolve())),
  );
  const req = request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/agents/a2/runs',
    headers: { ...FORM, ...anonymousHeader() },
    agent: false,
  });
  req.on('error', () => {}); // destroyed on purpose below
  req.end(form({ message: '/slow 3 60000' }));
  const [res] = (await once(req, 'response')) as [IncomingMessage];
  t.equal(res.statusCode, 200);
  const first = await firstFrame(res);
  t.equal(first.event, 'RunStarted');
  const runId = first.data.run_id as string;
  await sleeping.promise;
  t.match(
    await rt.store.getRun(runId),
    { status: 'RUNNING' },
    'stored as running while it streams',
  );

  req.destroy();
  await serverSideClosed;
  wake.resolve();
  const final = await watched.settled;
  t.equal(final.run_id, runId);
  t.equal(final.status, 'CANCELLED', 'the run stopped at its next delta');
  t.equal(final.output.content, '1', 'only the delta sent before the client left');
  const runs = await rt.app.inject({ url: `/sessions/${first.data.session_id as string}/runs` });
  t.match(runs.json(), [{ run_id: runId, status: 'CANCELLED', content: '1' }]);
});

t.test('a client that reads to the end does not cancel anything', async (t) => {
  const rt = runtimeApp(t);
  await rt.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = rt.app.server.address() as AddressInfo;
  const req = request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/agents/a2/runs',
    headers: { ...FORM, ...anonymousHeader() },
    agent: false,
  });
  req.end(form({ message: '/slow 3 0' }));
  const [res] = (await once(req, 'response')) as [IncomingMessage];
  let body = '';
  res.setEncoding('utf8').on('data', (c: string) => (body += c));
  await once(res, 'end');
  const frames = sseFrames(body);
  t.equal(frames.at(-1)?.event, 'RunCompleted');
  t.match(frames.at(-1)?.data, { content: '1 2 3' });
  t.match(await rt.store.getRun(frames[0]?.data.run_id as string), { status: 'COMPLETED' });
});
