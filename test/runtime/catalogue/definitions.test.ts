/**
 * The `runtime.models` keys: defaults, interpolated number text, and a problem
 * naming the key for every bad value — never the value of api_key.
 */
import t from 'tap';
import { buildCatalogue } from '../../../src/runtime/catalogue/resolve.js';
import { agentSchema } from '../../../src/runtime/catalogue/definitions.js';

const MODEL = {
  id: 'main',
  provider: 'openai-compatible',
  base_url: 'https://llm.example/v1',
  api_key: 'sk-secret-key-123',
  model: 'gpt-4o-mini',
};

/** The problems of one model entry with `fields` replacing (undefined: removing) keys. */
function problemsOf(fields: Record<string, unknown>): string[] {
  const model: Record<string, unknown> = { ...MODEL, ...fields };
  for (const key of Object.keys(fields)) if (fields[key] === undefined) delete model[key];
  return buildCatalogue({ models: [model] }).problems;
}

t.test('defaults: no models; api_key empty, no headers, timeout_ms 120000', async (t) => {
  t.same(buildCatalogue({}).settings?.models, []);
  const { settings, problems } = buildCatalogue({ models: [{ ...MODEL, api_key: undefined }] });
  t.same(problems, []);
  t.same(settings?.models, [{ ...MODEL, api_key: '', headers: {}, timeout_ms: 120_000 }]);
});

t.test('timeout_ms takes an integer or its canonical text (interpolation)', async (t) => {
  for (const [raw, expected] of [
    [5000, 5000],
    ['5000', 5000],
    [1, 1],
    [3_600_000, 3_600_000],
  ] as const) {
    const { settings, problems } = buildCatalogue({ models: [{ ...MODEL, timeout_ms: raw }] });
    t.same(problems, [], String(raw));
    t.equal(settings?.models[0]?.timeout_ms, expected, String(raw));
  }
});

t.test('every bad value is a problem naming its key', async (t) => {
  const rows: [string, Record<string, unknown>, string][] = [
    ['no id', { id: undefined }, 'runtime.models.0.id: '],
    ['bad id', { id: '_x' }, 'runtime.models.0.id: ids are 1–63 of'],
    [
      'other provider',
      { provider: 'anthropic' },
      'runtime.models.0.provider: must be "openai-compatible"',
    ],
    ['no base_url', { base_url: undefined }, 'runtime.models.0.base_url: must be an http(s) URL'],
    [
      'not a URL',
      { base_url: 'llm.example/v1' },
      'runtime.models.0.base_url: must be an http(s) URL without credentials, query or fragment',
    ],
    [
      'ftp',
      { base_url: 'ftp://llm.example/v1' },
      'runtime.models.0.base_url: must be an http(s) URL without',
    ],
    [
      'user',
      { base_url: 'https://me@llm.example/v1' },
      'runtime.models.0.base_url: must be an http(s) URL without',
    ],
    [
      'password',
      { base_url: 'https://:pw@llm.example/v1' },
      'runtime.models.0.base_url: must be an http(s) URL without',
    ],
    [
      'query',
      { base_url: 'https://llm.example/v1?x=1' },
      'runtime.models.0.base_url: must be an http(s) URL without',
    ],
    [
      'fragment',
      { base_url: 'https://llm.example/v1#x' },
      'runtime.models.0.base_url: must be an http(s) URL without',
    ],
    [
      'api_key not a string',
      { api_key: 42 },
      'runtime.models.0.api_key: must be a string (empty for no Authorization header)',
    ],
    ['no model', { model: undefined }, 'runtime.models.0.model: must be a non-empty string'],
    ['empty model', { model: '' }, 'runtime.models.0.model: must be a non-empty string'],
    [
      'header name',
      { headers: { 'bad name': 'x' } },
      'runtime.models.0.headers.bad name: header names are HTTP tokens',
    ],
    [
      'headers not a mapping',
      { headers: ['x-a: 1'] },
      'runtime.models.0.headers: must be a mapping of header names to values',
    ],
    [
      'header value type',
      { headers: { 'x-a': 1 } },
      'runtime.models.0.headers.x-a: header values must be strings',
    ],
    [
      'header value CRLF',
      { headers: { 'x-a': 'a\r\nb: c' } },
      'runtime.models.0.headers.x-a: header values may not hold CR, LF or NUL',
    ],
    [
      'timeout 0',
      { timeout_ms: 0 },
      'runtime.models.0.timeout_ms: must be an integer from 1 to 3600000',
    ],
    [
      'timeout too long',
      { timeout_ms: 3_600_001 },
      'runtime.models.0.timeout_ms: must be an integer from 1 to 3600000',
    ],
    [
      'timeout fraction',
      { timeout_ms: 1.5 },
      'runtime.models.0.timeout_ms: must be an integer from 1 to 3600000',
    ],
    [
      'timeout loose text',
      { timeout_ms: '05000' },
      'runtime.models.0.timeout_ms: must be an integer from 1 to 3600000',
    ],
    ['unknown key', { apikey: 'x' }, 'runtime.models.0: Unrecognized key: "apikey"'],
  ];
  for (const [name, fields, expected] of rows) {
    const problems = problemsOf(fields);
    t.equal(problems.length, 1, name);
    t.ok(problems[0]?.startsWith(expected), `${name}: ${problems[0]}`);
    t.notMatch(problems[0], /sk-secret/, `${name}: the key is not echoed`);
  }
});

t.test('models must be a list', async (t) => {
  t.match(buildCatalogue({ models: { main: MODEL } }).problems, [/^runtime\.models: /]);
});

t.test('a tool that requires user input must list its fields', async (t) => {
  const parsed = agentSchema.safeParse({
    id: 'x',
    name: 'X',
    tools: [{ name: 'ask', requires_user_input: true }],
  });
  t.equal(parsed.success, false);
  t.match(parsed.error?.issues, [
    {
      path: ['tools', 0, 'user_input_schema'],
      message: 'a tool with requires_user_input lists its fields in user_input_schema',
    },
  ]);
  const ok = agentSchema.safeParse({
    id: 'x',
    name: 'X',
    tools: [{ name: 'ask', requires_user_input: true, user_input_schema: [{ name: 'q' }] }],
  });
  t.equal(ok.success, true);
});
