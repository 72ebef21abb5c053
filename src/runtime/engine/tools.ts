/**
 * The built-in server tools: echo, add, get_state, set_state and fail. Pure
 * functions of their arguments and the session state; a bad argument is a tool error (a value),
 * never a throw.
 */
import type { ModelTool } from '../model/model.js';

/** A tool's result, or the error message the model sees instead. */
export type ToolOutcome =
  { readonly ok: true; readonly result: string } | { readonly ok: false; readonly error: string };

type Builtin = ModelTool & {
  readonly run: (args: Record<string, unknown>, state: Record<string, unknown>) => ToolOutcome;
};

const object = (properties: Record<string, unknown>, required: readonly string[]) => ({
  type: 'object',
  properties,
  required,
});

const BUILTINS: readonly Builtin[] = [
  {
    name: 'echo',
    description: 'Returns its text.',
    parameters: object({ text: { type: 'string' } }, ['text']),
    run: ({ text }) =>
      typeof text === 'string' ? ok(text) : failed('echo: text must be a string'),
  },
  {
    name: 'add',
    description: 'Adds two numbers.',
    parameters: object({ a: { type: 'number' }, b: { type: 'number' } }, ['a', 'b']),
    run: ({ a, b }) =>
      typeof a === 'number' && typeof b === 'number'
        ? ok(String(a + b))
        : failed('add: a and b must be numbers'),
  },
  {
    name: 'get_state',
    description: 'Reads a session-state key.',
    parameters: object({ key: { type: 'string' } }, ['key']),
    run: ({ key }, state) => {
      if (typeof key !== 'string') return failed('get_state: key must be a string');
      // Own keys only: `toString` or `__proto__` must not read the prototype.
      const value = Object.hasOwn(state, key) ? state[key] : null;
      return ok(typeof value === 'string' ? value : JSON.stringify(value));
    },
  },
  {
    name: 'set_state',
    description: 'Writes a session-state key.',
    parameters: object({ key: { type: 'string' }, value: {} }, ['key', 'value']),
    run: (args, state) => {
      const { key } = args;
      if (typeof key !== 'string') return failed('set_state: key must be a string');
      if (!Object.hasOwn(args, 'value')) return failed('set_state: value is required');
      // defineProperty, not assignment: a `__proto__` key becomes data, never the prototype.
      Object.defineProperty(state, key, {
        value: args['value'],
        enumerable: true,
        writable: true,
        configurable: true,
      });
      return ok('ok');
    },
  },
  {
    name: 'fail',
    description: 'Always fails (for testing error paths).',
    parameters: object({ message: { type: 'string' } }, []),
    run: ({ message }) =>
      failed(typeof message === 'string' ? message : 'fail: this tool always fails'),
  },
];

const BY_NAME = new Map(BUILTINS.map((tool) => [tool.name, tool]));

/** The built-in tools as the model is offered them. */
export const BUILTIN_TOOLS: readonly ModelTool[] = BUILTINS.map(
  ({ name, description, parameters }) => ({ name, description, parameters }),
);

/** Runs a built-in tool; null when `name` is not one. `set_state` changes `state` in place. */
export function runBuiltinTool(
  name: string,
  args: Record<string, unknown>,
  state: Record<string, unknown>,
): ToolOutcome | null {
  const tool = BY_NAME.get(name);
  return tool === undefined ? null : tool.run(args, state);
}

function ok(result: string): ToolOutcome {
  return { ok: true, result };
}

function failed(error: string): ToolOutcome {
  return { ok: false, error };
}
