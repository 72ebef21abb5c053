/**
 * Tools a run stops for: a call of a tool that needs confirmation,
 * user input or approval pauses the run with that requirement kind; continue confirms (the tool
 * runs), rejects (`Tool NAME was rejected`) or fills in the input; audited calls get an
 * approval id; the held calls a stored checkpoint names.
 */
import t from 'tap';
import type { ToolDefinition } from '../../../src/runtime/catalogue/definitions.js';
import { continueEntity, heldCallsOf } from '../../../src/runtime/engine/continue.js';
import type { RunResult, ToolAnswer } from '../../../src/runtime/engine/request.js';
import {
  drain,
  makeAgent,
  makeRequest,
  named,
  names,
  only,
  runToEnd,
  testDeps,
} from './fixtures/harness.js';

const tool = (fields: Partial<ToolDefinition> & { name: string }): ToolDefinition => ({
  description: '',
  parameters: { type: 'object', properties: {} },
  external_execution: false,
  ...fields,
});

const agent = makeAgent({
  tools: [
    tool({ name: 'add', requires_confirmation: true }),
    tool({ name: 'echo', approval_type: 'required' }),
    tool({
      name: 'set_state',
      requires_user_input: true,
      user_input_schema: [{ name: 'value', field_type: 'str', description: null }],
    }),
    tool({ name: 'get_state', approval_type: 'audit' }),
  ],
});

const stored = (result: RunResult): unknown => JSON.parse(JSON.stringify(result.checkpoint));

async function continued(checkpoint: unknown, answers: ToolAnswer[]) {
  return drain(
    continueEntity(agent, { ...makeRequest(''), checkpoint, results: answers }, testDeps()),
  );
}

t.test('a tool that requires confirmation pauses the run; confirmed, it runs', async (t) => {
  const paused = await runToEnd(agent, '/tool add {"a": 2, "b": 3}');
  t.equal(paused.result.status, 'PAUSED');
  const event = only(paused.events, 'RunPaused');
  t.match(event['tools'], [
    {
      tool_name: 'add',
      requires_confirmation: true,
      confirmed: null,
      requires_user_input: null,
      external_execution_required: null,
      approval_type: null,
      approval_id: null,
    },
  ]);
  t.equal(named(paused.events, 'ToolCallStarted').length, 0, 'nothing ran yet');
  const checkpoint = stored(paused.result);
  const [held] = heldCallsOf(checkpoint);
  t.match(held, { toolName: 'add', kind: 'confirmation', requirement: { id: String } });

  const { events, result } = await continued(checkpoint, [
    { toolCallId: held!.toolCallId, confirmed: true, note: 'fine' },
  ]);
  t.same(names(events).slice(0, 3), ['RunContinued', 'ToolCallStarted', 'ToolCallCompleted']);
  t.match(only(events, 'ToolCallCompleted')['tool'], {
    confirmed: true,
    confirmation_note: 'fine',
    result: '5',
  });
  t.equal(result.status, 'COMPLETED');
  t.equal(result.output['content'], 'Tool add returned: 5');
});

t.test('rejected, the tool does not run and the model says it was rejected', async (t) => {
  const paused = await runToEnd(agent, '/tool add {"a": 2, "b": 3}');
  const checkpoint = stored(paused.result);
  const [held] = heldCallsOf(checkpoint);
  const { events, result } = await continued(checkpoint, [
    { toolCallId: held!.toolCallId, confirmed: false, note: 'not now' },
  ]);
  t.equal(named(events, 'ToolCallStarted').length, 0);
  t.equal(result.output['content'], 'Tool add was rejected');
  t.match((result.output['tools'] as unknown[])[0], {
    confirmed: false,
    confirmation_note: 'not now',
    result: 'not now',
    tool_call_error: true,
  });
  const messages = result.output['messages'] as Record<string, unknown>[];
  t.match(
    messages.find((m) => m['role'] === 'tool'),
    { content: 'not now', tool_call_error: true },
  );
});

t.test(
  'a tool that needs approval waits for confirmation and carries the approval id',
  async (t) => {
    const paused = await runToEnd(agent, '/tool echo {"text": "hi"}');
    const [execution] = only(paused.events, 'RunPaused')['tools'] as Record<string, unknown>[];
    t.match(execution, {
      requires_confirmation: true,
      approval_type: 'required',
      approval_id: String,
    });
    t.same(paused.result.output['tools'], [execution], 'the output shows the same id');
  },
);

t.test('a tool that requires user input: the values are merged into its arguments', async (t) => {
  const paused = await runToEnd(agent, '/tool set_state {"key": "color", "value": "red"}');
  const [execution] = only(paused.events, 'RunPaused')['tools'] as Record<string, unknown>[];
  t.match(execution, {
    requires_user_input: true,
    user_input_schema: [{ name: 'value', field_type: 'str', description: null, value: 'red' }],
  });
  const [requirement] = only(paused.events, 'RunPaused')['requirements'] as Record<
    string,
    unknown
  >[];
  t.same(requirement?.['user_input_schema'], execution?.['user_input_schema']);
  const checkpoint = stored(paused.result);
  const [held] = heldCallsOf(checkpoint);
  t.equal(held?.kind, 'user_input');
  const { result } = await continued(checkpoint, [
    { toolCallId: held!.toolCallId, values: { value: 'blue', ignored: 1 } },
  ]);
  t.equal(result.output['content'], 'Tool set_state returned: ok');
  t.same(result.sessionState, { color: 'blue' });
  t.match((result.output['tools'] as unknown[])[0], {
    answered: true,
    tool_args: { key: 'color', value: 'blue' },
    user_input_schema: [{ name: 'value', value: 'blue' }],
  });
});

t.test('an audited tool runs at once and gets an approval id', async (t) => {
  const { events, result } = await runToEnd(agent, '/tool get_state {"key": "k"}');
  t.equal(result.status, 'COMPLETED');
  t.match(only(events, 'ToolCallStarted')['tool'], { approval_type: 'audit', approval_id: null });
  t.match(only(events, 'ToolCallCompleted')['tool'], {
    approval_type: 'audit',
    approval_id: String,
  });
});

t.test('the held calls of a checkpoint written before requirements were kept', async (t) => {
  const paused = await runToEnd(agent, '/tool add {"a": 1, "b": 1}');
  const checkpoint = stored(paused.result) as { run: Record<string, unknown> };
  delete checkpoint.run['requirements'];
  t.match(heldCallsOf(checkpoint), [{ toolName: 'add', requirement: null }]);
  t.same(heldCallsOf(null), []);
  // Without its tools (not a checkpoint this engine wrote), a call reads as client-executed.
  delete checkpoint.run['tools'];
  t.match(heldCallsOf(checkpoint), [{ toolName: 'add', kind: 'external_execution', tool: {} }]);
});
