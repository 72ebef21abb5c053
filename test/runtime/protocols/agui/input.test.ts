/**
 * The RunAgentInput of `POST /agui`: what the AG-UI route
 * requires is required, what it allows is accepted (also where @ag-ui/core is stricter), and every refusal is
 * the exact FastAPI/pydantic 422 entry.
 */
import t, { type Test } from 'tap';
import { parseRunAgentInput } from '../../../../src/runtime/protocols/agui/input.js';
import { HttpError } from '../../../../src/runtime/http/errors.js';
import type { ValidationIssue } from '../../../../src/shared/validation-issue.js';

const USER = { id: 'm-1', role: 'user', content: 'hi' };
const VALID = Object.freeze({
  threadId: 't-1',
  runId: 'r-1',
  state: null,
  messages: [USER],
  tools: [],
  context: [],
  forwardedProps: null,
});
const JSON_TYPE = 'application/json';

/** pydantic's label of the list member of a user message's content union. */
const PARTS =
  'list[tagged-union[TextInputContent,ImageInputContent,AudioInputContent,VideoInputContent,DocumentInputContent,BinaryInputContent]]';
const ROLES = "'developer', 'system', 'assistant', 'user', 'tool', 'activity', 'reasoning'";

function parse(body: unknown, contentType: string | undefined = JSON_TYPE) {
  return parseRunAgentInput(typeof body === 'string' ? body : JSON.stringify(body), contentType);
}

/** The 422 details a body gets (fails the test when it is accepted). */
function refusal(t: Test, body: unknown, contentType?: string): readonly ValidationIssue[] {
  try {
    parse(body, contentType);
  } catch (error) {
    t.ok(error instanceof HttpError, 'an HttpError');
    t.equal((error as HttpError).status, 422, '422');
    return (error as HttpError).detail as readonly ValidationIssue[];
  }
  t.fail('accepted');
  return [];
}

const withMessages = (...messages: unknown[]) => ({ ...VALID, messages });
const without = (key: string): Record<string, unknown> => {
  const body: Record<string, unknown> = { ...VALID };
  delete body[key];
  return body;
};

t.test('every required field is missing on its own → its own 422 entry', async (t) => {
  const required = ['threadId', 'runId', 'state', 'messages', 'tools', 'context', 'forwardedProps'];
  for (const key of required) {
    const body = without(key);
    t.same(
      refusal(t, body),
      [{ type: 'missing', loc: ['body', key], msg: 'Field required', input: body }],
      key,
    );
  }
  t.same(
    refusal(t, {}).map((detail) => detail.loc.join('.')),
    required.map((key) => `body.${key}`),
    'all of them at once, in the order of the fields',
  );
});

t.test('what the AG-UI route allows is accepted, also where @ag-ui/core refuses it', async (t) => {
  const rows: [string, Record<string, unknown>][] = [
    ['state null, forwardedProps null', {}],
    ['state and forwardedProps of any JSON', { state: [1], forwardedProps: 'x' }],
    ['parentRunId and resume null', { parentRunId: null, resume: null }],
    ['extra keys of any value', { protocolVersion: 3, extra: { a: 1 }, metadata: null }],
    ['a tool with null parameters', { tools: [{ name: 'x', description: 'd', parameters: null }] }],
    [
      'a resume entry with a null payload',
      { resume: [{ interruptId: 'i', status: 'resolved', payload: null }] },
    ],
    [
      'every message kind, nulls where they are allowed',
      {
        messages: [
          { id: '1', role: 'developer', content: 'c', name: null, encryptedValue: null },
          { id: '2', role: 'system', content: 'c', metadata: null, subagentRunId: 5 },
          {
            id: '3',
            role: 'assistant',
            content: null,
            toolCalls: [
              { id: 'c', function: { name: 'f', arguments: '{}' }, encryptedValue: null },
            ],
          },
          { id: '4', role: 'assistant', toolCalls: null },
          {
            id: '5',
            role: 'tool',
            content: 'r',
            toolCallId: 'c',
            error: null,
            encryptedValue: null,
          },
          { id: '6', role: 'activity', activityType: 'a', content: {} },
          { id: '7', role: 'reasoning', content: 'r', encryptedValue: null },
          USER,
        ],
      },
    ],
    [
      'every InputContent kind',
      {
        messages: [
          {
            id: 'u',
            role: 'user',
            content: [
              { type: 'text', text: 't', id: 5 },
              { type: 'image', source: { type: 'data', value: 'AA==', mimeType: 'image/png' } },
              { type: 'audio', source: { type: 'url', value: 'https://x/a', mimeType: null } },
              { type: 'video', source: { type: 'url', value: 'https://x/v' }, metadata: null },
              { type: 'document', source: { type: 'url', value: 'https://x/d' }, metadata: [1] },
              { type: 'binary', mimeType: 'image/png', data: 'AA==' },
              { type: 'binary', mimeType: 'image/png', url: 'https://x/b', id: null },
              { type: 'binary', mimeType: 'image/png', id: 'f-1', filename: null },
            ],
          },
        ],
      },
    ],
  ];
  for (const [name, fields] of rows) {
    const input = parse({ ...VALID, ...fields });
    t.same(input, { ...VALID, ...fields }, name);
  }
});

t.test('snake_case keys are accepted; a camelCase key beside one wins', async (t) => {
  const input = parse({
    thread_id: 't-1',
    run_id: 'r-1',
    parent_run_id: 'p-1',
    state: {},
    messages: [
      {
        id: 'a',
        role: 'assistant',
        tool_calls: [{ id: 'c', function: { name: 'f', arguments: '{}' }, encrypted_value: 'e' }],
      },
      { id: 't', role: 'tool', content: 'r', tool_call_id: 'c' },
      { id: 'x', role: 'activity', activity_type: 'a', content: { snake_key: 1 } },
      {
        id: 'u',
        role: 'user',
        content: [
          { type: 'image', source: { type: 'data', value: 'AA==', mime_type: 'image/png' } },
        ],
      },
    ],
    tools: [],
    context: [],
    forwarded_props: { user_id: 'u' },
    resume: [{ interrupt_id: 'i', status: 'cancelled' }],
  });
  t.match(input, {
    threadId: 't-1',
    runId: 'r-1',
    parentRunId: 'p-1',
    forwardedProps: { user_id: 'u' },
    resume: [{ interruptId: 'i', status: 'cancelled' }],
  });
  t.match(input.messages, [
    { toolCalls: [{ id: 'c', encryptedValue: 'e' }] },
    { toolCallId: 'c' },
    { activityType: 'a', content: { snake_key: 1 } },
    { content: [{ source: { mimeType: 'image/png' } }] },
  ]);
  const both = parse({ ...VALID, thread_id: 'snake' });
  t.equal(both.threadId, 't-1', 'the camelCase key wins');
  t.equal((both as Record<string, unknown>)['thread_id'], 'snake', 'the other stays an extra key');
});

t.test('a message without role or with an unknown one: the union tag errors', async (t) => {
  const noRole = { id: 'm', content: 'x' };
  const badRole = { id: 'm', role: 'robot', content: 'x' };
  t.same(refusal(t, withMessages(USER, noRole, badRole)), [
    {
      type: 'union_tag_not_found',
      loc: ['body', 'messages', 1],
      msg: "Unable to extract tag using discriminator 'role'",
      input: noRole,
      ctx: { discriminator: "'role'" },
    },
    {
      type: 'union_tag_invalid',
      loc: ['body', 'messages', 2],
      msg: `Input tag 'robot' found using 'role' does not match any of the expected tags: ${ROLES}`,
      input: badRole,
      ctx: { discriminator: "'role'", tag: 'robot', expected_tags: ROLES },
    },
  ]);
  t.same(refusal(t, withMessages(7)), [
    {
      type: 'model_attributes_type',
      loc: ['body', 'messages', 0],
      msg: 'Input should be a valid dictionary or object to extract fields from',
      input: 7,
    },
  ]);
});

t.test('a user message without content: missing at messages.i.user.content', async (t) => {
  const message = { id: 'm', role: 'user' };
  t.same(refusal(t, withMessages(message)), [
    {
      type: 'missing',
      loc: ['body', 'messages', 0, 'user', 'content'],
      msg: 'Field required',
      input: message,
    },
  ]);
});

t.test('user content that is neither a string nor a list: both union members report', async (t) => {
  t.same(refusal(t, withMessages({ id: 'm', role: 'user', content: 5 })), [
    {
      type: 'string_type',
      loc: ['body', 'messages', 0, 'user', 'content', 'str'],
      msg: 'Input should be a valid string',
      input: 5,
    },
    {
      type: 'list_type',
      loc: ['body', 'messages', 0, 'user', 'content', PARTS],
      msg: 'Input should be a valid list',
      input: 5,
    },
  ]);
});

t.test('bad InputContent parts: each under the list member, tagged by its type', async (t) => {
  const parts = [
    { type: 'text' },
    { text: 'no type' },
    { type: 'sticker' },
    'a string',
    { type: 'image', source: { type: 'file', value: 'f-1' } },
    { type: 'audio', source: { type: 'data', value: 'AA==' } },
    { type: 'binary', mimeType: 'image/png', data: '' },
  ];
  const content = parts;
  const at = (...rest: (string | number)[]) => [
    'body',
    'messages',
    0,
    'user',
    'content',
    PARTS,
    ...rest,
  ];
  t.same(refusal(t, withMessages({ id: 'm', role: 'user', content })), [
    {
      type: 'string_type',
      loc: ['body', 'messages', 0, 'user', 'content', 'str'],
      msg: 'Input should be a valid string',
      input: content,
    },
    { type: 'missing', loc: at(0, 'text', 'text'), msg: 'Field required', input: parts[0] },
    {
      type: 'union_tag_not_found',
      loc: at(1),
      msg: "Unable to extract tag using discriminator 'type'",
      input: parts[1],
      ctx: { discriminator: "'type'" },
    },
    {
      type: 'union_tag_invalid',
      loc: at(2),
      msg: "Input tag 'sticker' found using 'type' does not match any of the expected tags: 'text', 'image', 'audio', 'video', 'document', 'binary'",
      input: parts[2],
      ctx: {
        discriminator: "'type'",
        tag: 'sticker',
        expected_tags: "'text', 'image', 'audio', 'video', 'document', 'binary'",
      },
    },
    {
      type: 'model_attributes_type',
      loc: at(3),
      msg: 'Input should be a valid dictionary or object to extract fields from',
      input: 'a string',
    },
    {
      type: 'union_tag_invalid',
      loc: at(4, 'image', 'source'),
      msg: "Input tag 'file' found using 'type' does not match any of the expected tags: 'data', 'url'",
      input: { type: 'file', value: 'f-1' },
      ctx: { discriminator: "'type'", tag: 'file', expected_tags: "'data', 'url'" },
    },
    {
      type: 'missing',
      loc: at(5, 'audio', 'source', 'data', 'mimeType'),
      msg: 'Field required',
      input: { type: 'data', value: 'AA==' },
    },
    {
      type: 'value_error',
      loc: at(6, 'binary'),
      msg: 'Value error, BinaryInputContent requires id, url, or data to be provided.',
      input: parts[6],
      ctx: { error: 'BinaryInputContent requires id, url, or data to be provided.' },
    },
  ]);
});

t.test('a resume entry with a status other than resolved or cancelled', async (t) => {
  t.same(refusal(t, { ...VALID, resume: [{ interruptId: 'i', status: 'approved' }] }), [
    {
      type: 'literal_error',
      loc: ['body', 'resume', 0, 'status'],
      msg: "Input should be 'resolved' or 'cancelled'",
      input: 'approved',
      ctx: { expected: "'resolved' or 'cancelled'" },
    },
  ]);
});

t.test('wrong types name pydantic’s type, message and class', async (t) => {
  const rows: [string, Record<string, unknown>, ValidationIssue[]][] = [
    [
      'threadId a number',
      { threadId: 5 },
      [
        {
          type: 'string_type',
          loc: ['body', 'threadId'],
          msg: 'Input should be a valid string',
          input: 5,
        },
      ],
    ],
    [
      'messages an object',
      { messages: {} },
      [
        {
          type: 'list_type',
          loc: ['body', 'messages'],
          msg: 'Input should be a valid list',
          input: {},
        },
      ],
    ],
    [
      'a tool that is not an object, a context without its fields',
      { tools: [3], context: [{}] },
      [
        {
          type: 'model_type',
          loc: ['body', 'tools', 0],
          msg: 'Input should be a valid dictionary or instance of Tool',
          input: 3,
          ctx: { class_name: 'Tool' },
        },
        {
          type: 'missing',
          loc: ['body', 'context', 0, 'description'],
          msg: 'Field required',
          input: {},
        },
        { type: 'missing', loc: ['body', 'context', 0, 'value'], msg: 'Field required', input: {} },
      ],
    ],
    [
      'a tool message with content parts (the content must be a string)',
      {
        messages: [
          { id: 't', role: 'tool', toolCallId: 'c', content: [{ type: 'text', text: 'x' }] },
        ],
      },
      [
        {
          type: 'string_type',
          loc: ['body', 'messages', 0, 'tool', 'content'],
          msg: 'Input should be a valid string',
          input: [{ type: 'text', text: 'x' }],
        },
      ],
    ],
    [
      'a tool call of another type, with a function that is not an object',
      {
        messages: [
          { id: 'a', role: 'assistant', toolCalls: [{ id: 'c', type: 'web', function: 'f' }] },
        ],
      },
      [
        {
          type: 'literal_error',
          loc: ['body', 'messages', 0, 'assistant', 'toolCalls', 0, 'type'],
          msg: "Input should be 'function'",
          input: 'web',
          ctx: { expected: "'function'" },
        },
        {
          type: 'model_type',
          loc: ['body', 'messages', 0, 'assistant', 'toolCalls', 0, 'function'],
          msg: 'Input should be a valid dictionary or instance of FunctionCall',
          input: 'f',
          ctx: { class_name: 'FunctionCall' },
        },
      ],
    ],
    [
      'activity content that is not an object',
      { messages: [{ id: 'x', role: 'activity', activityType: 'a', content: [1] }] },
      [
        {
          type: 'dict_type',
          loc: ['body', 'messages', 0, 'activity', 'content'],
          msg: 'Input should be a valid dictionary',
          input: [1],
        },
      ],
    ],
    [
      'a developer name that is not a string',
      { messages: [{ id: 'd', role: 'developer', content: 'c', name: 1 }] },
      [
        {
          type: 'string_type',
          loc: ['body', 'messages', 0, 'developer', 'name'],
          msg: 'Input should be a valid string',
          input: 1,
        },
      ],
    ],
  ];
  for (const [name, fields, expected] of rows) {
    t.same(refusal(t, { ...VALID, ...fields }), expected, name);
  }
});

/** The message JSON.parse gives for `text`, as this Node.js words it. */
function jsonErrorOf(text: string): string {
  try {
    JSON.parse(text);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error(`${text} parses`);
}

t.test('the body itself: not JSON, empty, not an object, not a JSON content type', async (t) => {
  t.same(refusal(t, '{"threadId":'), [
    {
      type: 'json_invalid',
      loc: ['body', 12],
      msg: 'JSON decode error',
      input: {},
      ctx: { error: 'Unexpected end of JSON input' },
    },
  ]);
  t.same(refusal(t, '{"threadId" 1}'), [
    {
      type: 'json_invalid',
      loc: ['body', 12],
      msg: 'JSON decode error',
      input: {},
      // V8's own message (Node 22 adds the line and column).
      ctx: { error: jsonErrorOf('{"threadId" 1}') },
    },
  ]);
  const [noPosition] = refusal(t, 'nope');
  t.match(noPosition, { type: 'json_invalid', loc: ['body', 0], ctx: { error: /nope/ } });
  for (const [body, type] of [
    ['', JSON_TYPE],
    ['  ', 'application/vnd.api+json; charset=utf-8'],
    ['', undefined],
    ['', ' '],
  ] as const) {
    t.same(
      refusal(t, body, type),
      [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }],
      `empty body, content type ${String(type)}`,
    );
  }
  const model = (input: unknown) => [
    {
      type: 'model_type',
      loc: ['body'],
      msg: 'Input should be a valid dictionary or instance of RunAgentInput',
      input,
      ctx: { class_name: 'RunAgentInput' },
    },
  ];
  t.same(refusal(t, []), model([]));
  t.same(refusal(t, JSON.stringify(VALID), 'text/plain'), model(JSON.stringify(VALID)));
  t.same(parse(JSON.stringify(VALID), undefined), VALID, 'no content type is read as JSON');
});

t.test('a __proto__ key never becomes the prototype of what is parsed', async (t) => {
  const input = parse(`{"__proto__": {"threadId": "x"}, ${JSON.stringify(VALID).slice(1)}`);
  t.equal(input.threadId, 't-1');
  t.equal(Object.getPrototypeOf(input), Object.prototype);
});
