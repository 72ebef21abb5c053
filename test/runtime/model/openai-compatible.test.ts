/**
 * The OpenAI-compatible provider against a fake chat-completions server on port 0: the request it
 * sends (path, auth, body, tools, messages), the streamed deltas, tool calls and usage it reads
 * back, and every way a turn fails — non-2xx, malformed or cut streams, timeout, cancellation.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import type { ModelMessage, ModelTool } from '../../../src/runtime/model/model.js';
import {
  createOpenAiCompatibleModel,
  OPENAI_COMPATIBLE_NAME,
} from '../../../src/runtime/model/openai-compatible.js';
import {
  API_KEY,
  chatSettings,
  closed,
  collect,
  delta,
  frame,
  startChatServer,
  startStream,
  streamEvents,
  streamOptions,
  usage,
} from './fixtures/chat-server.js';

const USER: ModelMessage[] = [{ role: 'user', content: 'hi' }];

const ADD: ModelTool = {
  name: 'add',
  description: 'Adds two numbers.',
  parameters: { type: 'object', properties: { a: { type: 'number' } } },
};

const text = (d: string) => ({ type: 'text', delta: d });

t.test('the model names its provider and upstream model', async (t) => {
  const model = createOpenAiCompatibleModel(chatSettings('http://127.0.0.1:9'));
  t.same(
    [model.id, model.provider, model.name],
    ['gpt-test', 'openai-compatible', OPENAI_COMPATIBLE_NAME],
  );
});

t.test(
  'a turn POSTs {base_url}/chat/completions with key, headers, tools and messages',
  async (t) => {
    const server = await startChatServer(t, (_request, res) =>
      streamEvents(res, [
        delta({ role: 'assistant', content: '' }),
        delta({ content: 'Hello' }),
        delta({ content: ' there' }, 'stop'),
      ]),
    );
    const model = createOpenAiCompatibleModel(
      chatSettings(server.origin, {
        base_url: `${server.origin}/v1/`,
        headers: { 'X-Org': 'acme', 'Content-Type': 'text/plain' },
      }),
    );
    const messages: ModelMessage[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'add 2 and 3' },
      {
        role: 'assistant',
        content: null,
        toolCalls: [{ id: 'call_a', name: 'add', args: { a: 2, b: 3 } }],
        reasoning: 'I should add.',
      },
      {
        role: 'tool',
        content: '5',
        toolCallId: 'call_a',
        toolName: 'add',
        toolArgs: { a: 2, b: 3 },
        toolCallError: false,
      },
      { role: 'assistant', content: 'It is 5.', toolCalls: [], reasoning: null },
      { role: 'assistant', content: null, toolCalls: [], reasoning: null },
      { role: 'user', content: 'thanks' },
    ];
    const chunks = await collect(model.stream(messages, [ADD], streamOptions()));
    t.same(chunks, [text('Hello'), text(' there')]);
    const [request] = server.requests;
    t.equal(request?.method, 'POST');
    t.equal(request?.path, '/v1/chat/completions', 'the trailing slash of base_url is dropped');
    t.equal(request?.headers['authorization'], `Bearer ${API_KEY}`);
    t.equal(request?.headers['content-type'], 'application/json', 'ours beat an extra header');
    t.equal(request?.headers['accept'], 'text/event-stream');
    t.equal(request?.headers['x-org'], 'acme');
    t.same(request?.body, {
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'add 2 and 3' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_a',
              type: 'function',
              function: { name: 'add', arguments: '{"a":2,"b":3}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_a', content: '5' },
        { role: 'assistant', content: 'It is 5.' },
        { role: 'assistant', content: '' },
        { role: 'user', content: 'thanks' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      tools: [
        {
          type: 'function',
          function: { name: 'add', description: ADD.description, parameters: ADD.parameters },
        },
      ],
      tool_choice: 'auto',
    });
  },
);

t.test(
  'an empty api_key sends no Authorization; no tools sends no tools or tool_choice',
  async (t) => {
    const server = await startChatServer(t, (_request, res) =>
      streamEvents(res, [delta({ content: 'ok' })]),
    );
    const rows: {
      name: string;
      api_key: string;
      headers: Record<string, string>;
      expected: string | undefined;
    }[] = [
      { name: 'no key', api_key: '', headers: {}, expected: undefined },
      {
        name: 'no key, own scheme in headers',
        api_key: '',
        headers: { Authorization: 'Token local' },
        expected: 'Token local',
      },
      {
        name: 'a key beats headers',
        api_key: API_KEY,
        headers: { authorization: 'Token local' },
        expected: `Bearer ${API_KEY}`,
      },
    ];
    for (const row of rows) {
      const settings = chatSettings(server.origin, { api_key: row.api_key, headers: row.headers });
      const model = createOpenAiCompatibleModel(settings);
      t.same(await collect(model.stream(USER, [], streamOptions())), [text('ok')], row.name);
      const request = server.requests.at(-1);
      t.equal(request?.headers['authorization'], row.expected, row.name);
      t.notOk('tools' in (request?.body ?? {}), row.name);
      t.notOk('tool_choice' in (request?.body ?? {}), row.name);
    }
  },
);

t.test('reasoning deltas (reasoning_content or reasoning) come out as reasoning', async (t) => {
  const server = await startChatServer(t, (_request, res) =>
    streamEvents(res, [
      delta({ reasoning_content: 'Let me' }),
      delta({ reasoning: ' think.' }),
      delta({ reasoning_content: 'first', reasoning: 'first' }),
      delta({ content: 'Done.' }, 'stop'),
    ]),
  );
  const model = createOpenAiCompatibleModel(chatSettings(server.origin));
  t.same(await collect(model.stream(USER, [], streamOptions())), [
    { type: 'reasoning', delta: 'Let me' },
    { type: 'reasoning', delta: ' think.' },
    { type: 'reasoning', delta: 'first' },
    text('Done.'),
  ]);
});

t.test('two parallel tool calls split into fragments are gathered by index', async (t) => {
  const server = await startChatServer(t, (_request, res) =>
    streamEvents(res, [
      delta({
        tool_calls: [
          { index: 0, id: 'call_x', type: 'function', function: { name: 'add', arguments: '' } },
        ],
      }),
      delta({ tool_calls: [{ index: 0, function: { arguments: '{"a":' } }] }),
      delta({
        tool_calls: [
          {
            index: 1,
            id: 'call_y',
            type: 'function',
            function: { name: 'echo', arguments: '{"te' },
          },
        ],
      }),
      delta({ tool_calls: [{ index: 0, function: { arguments: '2,"b":3}' } }] }),
      delta({ tool_calls: [{ index: 1, function: { arguments: 'xt":"hi"}' } }] }, 'tool_calls'),
      usage(42, 17, 5),
    ]),
  );
  const model = createOpenAiCompatibleModel(chatSettings(server.origin));
  t.same(await collect(model.stream(USER, [ADD], streamOptions())), [
    { type: 'tool_call', id: 'call_x', name: 'add', args: { a: 2, b: 3 } },
    { type: 'tool_call', id: 'call_y', name: 'echo', args: { text: 'hi' } },
    { type: 'usage', inputTokens: 42, outputTokens: 17, reasoningTokens: 5 },
  ]);
});

t.test(
  'chunk boundaries mid-line, CRLF, comments and keep-alive lines are tolerated',
  async (t) => {
    const stream = [
      ': keep-alive\r\n\r\n',
      'event: message\r\n',
      `${frame(delta({ content: 'Hé' })).replace(/\n/g, '\r\n')}`,
      ':\n\n',
      frame(delta({ content: 'llo' })),
      frame(usage(3, 2)),
      'data: [DONE]\n\n',
    ].join('');
    const bytes = Buffer.from(stream, 'utf8');
    // Cut inside `data:`, inside the JSON, between CR and LF, and inside the two-byte "é".
    const cuts = [
      20,
      bytes.indexOf('\r\n\r\n', 40) + 1,
      bytes.indexOf(0xc3) + 1,
      bytes.length - 7,
    ].sort((a, b) => a - b);
    const server = await startChatServer(t, async (_request, res) => {
      startStream(res);
      let from = 0;
      for (const cut of cuts) {
        await new Promise<void>((resolve) => res.write(bytes.subarray(from, cut), () => resolve()));
        from = cut;
      }
      res.end(bytes.subarray(from));
    });
    const model = createOpenAiCompatibleModel(chatSettings(server.origin));
    t.same(await collect(model.stream(USER, [], streamOptions())), [
      text('Hé'),
      text('llo'),
      { type: 'usage', inputTokens: 3, outputTokens: 2, reasoningTokens: 0 },
    ]);
  },
);

t.test('a last `data: [DONE]` without its blank line still ends the turn', async (t) => {
  const server = await startChatServer(t, (_request, res) => {
    startStream(res);
    res.end(`${frame(delta({ content: 'ok' }))}data: [DONE]`);
  });
  const model = createOpenAiCompatibleModel(chatSettings(server.origin));
  t.same(await collect(model.stream(USER, [], streamOptions())), [text('ok')]);
});

t.test('a non-2xx answer is an error chunk with the provider message', async (t) => {
  const huge = JSON.stringify({ error: { message: 'x'.repeat(100_000) } });
  const rows = [
    {
      name: 'OpenAI error object',
      status: 401,
      body: JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'auth' } }),
      message: 'Model provider returned HTTP 401: Incorrect API key provided',
    },
    {
      name: 'error as a string',
      status: 404,
      body: JSON.stringify({ error: 'model "gpt-test" not found' }),
      message: 'Model provider returned HTTP 404: model "gpt-test" not found',
    },
    {
      name: 'top-level message (vLLM)',
      status: 400,
      body: JSON.stringify({ object: 'error', message: 'context too long' }),
      message: 'Model provider returned HTTP 400: context too long',
    },
    {
      name: 'the key echoed back is redacted',
      status: 401,
      body: JSON.stringify({ error: { message: `bad key ${API_KEY}!` } }),
      message: 'Model provider returned HTTP 401: bad key [redacted]!',
    },
    {
      name: 'not JSON',
      status: 502,
      body: '<html>Bad Gateway</html>',
      message: 'Model provider returned HTTP 502',
    },
    {
      name: 'a body past the read bound is not parsed',
      status: 500,
      body: huge,
      message: 'Model provider returned HTTP 500',
    },
  ];
  const server = await startChatServer(t, (_request, res, index) => {
    const row = rows[index % rows.length] as (typeof rows)[number];
    res.writeHead(row.status, { 'content-type': 'application/json' });
    res.end(row.body);
  });
  for (const row of rows) {
    const model = createOpenAiCompatibleModel(chatSettings(server.origin));
    const chunks = await collect(model.stream(USER, [], streamOptions()));
    t.same(chunks, [{ type: 'error', message: row.message }], row.name);
  }
});

t.test('a long provider message is cut', async (t) => {
  const server = await startChatServer(t, (_request, res) => {
    res.writeHead(429, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'slow down '.repeat(100) } }));
  });
  const model = createOpenAiCompatibleModel(chatSettings(server.origin));
  const [chunk] = await collect(model.stream(USER, [], streamOptions()));
  t.match(chunk, { type: 'error', message: /^Model provider returned HTTP 429: slow down/ });
  t.ok(chunk?.type === 'error' && chunk.message.endsWith('…'));
  t.ok(chunk?.type === 'error' && chunk.message.length < 600);
});

t.test('a malformed stream is an error chunk after what came before it', async (t) => {
  const rows = [
    {
      name: 'invalid JSON',
      stream: `${frame(delta({ content: 'a' }))}data: {"choices": [\n\n${frame(delta({ content: 'b' }))}`,
      last: 'Model provider sent a malformed stream event',
    },
    {
      name: 'JSON that is not an object',
      stream: `${frame(delta({ content: 'a' }))}data: 42\n\n`,
      last: 'Model provider sent a malformed stream event',
    },
    {
      name: 'an error event',
      stream: `${frame(delta({ content: 'a' }))}${frame({ error: { message: `overloaded (${API_KEY})` } })}`,
      last: 'Model provider error: overloaded ([redacted])',
    },
    {
      name: 'an error event without a message',
      stream: `${frame(delta({ content: 'a' }))}${frame({ error: { code: 500 } })}`,
      last: 'Model provider error: no message',
    },
    {
      name: 'no [DONE] and no finish_reason',
      stream: frame(delta({ content: 'a' })),
      last: 'Model provider stream ended before [DONE]',
    },
    {
      name: 'invalid tool arguments name the tool',
      stream: `${frame(delta({ content: 'a', tool_calls: [{ index: 0, id: 'c', function: { name: 'add', arguments: '{"a":' } }] }))}data: [DONE]\n\n`,
      last: 'Invalid JSON arguments for tool add',
    },
  ];
  const server = await startChatServer(t, (_request, res, index) => {
    startStream(res);
    res.end((rows[index] as (typeof rows)[number]).stream);
  });
  for (const row of rows) {
    const model = createOpenAiCompatibleModel(chatSettings(server.origin));
    t.same(
      await collect(model.stream(USER, [ADD], streamOptions())),
      [text('a'), { type: 'error', message: row.last }],
      row.name,
    );
  }
});

t.test('a stream that ends after a finish_reason without [DONE] is complete', async (t) => {
  const server = await startChatServer(t, (_request, res) => {
    startStream(res);
    res.end(frame(delta({ content: 'ok' }, 'stop')));
  });
  const model = createOpenAiCompatibleModel(chatSettings(server.origin));
  t.same(await collect(model.stream(USER, [], streamOptions())), [text('ok')]);
});

t.test('an event larger than the bound ends the turn with an error', async (t) => {
  const server = await startChatServer(t, (_request, res) => {
    startStream(res);
    res.write(`data: "${'x'.repeat(1024 * 1024)}`);
  });
  const model = createOpenAiCompatibleModel(chatSettings(server.origin));
  t.same(await collect(model.stream(USER, [], streamOptions())), [
    { type: 'error', message: 'Model provider sent a stream event over 1048576 characters' },
  ]);
});

t.test('the server closing mid-stream is an error chunk after the deltas so far', async (t) => {
  const server = await startChatServer(t, (_request, res, _index, req) => {
    startStream(res);
    res.write(frame(delta({ content: 'partial' })), () => req.socket.destroy());
  });
  const model = createOpenAiCompatibleModel(chatSettings(server.origin));
  const chunks = await collect(model.stream(USER, [], streamOptions()));
  t.same(chunks.slice(0, 1), [text('partial')]);
  t.equal(chunks.length, 2);
  t.match(chunks[1], { type: 'error', message: /^Model provider request failed: \S/ });
});

t.test('a refused connection is an error chunk', async (t) => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  const model = createOpenAiCompatibleModel(chatSettings(`http://127.0.0.1:${port}`));
  const chunks = await collect(model.stream(USER, [], streamOptions()));
  t.match(chunks, [{ type: 'error', message: /^Model provider request failed: .*ECONNREFUSED/ }]);
  t.equal(chunks.length, 1);
});

t.test('timeout_ms ends a turn the server never answers with an error chunk', async (t) => {
  const server = await startChatServer(t, () => {});
  const model = createOpenAiCompatibleModel(chatSettings(server.origin, { timeout_ms: 1 }));
  t.same(await collect(model.stream(USER, [], streamOptions())), [
    { type: 'error', message: 'Model provider did not answer within 1 ms' },
  ]);
});

t.test('cancel set after the first delta ends the stream and closes the connection', async (t) => {
  let connection: Promise<void> | undefined;
  const server = await startChatServer(t, (_request, res, _index, req) => {
    connection = closed(req);
    startStream(res);
    res.write(frame(delta({ content: 'first' })));
  });
  const model = createOpenAiCompatibleModel(chatSettings(server.origin));
  const options = streamOptions();
  const chunks = model.stream(USER, [], options)[Symbol.asyncIterator]();
  t.same(await chunks.next(), { done: false, value: text('first') });
  options.cancel.cancelled = true;
  t.same(await chunks.next(), { done: true, value: undefined });
  await connection;
  t.pass('the server saw the connection close');
});

t.test('cancel set while waiting ends the stream at the next keep-alive line', async (t) => {
  let connection: Promise<void> | undefined;
  let ping: (() => void) | undefined;
  let onRequest: () => void = () => {};
  const requested = new Promise<void>((resolve) => (onRequest = resolve));
  const server = await startChatServer(t, (_request, res, _index, req) => {
    connection = closed(req);
    startStream(res);
    ping = () => res.write(': ping\n\n');
    onRequest();
  });
  const model = createOpenAiCompatibleModel(chatSettings(server.origin));
  const options = streamOptions();
  const next = model.stream(USER, [], options)[Symbol.asyncIterator]().next();
  await requested;
  options.cancel.cancelled = true;
  ping?.();
  t.same(await next, { done: true, value: undefined });
  await connection;
  t.pass('the server saw the connection close');
});

t.test('a consumer that stops early (the engine on cancel) closes the connection', async (t) => {
  let connection: Promise<void> | undefined;
  const server = await startChatServer(t, (_request, res, _index, req) => {
    connection = closed(req);
    startStream(res);
    res.write(frame(delta({ content: 'first' })));
  });
  const model = createOpenAiCompatibleModel(chatSettings(server.origin));
  for await (const chunk of model.stream(USER, [], streamOptions())) {
    t.same(chunk, text('first'));
    break;
  }
  await connection;
  t.pass('the server saw the connection close');
});

t.test('no message carries the key or a long extra header value', async (t) => {
  const server = await startChatServer(t, (_request, res) => {
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `${API_KEY}, header-secret-1, ok` } }));
  });
  const settings = chatSettings(server.origin, {
    headers: { 'x-secret': 'header-secret-1', 'x-short': 'ok' },
  });
  const model = createOpenAiCompatibleModel(settings);
  t.same(await collect(model.stream(USER, [], streamOptions())), [
    { type: 'error', message: 'Model provider returned HTTP 401: [redacted], [redacted], ok' },
  ]);
  t.equal(server.requests[0]?.headers['x-secret'], 'header-secret-1');
});
