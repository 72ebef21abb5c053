/**
 * What a RunAgentInput asks for: a fresh run or a resume — by trailing tool
 * messages or by `resume[]` — the results it makes for a paused run's calls and why it may not,
 * and the run's message, dependencies, client tools, user id and state.
 */
import t from 'tap';
import {
  parseRunAgentInput,
  type RunAgentInput,
} from '../../../../src/runtime/protocols/agui/input.js';
import {
  answeredIds,
  CANCELLED_RESULT,
  clientToolsOf,
  clientUserIdOf,
  dependenciesOf,
  requestOf,
  resultsFor,
  stateOf,
  userTextOf,
} from '../../../../src/runtime/protocols/agui/resume.js';
import type { PendingCall } from '../../../../src/runtime/api/runs/service.js';

/** A validated input with these fields over a minimal valid one. */
function input(fields: Record<string, unknown> = {}): RunAgentInput {
  return parseRunAgentInput(
    JSON.stringify({
      threadId: 't',
      runId: 'r',
      state: null,
      messages: [],
      tools: [],
      context: [],
      forwardedProps: null,
      ...fields,
    }),
    'application/json',
  );
}

const user = (content: unknown, id = 'u') => ({ id, role: 'user', content });
const toolMessage = (toolCallId: string, content: string, error?: string | null) => ({
  id: `tm-${toolCallId}`,
  role: 'tool',
  toolCallId,
  content,
  ...(error === undefined ? {} : { error }),
});
const assistantCalling = (...ids: string[]) => ({
  id: 'a',
  role: 'assistant',
  toolCalls: ids.map((id) => ({ id, type: 'function', function: { name: 'f', arguments: '{}' } })),
});
const pending = (...ids: string[]): PendingCall[] =>
  ids.map((id) => ({ toolCallId: id, toolName: `tool_${id}`, toolArgs: {} }));

t.test('a fresh run: no resume entries and no trailing tool messages', async (t) => {
  const rows: [string, Record<string, unknown>][] = [
    ['only a user message', { messages: [user('hi')] }],
    ['a tool message earlier in the history', { messages: [toolMessage('c', 'x'), user('hi')] }],
    ['an empty resume[]', { messages: [user('hi')], resume: [] }],
    ['a null resume', { messages: [user('hi')], resume: null }],
  ];
  for (const [name, fields] of rows) t.same(requestOf(input(fields)), { kind: 'run' }, name);
});

t.test(
  'trailing tool messages resume, in order; an error text makes an error result',
  async (t) => {
    const request = requestOf(
      input({
        messages: [
          user('hi'),
          assistantCalling('c-1', 'c-2', 'c-3'),
          toolMessage('c-1', 'red'),
          toolMessage('c-2', 'ignored', 'it broke'),
          toolMessage('c-3', 'ok', null),
        ],
      }),
    );
    t.same(request, {
      kind: 'tool-messages',
      results: [
        { toolCallId: 'c-1', content: 'red', error: false },
        { toolCallId: 'c-2', content: 'it broke', error: true },
        { toolCallId: 'c-3', content: 'ok', error: false },
      ],
    });
    t.same(answeredIds(request as Exclude<typeof request, { kind: 'run' }>), ['c-1', 'c-2', 'c-3']);
  },
);

t.test('resume[] wins over trailing tool messages', async (t) => {
  const answers = [{ interruptId: 'c-1', status: 'resolved', payload: { color: 'red' } }];
  const request = requestOf(input({ messages: [toolMessage('c-9', 'x')], resume: answers }));
  t.same(request, { kind: 'resume', answers });
  t.same(answeredIds(request as Exclude<typeof request, { kind: 'run' }>), ['c-1']);
});

t.test('resume answers: resolved payloads as text, cancelled as an error', async (t) => {
  const rows: [string, unknown, string][] = [
    ['a string payload as is', 'red', 'red'],
    ['an object payload as JSON', { color: 'red' }, '{"color":"red"}'],
    ['a null payload as JSON', null, 'null'],
  ];
  for (const [name, payload, content] of rows) {
    const request = {
      kind: 'resume' as const,
      answers: [{ interruptId: 'c', status: 'resolved' as const, payload }],
    };
    t.same(
      resultsFor(pending('c'), request),
      { ok: true, results: [{ toolCallId: 'c', content, error: false }] },
      name,
    );
  }
  t.same(
    resultsFor(pending('c', 'd'), {
      kind: 'resume',
      answers: [
        { interruptId: 'd', status: 'cancelled' },
        { interruptId: 'c', status: 'resolved' },
      ],
    }),
    {
      ok: true,
      results: [
        { toolCallId: 'c', content: '', error: false },
        { toolCallId: 'd', content: CANCELLED_RESULT, error: true },
      ],
    },
    'in the run’s order; no payload is an empty result',
  );
  t.equal(CANCELLED_RESULT, 'cancelled by user');
});

t.test('resume answers that do not fit the paused run', async (t) => {
  const resume = (...answers: { interruptId: string; status: 'resolved' | 'cancelled' }[]) =>
    ({ kind: 'resume', answers }) as const;
  t.same(resultsFor(pending('c'), resume({ interruptId: 'x', status: 'resolved' })), {
    ok: false,
    message: 'Interrupt x is not open',
  });
  t.same(
    resultsFor(
      pending('c'),
      resume({ interruptId: 'c', status: 'resolved' }, { interruptId: 'c', status: 'cancelled' }),
    ),
    { ok: false, message: 'Interrupt c is answered twice' },
  );
  t.same(resultsFor(pending('c', 'd'), resume({ interruptId: 'c', status: 'resolved' })), {
    ok: false,
    message: 'Partial resume: tool call d (tool_d) has no answer',
  });
});

t.test('tool messages: extra results ignored, a missing one refused', async (t) => {
  const results = [
    { toolCallId: 'other', content: 'x', error: false },
    { toolCallId: 'c', content: 'red', error: false },
  ];
  t.same(resultsFor(pending('c'), { kind: 'tool-messages', results }), {
    ok: true,
    results: [results[1]],
  });
  t.same(resultsFor(pending('c', 'd'), { kind: 'tool-messages', results }), {
    ok: false,
    message: 'Partial resume: tool call d (tool_d) has no answer',
  });
});

t.test('the run’s message: the last user message, text parts joined by newlines', async (t) => {
  const rows: [string, unknown[], string | null][] = [
    ['no user message', [{ id: 's', role: 'system', content: 'x' }], null],
    [
      'the last one',
      [user('first', 'u1'), { id: 'a', role: 'assistant', content: 'x' }, user('last', 'u2')],
      'last',
    ],
    [
      'text parts only, joined',
      [
        user([
          { type: 'text', text: 'line one' },
          { type: 'image', source: { type: 'url', value: 'https://x/i.png' } },
          { type: 'text', text: 'line two' },
        ]),
      ],
      'line one\nline two',
    ],
    ['media only', [user([{ type: 'binary', mimeType: 'image/png', data: 'AA==' }])], ''],
  ];
  for (const [name, messages, text] of rows) {
    t.equal(userTextOf(input({ messages }).messages), text, name);
  }
});

t.test(
  'context[] → dependencies {description: value}, values JSON-decoded when they can be',
  async (t) => {
    t.equal(dependenciesOf([]), null);
    const deps = dependenciesOf([
      { description: 'user', value: '{"name": "Ada"}' },
      { description: 'count', value: '3' },
      { description: 'note', value: 'plain words' },
      { description: '__proto__', value: '{"polluted": true}' },
    ]);
    t.same(Object.keys(deps ?? {}), ['user', 'count', 'note', '__proto__']);
    t.same(deps?.['user'], { name: 'Ada' });
    t.equal(deps?.['count'], 3);
    t.equal(deps?.['note'], 'plain words');
    t.equal(Object.getPrototypeOf(deps), Object.prototype, 'a __proto__ description is data');
  },
);

t.test(
  'tools[] → client tools: external, parameters defaulting to an empty object schema',
  async (t) => {
    const schema = { type: 'object', properties: { for: { type: 'string' } } };
    const tools = clientToolsOf(
      input({
        tools: [
          { name: 'pick', description: 'Picks.', parameters: schema },
          { name: 'bare', description: 'No parameters.' },
          { name: 'odd', description: 'A non-object schema.', parameters: 'x' },
        ],
      }).tools,
    );
    const empty = { type: 'object', properties: {} };
    t.same(tools, [
      { name: 'pick', description: 'Picks.', parameters: schema, external_execution: true },
      { name: 'bare', description: 'No parameters.', parameters: empty, external_execution: true },
      {
        name: 'odd',
        description: 'A non-object schema.',
        parameters: empty,
        external_execution: true,
      },
    ]);
    t.not(tools[1]?.parameters, tools[2]?.parameters, 'each its own copy');
  },
);

t.test('forwardedProps.user_id is read only from an object, only as a string', async (t) => {
  t.equal(clientUserIdOf({ user_id: 'carol' }), 'carol');
  for (const props of [null, 'carol', ['carol'], { user_id: 7 }, {}]) {
    t.equal(clientUserIdOf(props), null, JSON.stringify(props));
  }
});

t.test('state is the run’s session state only when it is an object', async (t) => {
  t.same(stateOf({ a: 1 }), { a: 1 });
  for (const state of [null, [1], 'x', 3]) t.equal(stateOf(state), null, JSON.stringify(state));
});
