/**
 * AG-UI end to end: the bundled runtime behind a real gateway
 * with real RS256 JWTs and a real SQLite file — raw HTTP for the stream, the 422 bodies, an
 * interrupt and its resume, the 403 without `agents:run` — and `@ag-ui/client`'s HttpAgent
 * running the agent through the gateway.
 */
import { buildResumeArray, HttpAgent } from '@ag-ui/client';
import t, { type Test } from 'tap';
import { bearer, send, type Answer } from '../fixtures/e2e.js';
import { startRuntimeStack } from '../fixtures/runtime-stack.js';
import { goodToken, TEST_SUBJECT } from '../fixtures/tokens.js';
import { aguiFrames, runRecording, typesOf, type Frame } from '../runtime/fixtures/agui.js';

const RUNTIME = {
  os_id: 'e2e-agui',
  db: 'runtime.db',
  agents: [{ id: 'helper', name: 'Helper', tools: ['add'] }],
};

const JSON_TYPE = { 'content-type': 'application/json' };
const WEATHER = { name: 'ask_weather', description: 'Asks the browser for the weather.' };

/** The runtime (its own SQLite file) behind a gateway that checks RS256 JWTs and scopes. */
async function stack(t: Test) {
  return startRuntimeStack(t, RUNTIME);
}

/** A RunAgentInput: thread th-1, run r-1, one user message; `fields` replace. */
function aguiBody(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    threadId: 'th-1',
    runId: 'r-1',
    state: {},
    messages: [{ id: 'u-1', role: 'user', content: 'hello' }],
    tools: [],
    context: [],
    forwardedProps: {},
    ...fields,
  };
}

function postAgui(gatewayUrl: string, token: string, body: unknown): Promise<Answer> {
  return send(gatewayUrl, {
    method: 'POST',
    path: '/agui',
    headers: { ...bearer(token), ...JSON_TYPE },
    body: JSON.stringify(body),
  });
}

const textOf = (frames: readonly Frame[]): string =>
  frames
    .filter((frame) => frame.type === 'TEXT_MESSAGE_CONTENT')
    .map((frame) => frame['delta'] as string)
    .join('');

const withoutRaw = (frames: readonly Frame[]): string[] =>
  typesOf(frames).filter((type) => type !== 'RAW');

t.test('a run streams AG-UI events through the gateway', async (t) => {
  const { gateway, runtime } = await stack(t);
  const token = await goodToken({ scopes: ['agents:run'] });
  const answer = await postAgui(gateway.url, token, aguiBody());
  t.equal(answer.status, 200);
  t.equal(answer.headers['content-type'], 'text/event-stream');
  const frames = aguiFrames(answer.body);
  t.same(withoutRaw(frames), [
    'RUN_STARTED',
    'STATE_SNAPSHOT',
    'TEXT_MESSAGE_START',
    'TEXT_MESSAGE_CONTENT',
    'TEXT_MESSAGE_CONTENT',
    'TEXT_MESSAGE_END',
    'STATE_SNAPSHOT',
    'RUN_FINISHED',
  ]);
  t.equal(textOf(frames), 'Echo: hello');
  t.same(frames.at(-1), { type: 'RUN_FINISHED', threadId: 'th-1', runId: 'r-1' });
  t.match(await runtime.store.getSession('th-1'), {
    user_id: TEST_SUBJECT,
    component_id: 'helper',
  });
  t.match(await runtime.store.getRun('r-1'), { status: 'COMPLETED', user_id: TEST_SUBJECT });
});

t.test('invalid bodies come back as the runtime’s exact 422', async (t) => {
  const { gateway } = await stack(t);
  const token = await goodToken({ scopes: ['agents:run'] });
  const noThread = aguiBody();
  delete noThread['threadId'];
  const missing = await postAgui(gateway.url, token, noThread);
  t.equal(missing.status, 422);
  t.same(missing.json, {
    detail: [
      { type: 'missing', loc: ['body', 'threadId'], msg: 'Field required', input: noThread },
    ],
  });
  const robot = { id: 'u-1', role: 'robot', content: 'hi' };
  const role = await postAgui(gateway.url, token, aguiBody({ messages: [robot] }));
  t.equal(role.status, 422);
  const roles = "'developer', 'system', 'assistant', 'user', 'tool', 'activity', 'reasoning'";
  t.same(role.json, {
    detail: [
      {
        type: 'union_tag_invalid',
        loc: ['body', 'messages', 0],
        msg: `Input tag 'robot' found using 'role' does not match any of the expected tags: ${roles}`,
        input: robot,
        ctx: { discriminator: "'role'", tag: 'robot', expected_tags: roles },
      },
    ],
  });
  const status = await postAgui(
    gateway.url,
    token,
    aguiBody({ resume: [{ interruptId: 'i-1', status: 'approved' }] }),
  );
  t.equal(status.status, 422);
  t.same(status.json, {
    detail: [
      {
        type: 'literal_error',
        loc: ['body', 'resume', 0, 'status'],
        msg: "Input should be 'resolved' or 'cancelled'",
        input: 'approved',
        ctx: { expected: "'resolved' or 'cancelled'" },
      },
    ],
  });
});

t.test('a client tool interrupts the run; resume[] continues it', async (t) => {
  const { gateway, runtime } = await stack(t);
  const token = await goodToken({ scopes: ['agents:run'] });
  const first = aguiFrames(
    (
      await postAgui(
        gateway.url,
        token,
        aguiBody({
          messages: [{ id: 'u-1', role: 'user', content: 'ask_weather now' }],
          tools: [WEATHER],
        }),
      )
    ).body,
  );
  const finished = first.at(-1) as Frame;
  t.match(finished, { type: 'RUN_FINISHED', outcome: { type: 'interrupt' } });
  const [interrupt] = (finished['outcome'] as { interrupts: { id: string; toolCallId: string }[] })
    .interrupts;
  t.match(interrupt, { reason: 'tool_call' });
  t.equal(interrupt?.id, interrupt?.toolCallId);
  t.match(await runtime.store.getRun('r-1'), { status: 'PAUSED' });
  const resumed = aguiFrames(
    (
      await postAgui(
        gateway.url,
        token,
        aguiBody({
          runId: 'r-2',
          messages: [],
          resume: [{ interruptId: interrupt?.id, status: 'resolved', payload: 'sunny' }],
        }),
      )
    ).body,
  );
  t.same(resumed[0], { type: 'RUN_STARTED', threadId: 'th-1', runId: 'r-2' });
  t.equal(textOf(resumed), 'Tool ask_weather returned: sunny');
  t.same(resumed.at(-1), { type: 'RUN_FINISHED', threadId: 'th-1', runId: 'r-2' });
  t.match(await runtime.store.getRun('r-1'), { status: 'COMPLETED' });
});

t.test('a token without agents:run is refused by the gateway', async (t) => {
  const { gateway, runtime } = await stack(t);
  const token = await goodToken({ scopes: ['teams:run', 'agents:helper:run'] });
  const answer = await postAgui(gateway.url, token, aguiBody());
  t.equal(answer.status, 403);
  t.same(answer.json, { detail: 'Insufficient permissions. Required scope(s): agents:run' });
  t.equal(await runtime.store.getSession('th-1'), null, 'the runtime never saw it');
});

t.test('@ag-ui/client HttpAgent runs the agent through the gateway', async (t) => {
  const { gateway } = await stack(t);
  const token = await goodToken({ scopes: ['agents:run'] });
  const agent = new HttpAgent({
    url: `${gateway.url}/agui`,
    headers: bearer(token),
    threadId: 'th-client',
    initialMessages: [{ id: 'u-1', role: 'user', content: '/tool add {"a": 2, "b": 3}' }],
    initialState: { theme: 'dark' },
  });
  const first = await runRecording(agent);
  t.same(
    first.types.filter((type) => type !== 'RAW'),
    [
      'RUN_STARTED',
      'STATE_SNAPSHOT',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_END',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'TOOL_CALL_RESULT',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'STATE_SNAPSHOT',
      'RUN_FINISHED',
    ],
  );
  t.match(agent.messages, [
    { id: 'u-1', role: 'user' },
    { role: 'assistant', toolCalls: [{ function: { name: 'add', arguments: '{"a":2,"b":3}' } }] },
    { role: 'tool', content: '5' },
    { role: 'assistant', content: 'Tool add returned: 5' },
  ]);
  t.same(agent.state, { theme: 'dark' });

  // A frontend tool: the run is interrupted, the client answers, the run goes on.
  agent.addMessage({ id: 'u-2', role: 'user', content: 'what is the weather? ask_weather' });
  const paused = await runRecording(agent, { tools: [WEATHER] });
  t.equal(paused.types.at(-1), 'RUN_FINISHED');
  t.equal(agent.pendingInterrupts.length, 1);
  t.match(agent.messages.at(-1), {
    role: 'assistant',
    toolCalls: [{ function: { name: 'ask_weather' } }],
  });
  const [open] = agent.pendingInterrupts;
  const resumed = await runRecording(agent, {
    tools: [WEATHER],
    resume: buildResumeArray(agent.pendingInterrupts, {
      [open?.id as string]: { status: 'resolved', payload: { sky: 'clear' } },
    }),
  });
  t.same(agent.pendingInterrupts, []);
  t.ok(resumed.types.includes('TEXT_MESSAGE_CONTENT'));
  t.match(agent.messages.at(-1), {
    role: 'assistant',
    content: 'Tool ask_weather returned: {"sky":"clear"}',
  });
});
