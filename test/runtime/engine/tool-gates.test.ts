/**
 * Which calls pause a run and for what, and when an answer settles a held
 * call. Pure functions, table-driven.
 */
import t from 'tap';
import type { ToolDefinition } from '../../../src/runtime/catalogue/definitions.js';
import { pauseKindOf, unsettledReason } from '../../../src/runtime/engine/tool-gates.js';

const base: ToolDefinition = {
  name: 'x',
  description: '',
  parameters: {},
  external_execution: false,
};

t.test('pauseKindOf: the kind a tool waits for', async (t) => {
  const rows: [string, ToolDefinition | undefined, string | null][] = [
    ['unknown tool', undefined, null],
    ['plain tool', base, null],
    [
      'client tool',
      { ...base, external_execution: true, approval_type: 'required' },
      'external_execution',
    ],
    [
      'user input',
      { ...base, requires_user_input: true, requires_confirmation: true },
      'user_input',
    ],
    ['confirmation', { ...base, requires_confirmation: true }, 'confirmation'],
    ['approval alone', { ...base, approval_type: 'required' }, 'confirmation'],
    ['audit alone', { ...base, approval_type: 'audit' }, null],
  ];
  for (const [name, tool, kind] of rows) t.equal(pauseKindOf(tool), kind, name);
});

t.test('unsettledReason: a rejection settles anything; user input needs every field', async (t) => {
  const input = {
    toolName: 'ask',
    kind: 'user_input' as const,
    tool: { user_input_schema: [{ name: 'toString' }, { name: 'b' }] },
  };
  const missing = 'Tool ask requires user input, cannot continue run';
  t.equal(unsettledReason(input, { toolCallId: 'c', confirmed: false, note: null }), null);
  t.equal(unsettledReason(input, { toolCallId: 'c', confirmed: true, note: null }), missing);
  t.equal(unsettledReason(input, { toolCallId: 'c', values: { b: 1 } }), missing, 'own keys only');
  t.equal(unsettledReason(input, { toolCallId: 'c', values: { toString: 1, b: null } }), missing);
  t.equal(unsettledReason(input, { toolCallId: 'c', values: { toString: 1, b: 0 } }), null);
  t.equal(unsettledReason(input, undefined), missing);
});
