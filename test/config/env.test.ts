// `${NAME}` / `${NAME:-default}` interpolation: shell semantics, fail closed on unset names,
// values never interpolated twice, never echoed in a message.
import fc from 'fast-check';
import t from 'tap';
import { interpolateString, interpolateTree } from '../../src/config/env.js';

const UNSET = (name: string) =>
  `environment variable ${name} is not set (write \${${name}:-} to allow an empty value)`;
const UNCLOSED = 'unclosed "${" (write "$${" for a literal "${")';
const NESTED = 'nested "${" is not supported (write "$${" for a literal "${")';
const MALFORMED =
  'malformed "${...}": write ${NAME} or ${NAME:-default}, NAME being a letter or _ then ' +
  'letters, digits or _';

const ENV = { HOST: 'db.internal', EMPTY: '', PORT: '5432', LOOP: '${HOST}', _x1: 'u' };

// [row name, text, value, problems]
const ROWS: readonly (readonly [string, string, string, readonly string[]])[] = [
  ['no reference', 'plain text', 'plain text', []],
  ['a lone $ and $NAME are literal', 'cost $5, $HOME', 'cost $5, $HOME', []],
  ['${NAME} set', 'postgres://${HOST}:${PORT}/x', 'postgres://db.internal:5432/x', []],
  ['${NAME} set but empty is empty', 'a${EMPTY}b', 'ab', []],
  ['${NAME} unset fails closed', 'a${MISSING}b', 'ab', [UNSET('MISSING')]],
  ['every unset name is reported', '${A1}-${B2}', '-', [UNSET('A1'), UNSET('B2')]],
  ['${NAME:-default} set', '${HOST:-localhost}', 'db.internal', []],
  ['${NAME:-default} unset', '${MISSING:-localhost}', 'localhost', []],
  ['${NAME:-default} empty takes the default', '${EMPTY:-localhost}', 'localhost', []],
  ['${NAME:-} unset is empty', 'x${MISSING:-}y', 'xy', []],
  ['a default may hold :, - and spaces', '${MISSING:-a:-b c}', 'a:-b c', []],
  ['underscore and digits in a name', '${_x1}', 'u', []],
  ['an inherited property is not a variable', '${constructor}', '', [UNSET('constructor')]],
  ['an inherited property takes the default', '${toString:-x}', 'x', []],
  ['$${ is a literal ${', '$${HOST}', '${HOST}', []],
  ['$${ next to a reference', '$${HOST}=${HOST}', '${HOST}=db.internal', []],
  ['a value is never interpolated again', '${LOOP}', '${HOST}', []],
  ['unclosed', 'a${HOST', 'a${HOST', [UNCLOSED]],
  ['unclosed after a good one', '${HOST}${PORT', 'db.internal${PORT', [UNCLOSED]],
  ['nested default', '${MISSING:-${HOST}}', '${MISSING:-${HOST}}', [NESTED]],
  ['empty name', '${}', '${}', [MALFORMED]],
  ['name starting with a digit', '${1ABC}', '${1ABC}', [MALFORMED]],
  ['name with a dash', '${MY-VAR}', '${MY-VAR}', [MALFORMED]],
  ['other shell operators are not supported', '${HOST:=x}', '${HOST:=x}', [MALFORMED]],
  ['default without colon is not supported', '${HOST-x}', '${HOST-x}', [MALFORMED]],
];

t.test('interpolateString', async (t) => {
  for (const [name, text, value, problems] of ROWS) {
    t.strictSame(interpolateString(text, ENV), { value, problems }, name);
  }
});

t.test('an environment value never appears in a problem', async (t) => {
  const env = { SECRET: 's3cr3t-value', OTHER: 'also-secret' };
  const { value, problems } = interpolateString('${SECRET}${OTHER}${NOPE}${SECRET', env);
  t.equal(value, 's3cr3t-valuealso-secret${SECRET');
  t.strictSame(problems, [UNSET('NOPE'), UNCLOSED]);
  for (const message of problems) {
    t.notMatch(message, /s3cr3t|also-secret/);
  }
});

t.test('interpolateTree replaces string values only, at any depth', async (t) => {
  const tree = {
    '${HOST}': 'key untouched',
    n: 5,
    b: true,
    z: null,
    list: ['${PORT}', 7, ['${HOST:-x}']],
    deep: { a: { b: '${EMPTY:-fallback}' } },
  };
  const { value, issues } = interpolateTree(tree, ENV);
  t.strictSame(value, {
    '${HOST}': 'key untouched',
    n: 5,
    b: true,
    z: null,
    list: ['5432', 7, ['db.internal']],
    deep: { a: { b: 'fallback' } },
  });
  t.strictSame(issues, []);
  t.equal(tree.list[0], '${PORT}', 'the input tree is not changed');
});

t.test('interpolateTree locates each problem by key path', async (t) => {
  const { issues } = interpolateTree(
    { auth: { verification_keys: ['${KEY_A}', 'ok', '${KEY_B'] }, service_id: '${SID}' },
    {},
  );
  t.strictSame(issues, [
    { path: ['auth', 'verification_keys', 0], message: UNSET('KEY_A') },
    { path: ['auth', 'verification_keys', 2], message: UNCLOSED },
    { path: ['service_id'], message: UNSET('SID') },
  ]);
});

t.test('a top-level string or scalar is interpolated too', async (t) => {
  t.strictSame(interpolateTree('${HOST}', ENV), { value: 'db.internal', issues: [] });
  t.strictSame(interpolateTree(null, ENV), { value: null, issues: [] });
});

t.test('a __proto__ key stays an own key and never becomes a prototype', async (t) => {
  const tree = JSON.parse('{"__proto__": {"validate": false}}') as object;
  const { value } = interpolateTree(tree, ENV);
  t.equal(Object.getPrototypeOf(value), Object.prototype);
  t.strictSame(Object.keys(value as object), ['__proto__']);
  t.equal((value as { validate?: unknown }).validate, undefined);
});

t.test('any value is inserted verbatim and never echoed', async (t) => {
  const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/);
  fc.assert(
    fc.property(
      name,
      fc.string().map((tail) => `\u00a7${tail}`),
      (key, value) => {
        // The section sign (U+00A7) never occurs in a message, so a message holding the value
        // would be an echo.
        const env = { [key]: value };
        const text = `<\${${key}}|\${${key}:-d}|\${${key}_UNSET_}|\${${key}`;
        const result = interpolateString(text, env);
        return (
          result.value.startsWith(`<${value}|${value}||`) &&
          result.problems.length === 2 &&
          result.problems.every((message) => !message.includes(value))
        );
      },
    ),
    { numRuns: 1000 },
  );
  t.pass('1000 generated values');
});
