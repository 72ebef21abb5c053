import { join } from 'node:path';
import t from 'tap';
import * as yaml from 'yaml';
import {
  overridesLayer,
  parsePolicyText,
  readPolicyFile,
  SHIPPED_POLICY_FILES,
  shippedPolicyFiles,
} from '../../src/policy/loader.js';
import { compileLayers } from '../fixtures/policy.js';

const MAPPINGS_RULE = 'missing (the map of "METHOD /pattern": [scopes])';
const UNKNOWN_KEY = 'unknown key (expected "scope_mappings" and optionally "description")';

t.test('readPolicyFile reads mappings in file order with file, key and line', async (t) => {
  const dir = t.testdir({
    'defaults.yaml': [
      '# comment line',
      'description: Defaults for tests.',
      'scope_mappings:',
      '  GET /config: [config:read]',
      '',
      '  # agents',
      '  GET /agents/{id}: [agents:read, "agents:*:read"]',
      '  POST /agents/*/runs:',
      '    - agents:run',
      '  GET /public: []',
      '  "GET /quoted": [x:read]',
      '',
    ].join('\n'),
  });
  const result = readPolicyFile({
    file: 'policies/defaults.yaml',
    path: join(dir, 'defaults.yaml'),
  });
  t.same(result.problems, []);
  t.same(result.layer, {
    file: 'policies/defaults.yaml',
    mappings: [
      {
        pattern: 'GET /config',
        scopes: ['config:read'],
        origin: { file: 'policies/defaults.yaml', key: 'scope_mappings."GET /config"', line: 4 },
      },
      {
        pattern: 'GET /agents/{id}',
        scopes: ['agents:read', 'agents:*:read'],
        origin: {
          file: 'policies/defaults.yaml',
          key: 'scope_mappings."GET /agents/{id}"',
          line: 7,
        },
      },
      {
        pattern: 'POST /agents/*/runs',
        scopes: ['agents:run'],
        origin: {
          file: 'policies/defaults.yaml',
          key: 'scope_mappings."POST /agents/*/runs"',
          line: 8,
        },
      },
      {
        pattern: 'GET /public',
        scopes: [],
        origin: { file: 'policies/defaults.yaml', key: 'scope_mappings."GET /public"', line: 10 },
      },
      {
        pattern: 'GET /quoted',
        scopes: ['x:read'],
        origin: { file: 'policies/defaults.yaml', key: 'scope_mappings."GET /quoted"', line: 11 },
      },
    ],
  });
});

t.test(
  'an unreadable file is one problem naming the file, the path it was looked for at and the reason',
  async (t) => {
    const dir = t.testdir({ 'a-folder': {} });
    const rows: { name: string; path: string; message: string }[] = [
      {
        name: 'missing file (ENOENT)',
        path: join(dir, 'missing.yaml'),
        message: `cannot read policy file ${join(dir, 'missing.yaml')} (ENOENT)`,
      },
      {
        name: 'a directory (EISDIR)',
        path: join(dir, 'a-folder'),
        message: `cannot read policy file ${join(dir, 'a-folder')} (EISDIR)`,
      },
    ];
    for (const row of rows) {
      t.same(
        readPolicyFile({ file: 'policies/x.yaml', path: row.path }),
        { layer: null, problems: [{ file: 'policies/x.yaml', key: '', message: row.message }] },
        row.name,
      );
    }
  },
);

t.test('an error without a code is reported as unreadable', async (t) => {
  const { readPolicyFile: read } = await t.mockImport<typeof import('../../src/policy/loader.js')>(
    '../../src/policy/loader.js',
    {
      'node:fs': {
        readFileSync: () => {
          throw new Error('disk on fire');
        },
      },
    },
  );
  t.same(read({ file: 'p.yaml', path: '/nowhere/p.yaml' }), {
    layer: null,
    problems: [
      { file: 'p.yaml', key: '', message: 'cannot read policy file /nowhere/p.yaml (unreadable)' },
    ],
  });
});

t.test('a key whose position yaml does not report is named without a line', async (t) => {
  // yaml gives every parsed key a range; this guards the loader against one that has none.
  const { parsePolicyText: parse } = await t.mockImport<
    typeof import('../../src/policy/loader.js')
  >('../../src/policy/loader.js', {
    yaml: {
      ...yaml,
      parseDocument: (...args: Parameters<typeof yaml.parseDocument>) => {
        const doc = yaml.parseDocument(...args);
        yaml.visit(doc, {
          Pair(_key, pair) {
            if (yaml.isNode(pair.key)) pair.key.range = undefined;
          },
        });
        return doc;
      },
    },
  });
  t.same(parse('unknown: 1\nscope_mappings:\n  GET /a: []\n', 'p.yaml').problems, [
    { file: 'p.yaml', key: 'unknown', line: undefined, message: UNKNOWN_KEY },
  ]);
  t.same(parse('scope_mappings:\n  GET /a: []\n', 'p.yaml').layer?.mappings[0]?.origin, {
    file: 'p.yaml',
    key: 'scope_mappings."GET /a"',
    line: undefined,
  });
});

t.test('YAML errors are reported with their line', async (t) => {
  const rows: { name: string; text: string; line: number; message: string }[] = [
    {
      name: 'syntax error (unclosed flow sequence)',
      text: 'scope_mappings:\n  GET /a: [agents:read\n',
      line: 3,
      message:
        'YAML: Flow sequence in block collection must be sufficiently indented and end with a ]',
    },
    {
      name: 'duplicate key',
      text: 'scope_mappings:\n  GET /a: [agents:read]\n  GET /b: []\n  GET /a: [x:y]\n',
      line: 4,
      message: 'YAML: Map keys must be unique',
    },
    {
      name: 'duplicate top-level key',
      text: 'scope_mappings: {}\nscope_mappings: {}\n',
      line: 2,
      message: 'YAML: Map keys must be unique',
    },
    {
      name: 'bad indentation',
      text: 'scope_mappings:\n  GET /a: []\n GET /b: []\n',
      line: 3,
      message: 'YAML: All mapping items must start at the same column',
    },
  ];
  for (const row of rows) {
    t.same(
      parsePolicyText(row.text, 'p.yaml'),
      {
        layer: null,
        problems: [{ file: 'p.yaml', key: '', line: row.line, message: row.message }],
      },
      row.name,
    );
  }
});

t.test('the document root must be a map', async (t) => {
  for (const [name, text] of [
    ['a list', '- GET /a\n'],
    ['a scalar', 'scope_mappings\n'],
    ['an empty file', ''],
    ['only comments', '# nothing here\n'],
    ['null', 'null\n'],
  ] as const) {
    t.same(
      parsePolicyText(text, 'p.yaml'),
      {
        layer: null,
        problems: [
          { file: 'p.yaml', key: '', message: 'expected a mapping with a "scope_mappings" key' },
        ],
      },
      name,
    );
  }
});

t.test(
  'top-level keys: unknown keys, a non-string description and a missing map are all reported',
  async (t) => {
    const text = [
      'description: 42',
      'scope_mapping:',
      '  GET /a: []',
      '"GET /x": [a:b]',
      '[a, b]: 1',
      '',
    ].join('\n');
    t.same(parsePolicyText(text, 'p.yaml'), {
      layer: null,
      problems: [
        { file: 'p.yaml', key: 'description', line: 1, message: 'expected a string' },
        { file: 'p.yaml', key: 'scope_mapping', line: 2, message: UNKNOWN_KEY },
        { file: 'p.yaml', key: '"GET /x"', line: 4, message: UNKNOWN_KEY },
        { file: 'p.yaml', key: '"[\\"a\\",\\"b\\"]"', line: 5, message: UNKNOWN_KEY },
        { file: 'p.yaml', key: 'scope_mappings', message: MAPPINGS_RULE },
      ],
    });
  },
);

t.test('description must be a string', async (t) => {
  for (const [name, value] of [
    ['a number', '42'],
    ['a list', '[a, b]'],
    ['a map', '{a: b}'],
    ['null', 'null'],
    ['empty', ''],
    ['a boolean', 'true'],
  ] as const) {
    t.same(
      parsePolicyText(`scope_mappings: {}\ndescription: ${value}\n`, 'p.yaml'),
      {
        layer: null,
        problems: [{ file: 'p.yaml', key: 'description', line: 2, message: 'expected a string' }],
      },
      `description as ${name}`,
    );
  }
  t.same(
    parsePolicyText('description: "a string"\nscope_mappings: {}\n', 'p.yaml').problems,
    [],
    'a quoted string is fine',
  );
});

t.test('scope_mappings must be a map; null or empty is an empty layer', async (t) => {
  for (const [name, text] of [
    ['null', 'scope_mappings: null\n'],
    ['no value', 'scope_mappings:\n'],
    ['~', 'scope_mappings: ~\n'],
    ['an empty map', 'scope_mappings: {}\n'],
  ] as const) {
    t.same(
      parsePolicyText(text, 'p.yaml'),
      { layer: { file: 'p.yaml', mappings: [] }, problems: [] },
      `${name} is an empty layer`,
    );
  }
  for (const [name, text] of [
    ['a list', 'scope_mappings:\n  - GET /a\n'],
    ['a string', 'scope_mappings: GET /a\n'],
    ['a number', 'scope_mappings: 3\n'],
  ] as const) {
    t.same(
      parsePolicyText(text, 'p.yaml'),
      {
        layer: null,
        problems: [
          {
            file: 'p.yaml',
            key: 'scope_mappings',
            line: 1,
            message: 'expected a map of "METHOD /pattern": [scopes]',
          },
        ],
      },
      `${name} is refused`,
    );
  }
});

t.test('mapping values are passed on as plain data for compile to validate', async (t) => {
  const text = [
    'scope_mappings:',
    '  GET /a:',
    '  GET /b: agents:read',
    '  GET /c: {x: 1}',
    '  ? [x]',
    '  : [a:b]',
    '  GET /d: [1, null]',
    '',
  ].join('\n');
  const result = parsePolicyText(text, 'p.yaml');
  t.same(result.problems, []);
  t.same(
    result.layer?.mappings.map((m) => [m.pattern, m.scopes, m.origin.line]),
    [
      ['GET /a', null, 2],
      ['GET /b', 'agents:read', 3],
      ['GET /c', { x: 1 }, 4],
      ['["x"]', ['a:b'], 5],
      ['GET /d', [1, null], 7],
    ],
  );
  const flow = parsePolicyText('scope_mappings: {GET /a}\n', 'p.yaml');
  t.same(
    flow.layer?.mappings.map((m) => [m.pattern, m.scopes]),
    [['GET /a', null]],
    'a flow-map key without a value',
  );
});

t.test('YAML anchors and aliases in mapping values are resolved', async (t) => {
  const text = [
    'scope_mappings:',
    '  GET /agents/*: &read [agents:read]',
    '  GET /agents/*/sessions: *read',
    '  GET /x: [&cfg config:read]',
    '  GET /y: [*cfg, x:read]',
    '',
  ].join('\n');
  const result = parsePolicyText(text, 'p.yaml');
  t.same(result.problems, []);
  t.same(
    result.layer?.mappings.map((m) => [m.pattern, m.scopes]),
    [
      ['GET /agents/*', ['agents:read']],
      ['GET /agents/*/sessions', ['agents:read']],
      ['GET /x', ['config:read']],
      ['GET /y', ['config:read', 'x:read']],
    ],
  );
});

t.test('file, key and line flow from a policy file through compile into problems', async (t) => {
  const text = [
    'scope_mappings:',
    '  GET /ok: [config:read]',
    '  HEAD /agents: []',
    '  GET /x: [config:read, "agents: read"]',
    '',
  ].join('\n');
  const { layer, problems } = parsePolicyText(text, 'policies/custom.yaml');
  t.same(problems, []);
  if (layer === null) {
    t.fail('no layer');
    return;
  }
  const result = compileLayers([layer]);
  t.same(result.problems, [
    {
      file: 'policies/custom.yaml',
      key: 'scope_mappings."HEAD /agents"',
      line: 3,
      message: 'malformed pattern: HEAD is authorized as GET: map "GET" instead',
      code: undefined,
    },
    {
      file: 'policies/custom.yaml',
      key: 'scope_mappings."GET /x"[1]',
      line: 4,
      message:
        'malformed scope "agents: read": expected "agent_os:admin" or "resource:action" / "resource:<id>:action" (no spaces; "*" only as the whole middle part)',
      code: undefined,
    },
  ]);
});

t.test('overridesLayer turns auth.scope_mappings into the last layer', async (t) => {
  const asked: (readonly (string | number)[])[] = [];
  const lines: Record<string, number> = { 'GET /agents/*': 31, 'POST /x': 32 };
  const layer = overridesLayer(
    'gateway.yaml',
    { 'GET /agents/*': ['custom:read'], 'POST /x': [], 'PUT /y': 'not-a-list' },
    (path) => {
      asked.push(path);
      return lines[path[2] as string];
    },
  );
  t.same(layer, {
    file: 'gateway.yaml',
    mappings: [
      {
        pattern: 'GET /agents/*',
        scopes: ['custom:read'],
        origin: { file: 'gateway.yaml', key: 'auth.scope_mappings."GET /agents/*"', line: 31 },
      },
      {
        pattern: 'POST /x',
        scopes: [],
        origin: { file: 'gateway.yaml', key: 'auth.scope_mappings."POST /x"', line: 32 },
      },
      {
        pattern: 'PUT /y',
        scopes: 'not-a-list',
        origin: { file: 'gateway.yaml', key: 'auth.scope_mappings."PUT /y"', line: undefined },
      },
    ],
  });
  t.same(
    asked,
    [
      ['auth', 'scope_mappings', 'GET /agents/*'],
      ['auth', 'scope_mappings', 'POST /x'],
      ['auth', 'scope_mappings', 'PUT /y'],
    ],
    'lineOf is asked for each key path',
  );
  t.same(
    overridesLayer('g.yaml', {}, () => 1),
    { file: 'g.yaml', mappings: [] },
    'an empty map is an empty layer',
  );
});

t.test('shippedPolicyFiles lists the three shipped files under the package root', async (t) => {
  t.same(
    [...SHIPPED_POLICY_FILES],
    ['policies/defaults.yaml', 'policies/a2a.yaml', 'policies/agui.yaml'],
  );
  t.same(shippedPolicyFiles('/opt/scopegate'), [
    { file: 'policies/defaults.yaml', path: join('/opt/scopegate', 'policies/defaults.yaml') },
    { file: 'policies/a2a.yaml', path: join('/opt/scopegate', 'policies/a2a.yaml') },
    { file: 'policies/agui.yaml', path: join('/opt/scopegate', 'policies/agui.yaml') },
  ]);
});
