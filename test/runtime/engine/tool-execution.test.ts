/**
 * ToolExecution dicts carry every key (nulls included); RunRequirements carry the execution.
 */
import t from 'tap';
import {
  createRequirement,
  finishToolExecution,
  startToolExecution,
} from '../../../src/runtime/engine/tool-execution.js';

const KEYS = [
  'tool_call_id',
  'tool_name',
  'tool_args',
  'tool_call_error',
  'result',
  'metrics',
  'child_run_id',
  'stop_after_tool_call',
  'created_at',
  'requires_confirmation',
  'confirmed',
  'confirmation_note',
  'requires_user_input',
  'user_input_schema',
  'user_feedback_schema',
  'answered',
  'external_execution_required',
  'external_execution_silent',
  'approval_type',
  'approval_id',
];

t.test('a started execution has every key, result and error still null', async (t) => {
  const started = startToolExecution({ id: 'c1', name: 'add', args: { a: 1 }, createdAt: 100 });
  t.same(Object.keys(started), KEYS);
  t.match(started, {
    tool_call_id: 'c1',
    tool_name: 'add',
    tool_args: { a: 1 },
    tool_call_error: null,
    result: null,
    child_run_id: null,
    stop_after_tool_call: false,
    created_at: 100,
    external_execution_required: null,
  });
});

t.test('child run and external execution are marked', async (t) => {
  const delegated = startToolExecution({
    id: 'c',
    name: 'd',
    args: {},
    createdAt: 1,
    childRunId: 'r2',
  });
  t.equal(delegated['child_run_id'], 'r2');
});

t.test('a finished execution has its result, error flag and timing in seconds', async (t) => {
  const started = startToolExecution({ id: 'c1', name: 'fail', args: {}, createdAt: 100 });
  const done = finishToolExecution(started, {
    result: 'boom',
    error: true,
    startMs: 100_000,
    endMs: 100_250,
  });
  t.same(Object.keys(done), KEYS);
  t.match(done, {
    tool_call_error: true,
    result: 'boom',
    metrics: { start_time: 100, end_time: 100.25, duration: 0.25 },
  });
});

t.test('a requirement holds the execution, with an ISO created_at', async (t) => {
  const tool = {
    ...startToolExecution({ id: 'c', name: 'x', args: {}, createdAt: 1 }),
    external_execution_required: true,
  };
  t.same(createRequirement(tool, 'req-1', 1_750_000_400_000), {
    id: 'req-1',
    created_at: '2025-06-15T15:13:20Z',
    tool_execution: tool,
  });
});

t.test('a requirement of a user-input call carries its user_input_schema', async (t) => {
  const schema = [{ name: 'b', field_type: 'int', description: null, value: null }];
  const tool = {
    ...startToolExecution({ id: 'c', name: 'add', args: { a: 1 }, createdAt: 1 }),
    requires_user_input: true,
    user_input_schema: schema,
  };
  t.same(createRequirement(tool, 'req-2', 1_750_000_400_000), {
    id: 'req-2',
    created_at: '2025-06-15T15:13:20Z',
    tool_execution: tool,
    user_input_schema: schema,
  });
});
