/**
 * `POST /agui` and `GET /status` on a real runtime app: the event stream of a
 * run, state snapshots and deltas, client tools pausing into interrupts and resumed by tool
 * messages or `resume[]`, every RUN_ERROR case, identity (403 for a reserved principal, the
 * forwarded user id, claims), a team-bound interface, and a client leaving mid-stream.
 */
import { once } from 'node:events';
import { request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import type { RunRecord } from '../../../../src/runtime/store/records.js';
import { openRuntimeStore, type RuntimeStore } from '../../../../src/runtime/store/store.js';
import { aguiFrames, replayWithClient, typesOf, type Frame } from '../../fixtures/agui.js';
import {
  anonymousHeader,
  contextHeader,
  deferred,
  runRecord,
  runtimeApp,
  sessionRecord,
  SETTINGS,
  type TestRuntime,
} from '../../fixtures/runtime.js';

const JSON_TYPE = { 'content-type': 'application/json' };

/** A RunAgentInput: thread th-1, run r-1, one user message, nothing else; `fields` replace. */
function aguiBody(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    threadId: 'th-1',
    runId: 'r-1',
    state: null,
    messages: [{ id: 'u-1', role: 'user', content: 'hello' }],
    tools: [],
    context: [],
    forwardedProps: null,
    ...fields,
  };
}

const userMessage = (content: string, id = 'u-1') => ({ id, role: 'user', content });
const WEATHER = { name: 'ask_weather', description: 'Asks the browser for the weather.' };

function postAgui(
  rt: TestRuntime,
  body: Record<string, unknown> | string,
  headers: Record<string, string> = {},
) {
  return rt.app.inject({
    method: 'POST',
    url: '/agui',
    headers: { ...JSON_TYPE, ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Posts a RunAgentInput and returns its events (fails the test unless a 200 event stream). */
async function aguiRun(
  t: Test,
  rt: TestRuntime,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Frame[]> {
  const res = await postAgui(rt, body, headers);
  t.equal(res.statusCode, 200, 'a 200 stream');
  t.equal(res.headers['content-type'], 'text/event-stream');
  return aguiFrames(res.body);
}

/** The text of the assistant messages a stream carries, concatenated. */
const textOf = (frames: readonly Frame[]): string =>
  frames
    .filter((frame) => frame.type === 'TEXT_MESSAGE_CONTENT')
    .map((frame) => frame['delta'] as string)
    .join('');

const only = (frames: readonly Frame[], type: string): Frame => {
  const found = frames.filter((frame) => frame.type === type);
  if (found.length !== 1) throw new Error(`expected one ${type}, got ${found.length}`);
  return found[0] as Frame;
};

/** Types without the RAW frames (the Agno events passed through). */
const mapped = (frames: readonly Frame[]): string[] =>
  typesOf(frames).filter((type) => type !== 'RAW');

t.test('GET /status answers available; without any agent there is no AG-UI', async (t) => {
  const rt = runtimeApp(t);
  const status = await rt.app.inject({ url: '/status' });
  t.equal(status.statusCode, 200);
  t.same(status.json(), { status: 'available' });
  const bare = runtimeApp(t, { settings: { db: ':memory:' } });
  t.equal((await bare.app.inject({ url: '/status' })).statusCode, 404);
  const post = await postAgui(bare, aguiBody());
  t.equal(post.statusCode, 404);
  t.same(post.json(), { detail: 'Not Found' });
  const wrongMethod = await rt.app.inject({ url: '/agui' });
  t.equal(wrongMethod.statusCode, 405, 'GET /agui is a known path with another method');
});

t.test('a plain message: the stream, the stored run and session, the client’s view', async (t) => {
  const rt = runtimeApp(t);
  const res = await postAgui(rt, aguiBody({ messages: [userMessage('hello there')] }));
  t.equal(res.statusCode, 200);
  t.equal(res.headers['content-type'], 'text/event-stream');
  t.equal(res.headers['cache-control'], 'no-cache');
  t.match(res.body, /^data: \{"type":"RUN_STARTED","threadId":"th-1","runId":"r-1"\}\n\n/);
  t.notMatch(res.body, /^event:/m, 'no event: lines');
  const frames = aguiFrames(res.body);
  t.same(mapped(frames), [
    'RUN_STARTED',
    'TEXT_MESSAGE_START',
    'TEXT_MESSAGE_CONTENT',
    'TEXT_MESSAGE_CONTENT',
    'TEXT_MESSAGE_CONTENT',
    'TEXT_MESSAGE_END',
    'RUN_FINISHED',
  ]);
  t.equal(textOf(frames), 'Echo: hello there');
  t.same(frames.at(-1), { type: 'RUN_FINISHED', threadId: 'th-1', runId: 'r-1' });
  t.same(
    frames
      .filter((frame) => frame.type === 'RAW')
      .map((frame) => (frame['event'] as { event: string }).event),
    ['RunStarted', 'ModelRequestStarted', 'ModelRequestCompleted', 'RunContentCompleted'],
  );
  t.match(await rt.store.getRun('r-1'), {
    session_id: 'th-1',
    component_id: 'a1',
    status: 'COMPLETED',
    input: 'hello there',
    output: { content: 'Echo: hello there' },
  });
  t.match(await rt.store.getSession('th-1'), { session_type: 'agent', user_id: null });
  const replay = await replayWithClient(res.body);
  t.match(replay.agent.messages, [{ role: 'assistant', content: 'Echo: hello there' }]);
});

t.test(
  'snake_case keys, a missing content type and the last of several user messages',
  async (t) => {
    const rt = runtimeApp(t);
    const res = await rt.app.inject({
      method: 'POST',
      url: '/agui',
      payload: JSON.stringify({
        thread_id: 'th-s',
        run_id: 'r-s',
        state: null,
        messages: [userMessage('first', 'u-1'), userMessage('second', 'u-2')],
        tools: [],
        context: [],
        forwarded_props: null,
      }),
    });
    t.equal(res.statusCode, 200);
    const frames = aguiFrames(res.body);
    t.same(frames[0], { type: 'RUN_STARTED', threadId: 'th-s', runId: 'r-s' });
    t.equal(textOf(frames), 'Echo: second');
  },
);

t.test('validation failures are 422 before anything runs', async (t) => {
  const rt = runtimeApp(t);
  const body = aguiBody();
  delete body['threadId'];
  const missing = await postAgui(rt, body);
  t.equal(missing.statusCode, 422);
  t.same(missing.json(), {
    detail: [{ type: 'missing', loc: ['body', 'threadId'], msg: 'Field required', input: body }],
  });
  const notJson = await postAgui(rt, '{oops');
  t.equal(notJson.statusCode, 422);
  t.match(notJson.json(), { detail: [{ type: 'json_invalid', loc: ['body', 1] }] });
  const text = await postAgui(rt, 'hello', { 'content-type': 'text/plain' });
  t.equal(text.statusCode, 422);
  t.match(text.json(), { detail: [{ type: 'model_type', loc: ['body'], input: 'hello' }] });
  const empty = await rt.app.inject({ method: 'POST', url: '/agui' });
  t.equal(empty.statusCode, 422);
  t.same(empty.json(), {
    detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }],
  });
  t.equal(await rt.store.getSession('th-1'), null, 'nothing stored');
});

t.test('a given state: snapshots, a STATE_DELTA per change, the session keeps it', async (t) => {
  const rt = runtimeApp(t);
  const frames = await aguiRun(
    t,
    rt,
    aguiBody({
      state: { colour: 'blue', size: 2 },
      messages: [userMessage('/tool set_state {"key": "colour", "value": "red"}')],
    }),
  );
  t.same(mapped(frames), [
    'RUN_STARTED',
    'STATE_SNAPSHOT',
    'TEXT_MESSAGE_START',
    'TEXT_MESSAGE_END',
    'TOOL_CALL_START',
    'TOOL_CALL_ARGS',
    'TOOL_CALL_END',
    'TOOL_CALL_RESULT',
    'STATE_DELTA',
    'TEXT_MESSAGE_START',
    'TEXT_MESSAGE_CONTENT',
    'TEXT_MESSAGE_CONTENT',
    'TEXT_MESSAGE_CONTENT',
    'TEXT_MESSAGE_CONTENT',
    'TEXT_MESSAGE_END',
    'STATE_SNAPSHOT',
    'RUN_FINISHED',
  ]);
  const snapshots = frames.filter((frame) => frame.type === 'STATE_SNAPSHOT');
  t.same(
    snapshots.map((frame) => frame['snapshot']),
    [
      { colour: 'blue', size: 2 },
      { colour: 'red', size: 2 },
    ],
  );
  t.same(only(frames, 'STATE_DELTA')['delta'], [{ op: 'replace', path: '/colour', value: 'red' }]);
  t.match(only(frames, 'TOOL_CALL_START'), { toolCallName: 'set_state' });
  t.equal(textOf(frames), 'Tool set_state returned: ok');
  t.same((await rt.store.getSession('th-1'))?.session_state, { colour: 'red', size: 2 });
  const replay = await replayWithClient(aguiFramesBody(frames));
  t.same(replay.agent.state, { colour: 'red', size: 2 });

  // state null: the stored state is the run's, and the base of the delta; no snapshots.
  const next = await aguiRun(
    t,
    rt,
    aguiBody({
      runId: 'r-2',
      messages: [userMessage('/tool set_state {"key": "size", "value": 3}')],
    }),
  );
  t.notOk(next.some((frame) => frame.type === 'STATE_SNAPSHOT'));
  t.same(only(next, 'STATE_DELTA')['delta'], [{ op: 'replace', path: '/size', value: 3 }]);
  t.same((await rt.store.getSession('th-1'))?.session_state, { colour: 'red', size: 3 });
});

/** Frames back to a body (the encoder's format). */
function aguiFramesBody(frames: readonly Frame[]): string {
  return frames.map((frame) => `data: ${JSON.stringify(frame)}\n\n`).join('');
}

t.test(
  'session_state and dependencies claims join the run; the session_id claim picks the session',
  async (t) => {
    const rt = runtimeApp(t);
    await rt.store.putSession(
      sessionRecord({ session_id: 's-claim', session_state: { stored: 1 } }),
    );
    const headers = contextHeader({
      session_id: 's-claim',
      session_state: { tier: 'gold' },
      dependencies: { org: 'acme' },
    });
    const frames = await aguiRun(
      t,
      rt,
      aguiBody({
        messages: [userMessage('/tool get_state {"key": "tier"}')],
        context: [{ description: 'locale', value: '"en"' }],
      }),
      headers,
    );
    t.equal(textOf(frames), 'Tool get_state returned: gold');
    t.equal(await rt.store.getSession('th-1'), null, 'the claim’s session, not the thread');
    t.same((await rt.store.getSession('s-claim'))?.session_state, { stored: 1, tier: 'gold' });
    const run = (await rt.store.getRun('r-1')) as RunRecord;
    const system = (run.output['messages'] as { role: string; content: string }[])[0];
    t.match(system, { role: 'system' });
    t.match(
      system?.content,
      /<additional context>\n\{\n {2}"locale": "en",\n {2}"org": "acme"\n\}/,
    );
  },
);

t.test('the context becomes dependencies in the prompt, never in the answer', async (t) => {
  const rt = runtimeApp(t);
  const frames = await aguiRun(
    t,
    rt,
    aguiBody({ context: [{ description: 'city', value: 'Paris' }] }),
  );
  t.equal(textOf(frames), 'Echo: hello');
  const messages = ((await rt.store.getRun('r-1')) as RunRecord).output['messages'] as {
    content: string;
  }[];
  t.match(messages[0]?.content, /"city": "Paris"/);
});

t.test(
  'a client tool the message names pauses the run: an interrupt; tool messages resume it',
  async (t) => {
    const rt = runtimeApp(t);
    const first = await aguiRun(
      t,
      rt,
      aguiBody({
        state: {},
        messages: [userMessage('what is the weather? ask_weather {"city": "Oslo"}')],
        tools: [WEATHER],
      }),
    );
    t.same(mapped(first), [
      'RUN_STARTED',
      'STATE_SNAPSHOT',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_END',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'STATE_SNAPSHOT',
      'RUN_FINISHED',
    ]);
    const start = only(first, 'TOOL_CALL_START');
    const callId = start['toolCallId'] as string;
    t.match(start, { toolCallName: 'ask_weather' });
    t.same(only(first, 'TOOL_CALL_ARGS')['delta'], '{"city":"Oslo"}');
    t.same(first.at(-1), {
      type: 'RUN_FINISHED',
      threadId: 'th-1',
      runId: 'r-1',
      outcome: {
        type: 'interrupt',
        interrupts: [{ id: callId, reason: 'tool_call', toolCallId: callId }],
      },
    });
    t.match(await rt.store.getRun('r-1'), { status: 'PAUSED' });
    const client = await replayWithClient(aguiFramesBody(first));
    t.same(
      client.agent.pendingInterrupts.map((interrupt) => interrupt.id),
      [callId],
    );

    const resumed = await aguiRun(
      t,
      rt,
      aguiBody({
        runId: 'r-2',
        messages: [
          userMessage('what is the weather?'),
          {
            id: 'a-1',
            role: 'assistant',
            toolCalls: [
              { id: callId, type: 'function', function: { name: 'ask_weather', arguments: '{}' } },
            ],
          },
          { id: 't-1', role: 'tool', toolCallId: callId, content: 'sunny' },
        ],
        tools: [WEATHER],
      }),
    );
    t.same(resumed[0], { type: 'RUN_STARTED', threadId: 'th-1', runId: 'r-2' });
    t.same(resumed.at(-1), { type: 'RUN_FINISHED', threadId: 'th-1', runId: 'r-2' });
    t.equal(textOf(resumed), 'Tool ask_weather returned: sunny');
    t.equal(
      ((resumed.find((frame) => frame.type === 'RAW') as Frame)['event'] as { event: string })
        .event,
      'RunContinued',
    );
    t.match(await rt.store.getRun('r-1'), {
      status: 'COMPLETED',
      output: { content: 'Tool ask_weather returned: sunny' },
    });
    t.equal(await rt.store.getRun('r-2'), null, 'the request’s run id names no stored run');
    await replayWithClient(aguiFramesBody(resumed));

    const again = await aguiRun(
      t,
      rt,
      aguiBody({
        runId: 'r-3',
        messages: [{ id: 't-1', role: 'tool', toolCallId: callId, content: 'x' }],
      }),
    );
    t.same(again.at(-1), {
      type: 'RUN_ERROR',
      message: 'No paused run matching the provided tool results found in session th-1',
    });
  },
);

/** Starts a run paused on `ask_weather` in thread th-1 (run r-1); returns the call id. */
async function pausedOnWeather(
  t: Test,
  rt: TestRuntime,
  headers: Record<string, string> = {},
): Promise<string> {
  const frames = await aguiRun(
    t,
    rt,
    aguiBody({ messages: [userMessage('please ask_weather')], tools: [WEATHER] }),
    headers,
  );
  return only(frames, 'TOOL_CALL_START')['toolCallId'] as string;
}

t.test('resume[] answers interrupts: resolved with a payload, or cancelled', async (t) => {
  const rt = runtimeApp(t);
  const callId = await pausedOnWeather(t, rt);
  const resolved = await aguiRun(
    t,
    rt,
    aguiBody({
      runId: 'r-2',
      messages: [],
      resume: [{ interruptId: callId, status: 'resolved', payload: { sky: 'clear' } }],
    }),
  );
  t.equal(textOf(resolved), 'Tool ask_weather returned: {"sky":"clear"}');
  t.same(resolved.at(-1), { type: 'RUN_FINISHED', threadId: 'th-1', runId: 'r-2' });

  const second = await aguiRun(
    t,
    rt,
    aguiBody({ runId: 'r-3', messages: [userMessage('again ask_weather')], tools: [WEATHER] }),
  );
  const secondId = only(second, 'TOOL_CALL_START')['toolCallId'] as string;
  const cancelled = await aguiRun(
    t,
    rt,
    aguiBody({
      runId: 'r-4',
      messages: [],
      resume: [{ interruptId: secondId, status: 'cancelled' }],
    }),
  );
  t.equal(textOf(cancelled), 'Tool ask_weather returned: cancelled by user');
  const tools = ((await rt.store.getRun('r-3')) as RunRecord).output['tools'] as Record<
    string,
    unknown
  >[];
  t.match(tools, [{ tool_call_id: secondId, result: 'cancelled by user', tool_call_error: true }]);
});

t.test('resume errors are RUN_ERROR after RUN_STARTED', async (t) => {
  const rt = runtimeApp(t);
  const callId = await pausedOnWeather(
    t,
    rt,
    contextHeader({ user_id: 'alice', scoped_user_id: 'alice' }),
  );
  const resume = (
    fields: Record<string, unknown>,
    headers = contextHeader({ user_id: 'alice', scoped_user_id: 'alice' }),
  ) => aguiRun(t, rt, aguiBody({ runId: 'r-x', messages: [], ...fields }), headers);
  const rows: [string, Frame[], string][] = [
    [
      'an unknown session',
      await resume({ threadId: 'nope', resume: [{ interruptId: callId, status: 'resolved' }] }),
      'Session nope not found',
    ],
    [
      'another user’s session',
      await resume(
        { resume: [{ interruptId: callId, status: 'resolved' }] },
        contextHeader({ user_id: 'bob', scoped_user_id: 'bob' }),
      ),
      'Session th-1 not found',
    ],
    [
      'an anonymous caller on a user’s session',
      await aguiRun(
        t,
        rt,
        aguiBody({
          runId: 'r-x',
          messages: [],
          resume: [{ interruptId: callId, status: 'resolved' }],
        }),
      ),
      'Session th-1 not found',
    ],
    [
      'an interrupt no paused run has',
      await resume({ resume: [{ interruptId: 'ghost', status: 'resolved' }] }),
      'No paused run matching the provided tool results found in session th-1',
    ],
    [
      'an interrupt that is not open beside one that is',
      await resume({
        resume: [
          { interruptId: callId, status: 'resolved' },
          { interruptId: 'ghost', status: 'resolved' },
        ],
      }),
      'Interrupt ghost is not open',
    ],
  ];
  for (const [name, frames, message] of rows) {
    t.same(
      frames,
      [
        { type: 'RUN_STARTED', threadId: (frames[0] as Frame)['threadId'], runId: 'r-x' },
        { type: 'RUN_ERROR', message },
      ],
      name,
    );
  }
  t.match(await rt.store.getRun('r-1'), { status: 'PAUSED' }, 'the paused run is untouched');
  const ok = await resume({
    resume: [{ interruptId: callId, status: 'resolved', payload: 'rain' }],
  });
  t.equal(textOf(ok), 'Tool ask_weather returned: rain', 'its owner resumes it');
});

t.test('a session of another entity is not the thread to resume in', async (t) => {
  const rt = runtimeApp(t);
  await rt.store.putSession(
    sessionRecord({ session_id: 'th-team', session_type: 'team', component_id: 't1' }),
  );
  await rt.store.putSession(sessionRecord({ session_id: 'th-a2', component_id: 'a2' }));
  for (const threadId of ['th-team', 'th-a2']) {
    const frames = await aguiRun(
      t,
      rt,
      aguiBody({ threadId, messages: [{ id: 't', role: 'tool', toolCallId: 'c', content: 'x' }] }),
    );
    t.same(
      frames.at(-1),
      { type: 'RUN_ERROR', message: `Session ${threadId} not found` },
      threadId,
    );
  }
});

/** A stored PAUSED run of a1 in session th-1 waiting on call `c-9`, as the engine checkpoints it. */
async function storePausedRun(
  store: RuntimeStore,
  overrides: Partial<RunRecord> = {},
): Promise<void> {
  await store.putSession(sessionRecord({ session_id: 'th-1' }));
  await store.putRun(
    runRecord({
      run_id: 'paused-1',
      session_id: 'th-1',
      status: 'PAUSED',
      checkpoint: {
        v: 1,
        message: 'x',
        clientTools: [],
        run: {
          kind: 'agent',
          runId: 'someone-else',
          pending: [{ id: 'c-9', name: 'ask', args: {} }],
        },
      },
      ...overrides,
    }),
  );
}

t.test('a paused run the service or the engine refuses to continue: RUN_ERROR', async (t) => {
  const rt = runtimeApp(t);
  const answer = aguiBody({
    runId: 'r-x',
    messages: [{ id: 't', role: 'tool', toolCallId: 'c-9', content: 'x' }],
  });
  await storePausedRun(rt.store, { component_id: 'a2' });
  t.same(
    (await aguiRun(t, rt, answer)).at(-1),
    { type: 'RUN_ERROR', message: 'Session th-1 not found' },
    'another agent’s run',
  );
  await storePausedRun(rt.store);
  t.same(
    (await aguiRun(t, rt, answer)).at(-1),
    { type: 'RUN_ERROR', message: 'Run paused-1 has no checkpoint to continue from' },
    'a checkpoint the engine did not write for this run',
  );
});

t.test(
  'fresh-run errors: no user message, a model failure, a foreign session, a run id in use',
  async (t) => {
    const rt = runtimeApp(t);
    const noUser = await aguiRun(
      t,
      rt,
      aguiBody({ messages: [{ id: 's', role: 'system', content: 'x' }] }),
    );
    t.same(noUser, [
      { type: 'RUN_STARTED', threadId: 'th-1', runId: 'r-1' },
      { type: 'RUN_ERROR', message: 'No user message to run' },
    ]);
    const failed = await aguiRun(
      t,
      rt,
      aguiBody({ messages: [userMessage('/error the model is down')] }),
    );
    t.same(mapped(failed), ['RUN_STARTED', 'RUN_ERROR']);
    t.same(failed.at(-1), { type: 'RUN_ERROR', message: 'the model is down' });
    t.match(await rt.store.getRun('r-1'), { status: 'ERROR' });
    await t.resolves(replayWithClient(aguiFramesBody(failed)), 'the client takes the errored run');
    const reused = await aguiRun(t, rt, aguiBody({ threadId: 'th-2' }));
    t.same(reused.at(-1), { type: 'RUN_ERROR', message: 'Run r-1 already exists' });
    await rt.store.putSession(sessionRecord({ session_id: 'th-bob', user_id: 'bob' }));
    const foreign = await aguiRun(
      t,
      rt,
      aguiBody({ threadId: 'th-bob', runId: 'r-9' }),
      contextHeader({ user_id: 'alice', scoped_user_id: 'alice' }),
    );
    t.same(foreign.at(-1), { type: 'RUN_ERROR', message: 'Session th-bob not found' });
  },
);

t.test(
  'forwardedProps.user_id: an anonymous caller’s own name; a reserved one is 403',
  async (t) => {
    const rt = runtimeApp(t);
    await aguiRun(t, rt, aguiBody({ forwardedProps: { user_id: 'carol' } }));
    t.match(await rt.store.getSession('th-1'), { user_id: 'carol' });
    for (const userId of ['sa:bot', '__oauth__:x', '__scheduler__']) {
      const res = await postAgui(
        rt,
        aguiBody({ threadId: 'th-r', runId: `r-${userId}`, forwardedProps: { user_id: userId } }),
      );
      t.equal(res.statusCode, 403, userId);
      t.same(res.json(), { detail: 'Client-supplied user_id may not claim a reserved principal' });
    }
    t.equal(await rt.store.getSession('th-r'), null, 'nothing ran');
    const authenticated = await aguiRun(
      t,
      rt,
      aguiBody({ threadId: 'th-a', runId: 'r-a', forwardedProps: { user_id: 'sa:bot' } }),
      contextHeader({ user_id: 'dave' }),
    );
    t.equal(
      authenticated.at(-1)?.type,
      'RUN_FINISHED',
      'an authenticated caller’s claim is ignored',
    );
    t.match(await rt.store.getSession('th-a'), { user_id: 'dave' });
  },
);

t.test(
  'a team behind AG-UI: delegations as tool calls, the team’s answer as the text',
  async (t) => {
    const rt = runtimeApp(t, { settings: { ...SETTINGS, agui: { team: 't1' } } });
    const frames = await aguiRun(t, rt, aguiBody({ messages: [userMessage('hi all')] }));
    t.same(mapped(frames), [
      'RUN_STARTED',
      ...[
        'TEXT_MESSAGE_START',
        'TEXT_MESSAGE_END',
        'TOOL_CALL_START',
        'TOOL_CALL_ARGS',
        'TOOL_CALL_END',
        'TOOL_CALL_RESULT',
      ],
      ...[
        'TEXT_MESSAGE_START',
        'TEXT_MESSAGE_END',
        'TOOL_CALL_START',
        'TOOL_CALL_ARGS',
        'TOOL_CALL_END',
        'TOOL_CALL_RESULT',
      ],
      'TEXT_MESSAGE_START',
      ...Array.from({ length: 6 }, () => 'TEXT_MESSAGE_CONTENT'),
      'TEXT_MESSAGE_END',
      'RUN_FINISHED',
    ]);
    t.same(
      frames
        .filter((frame) => frame.type === 'TOOL_CALL_START')
        .map((frame) => frame['toolCallName']),
      ['delegate_task_to_member', 'delegate_task_to_member'],
    );
    t.equal(textOf(frames), 'Echo: hi all\n\nEcho: hi all');
    t.match(await rt.store.getSession('th-1'), { session_type: 'team', component_id: 't1' });
    const replay = await replayWithClient(aguiFramesBody(frames));
    t.match(replay.agent.messages.at(-1), {
      role: 'assistant',
      content: 'Echo: hi all\n\nEcho: hi all',
    });
  },
);

t.test('a team paused in a member: interrupts, resumed member by member', async (t) => {
  const rt = runtimeApp(t, { settings: { ...SETTINGS, agui: { team: 't1' } } });
  const first = await aguiRun(
    t,
    rt,
    aguiBody({ messages: [userMessage('ask_weather please')], tools: [WEATHER] }),
  );
  const firstCall = (first.at(-1)?.['outcome'] as { interrupts: { id: string }[] }).interrupts[0]
    ?.id as string;
  t.ok(firstCall, 'the first member’s call interrupts');
  await replayWithClient(aguiFramesBody(first));
  // Every member gets the client tools, so the second member asks too.
  const second = await aguiRun(
    t,
    rt,
    aguiBody({
      runId: 'r-2',
      messages: [],
      resume: [{ interruptId: firstCall, status: 'resolved', payload: 'sun' }],
    }),
  );
  t.same(
    second.filter((frame) => frame.type === 'TOOL_CALL_RESULT').map((frame) => frame['content']),
    ['"Tool ask_weather returned: sun"'],
    'the first delegation completes with only its result',
  );
  const secondCall = (second.at(-1)?.['outcome'] as { interrupts: { id: string }[] }).interrupts[0]
    ?.id as string;
  t.not(secondCall, firstCall);
  await replayWithClient(aguiFramesBody(second));
  const done = await aguiRun(
    t,
    rt,
    aguiBody({
      runId: 'r-3',
      messages: [],
      resume: [{ interruptId: secondCall, status: 'resolved', payload: 'rain' }],
    }),
  );
  t.equal(textOf(done), 'Tool ask_weather returned: sun\n\nTool ask_weather returned: rain');
  t.match(await rt.store.getRun('r-1'), { status: 'COMPLETED' });
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

t.test('a client that leaves mid-stream cancels the run, which is still stored', async (t) => {
  const sleeping = deferred();
  const wake = deferred();
  const watched = watchSettled(openRuntimeStore(':memory:'));
  const rt = runtimeApp(t, {
    store: watched.store,
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
    path: '/agui',
    headers: { ...JSON_TYPE, ...anonymousHeader() },
    agent: false,
  });
  req.on('error', () => {}); // destroyed on purpose below
  req.end(JSON.stringify(aguiBody({ messages: [userMessage('/slow 3 60000')] })));
  const [res] = (await once(req, 'response')) as [IncomingMessage];
  t.equal(res.statusCode, 200);
  await sleeping.promise;
  t.match(await rt.store.getRun('r-1'), { status: 'RUNNING' });
  req.destroy();
  await serverSideClosed;
  wake.resolve();
  const final = await watched.settled;
  t.match(final, { run_id: 'r-1', status: 'CANCELLED', output: { content: '1' } });
});
