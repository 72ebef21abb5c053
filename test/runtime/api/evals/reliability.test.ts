/**
 * Reliability: the tool calls a run made (from its events) against the calls expected —
 * missing, additional (allowed or not), and argument checks that match on the keys given.
 */
import t from 'tap';
import {
  reliabilityData,
  toolCallsOf,
  type ToolCall,
  type ToolCallExpectation,
} from '../../../../src/runtime/api/evals/reliability.js';

const call = (name: string, args: Record<string, unknown> = {}): ToolCall => ({ name, args });
const tool = (name: string, args: Record<string, unknown>) => ({
  tool: { tool_call_id: `c-${name}`, tool_name: name, tool_args: args, result: null },
});

t.test('toolCallsOf reads agent and team-leader call starts, in order', async (t) => {
  const events = [
    { event: 'TeamRunStarted' },
    { event: 'TeamToolCallStarted', ...tool('delegate_task_to_member', { member_id: 'a1' }) },
    { event: 'RunStarted' },
    { event: 'ToolCallStarted', ...tool('add', { a: 1, b: 2 }) },
    { event: 'ToolCallCompleted', ...tool('add', { a: 1, b: 2 }) },
    { event: 'TeamToolCallCompleted', ...tool('delegate_task_to_member', {}) },
    { event: 'RunPaused', tools: [] },
  ];
  t.same(toolCallsOf(events), [
    call('delegate_task_to_member', { member_id: 'a1' }),
    call('add', { a: 1, b: 2 }),
  ]);
  t.same(toolCallsOf([]), []);
});

const expect = (overrides: Partial<ToolCallExpectation> = {}): ToolCallExpectation => ({
  toolCalls: ['add'],
  allowAdditional: false,
  arguments: {},
  ...overrides,
});

/** Every list empty: the fields a row does not name. */
const EMPTY = {
  failed_tool_calls: [],
  passed_tool_calls: [],
  additional_tool_calls: [],
  missing_tool_calls: [],
  failed_argument_checks: [],
  passed_argument_checks: [],
};

t.test('reliabilityData: named rows', async (t) => {
  const rows: [
    name: string,
    calls: ToolCall[],
    expected: ToolCallExpectation,
    result: Record<string, unknown>,
  ][] = [
    [
      'exactly the expected call: PASSED',
      [call('add')],
      expect(),
      {
        eval_status: 'PASSED',
        failed_tool_calls: [],
        passed_tool_calls: ['add'],
        additional_tool_calls: [],
        missing_tool_calls: [],
      },
    ],
    [
      'no call at all: the expected one is missing and failed',
      [],
      expect(),
      {
        eval_status: 'FAILED',
        failed_tool_calls: ['add'],
        passed_tool_calls: [],
        missing_tool_calls: ['add'],
      },
    ],
    [
      'an extra call, not allowed: failed as additional',
      [call('add'), call('echo')],
      expect(),
      {
        eval_status: 'FAILED',
        failed_tool_calls: ['echo'],
        passed_tool_calls: ['add'],
        additional_tool_calls: ['echo'],
      },
    ],
    [
      'an extra call, allowed: PASSED, still listed as additional',
      [call('echo'), call('add'), call('add')],
      expect({ allowAdditional: true }),
      {
        eval_status: 'PASSED',
        failed_tool_calls: [],
        passed_tool_calls: ['add', 'add'],
        additional_tool_calls: ['echo'],
      },
    ],
    [
      'two expected, one called: the other is missing',
      [call('add')],
      expect({ toolCalls: ['add', 'fail', 'add'] }),
      {
        eval_status: 'FAILED',
        failed_tool_calls: ['fail'],
        passed_tool_calls: ['add'],
        missing_tool_calls: ['fail'],
      },
    ],
  ];
  for (const [name, calls, expected, result] of rows) {
    t.same(reliabilityData(calls, expected), { ...EMPTY, ...result }, name);
  }
});

t.test('argument checks: the keys given must be there with deep-equal values', async (t) => {
  const calls = [call('add', { a: 1, b: 2 }), call('set_state', { key: 'k', value: { x: [1] } })];
  const rows: [
    name: string,
    args: Record<string, Record<string, unknown>>,
    passed: string[],
    failed: string[],
  ][] = [
    ['a subset of the arguments', { add: { a: 1 } }, ['add'], []],
    ['nested values compared deeply', { set_state: { value: { x: [1] } } }, ['set_state'], []],
    ['a different value', { add: { a: 2 } }, [], ['add']],
    ['a key the call lacks', { add: { c: 1 } }, [], ['add']],
    ['a value of another type', { add: { a: '1' } }, [], ['add']],
    ['a tool never called', { echo: {} }, [], ['echo']],
    ['no arguments expected: any call of the tool', { add: {} }, ['add'], []],
  ];
  for (const [name, args, passed, failed] of rows) {
    const data = reliabilityData(
      calls,
      expect({ toolCalls: ['add', 'set_state'], arguments: args }),
    );
    t.same(
      data,
      {
        ...EMPTY,
        eval_status: failed.length === 0 ? 'PASSED' : 'FAILED',
        passed_tool_calls: ['add', 'set_state'],
        passed_argument_checks: passed,
        failed_argument_checks: failed,
      },
      name,
    );
  }
});
