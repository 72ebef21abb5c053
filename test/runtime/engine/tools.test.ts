/**
 * The built-in server tools: results, argument errors as values, and session-state reads and
 * writes that never touch the prototype.
 */
import t from 'tap';
import { BUILTIN_TOOLS, runBuiltinTool } from '../../../src/runtime/engine/tools.js';

t.test('the five built-ins are offered with JSON-schema parameters', async (t) => {
  t.same(
    BUILTIN_TOOLS.map((tool) => tool.name),
    ['echo', 'add', 'get_state', 'set_state', 'fail'],
  );
  t.same(BUILTIN_TOOLS[1], {
    name: 'add',
    description: 'Adds two numbers.',
    parameters: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    },
  });
});

t.test('results and argument errors', async (t) => {
  const rows: [string, Record<string, unknown>, unknown][] = [
    ['echo', { text: 'hi there' }, { ok: true, result: 'hi there' }],
    ['echo', {}, { ok: false, error: 'echo: text must be a string' }],
    ['add', { a: 1, b: 2.5 }, { ok: true, result: '3.5' }],
    ['add', { a: 1, b: '2' }, { ok: false, error: 'add: a and b must be numbers' }],
    ['add', { b: 2 }, { ok: false, error: 'add: a and b must be numbers' }],
    ['fail', {}, { ok: false, error: 'fail: this tool always fails' }],
    ['fail', { message: 'disk full' }, { ok: false, error: 'disk full' }],
    ['get_state', { key: 1 }, { ok: false, error: 'get_state: key must be a string' }],
    ['set_state', { value: 1 }, { ok: false, error: 'set_state: key must be a string' }],
    ['set_state', { key: 'k' }, { ok: false, error: 'set_state: value is required' }],
  ];
  for (const [name, args, outcome] of rows) {
    t.same(runBuiltinTool(name, args, {}), outcome, `${name} ${JSON.stringify(args)}`);
  }
});

t.test('an unknown name is not a built-in', async (t) => {
  t.equal(runBuiltinTool('nope', {}, {}), null);
});

t.test('get_state returns strings as they are and anything else as JSON', async (t) => {
  const state = { color: 'blue', size: 3, tags: ['a'], none: null };
  const get = (key: string) => runBuiltinTool('get_state', { key }, state);
  t.same(get('color'), { ok: true, result: 'blue' });
  t.same(get('size'), { ok: true, result: '3' });
  t.same(get('tags'), { ok: true, result: '["a"]' });
  t.same(get('none'), { ok: true, result: 'null' });
  t.same(get('missing'), { ok: true, result: 'null' });
  t.same(get('toString'), { ok: true, result: 'null' }, 'own keys only');
});

t.test('set_state writes in place, any JSON value', async (t) => {
  const state: Record<string, unknown> = { keep: 1 };
  t.same(runBuiltinTool('set_state', { key: 'color', value: 'red' }, state), {
    ok: true,
    result: 'ok',
  });
  t.same(runBuiltinTool('set_state', { key: 'obj', value: { n: [1] } }, state), {
    ok: true,
    result: 'ok',
  });
  t.same(state, { keep: 1, color: 'red', obj: { n: [1] } });
});

t.test('set_state of __proto__ stores data and leaves the prototype alone', async (t) => {
  const state: Record<string, unknown> = {};
  const args = JSON.parse('{"key":"__proto__","value":{"polluted":true}}') as Record<
    string,
    unknown
  >;
  t.same(runBuiltinTool('set_state', args, state), { ok: true, result: 'ok' });
  t.equal(Object.getPrototypeOf(state), Object.prototype);
  t.equal((state as { polluted?: unknown }).polluted, undefined);
  t.same(runBuiltinTool('get_state', { key: '__proto__' }, state), {
    ok: true,
    result: '{"polluted":true}',
  });
  t.same(JSON.parse(JSON.stringify(state)), { ['__proto__']: { polluted: true } });
});
