/**
 * Continuing paused runs: an agent, a team whose member paused, a workflow
 * whose step paused, each restored from the checkpoint its pause returned (through JSON, as the
 * store keeps it) and finished with the client's tool results; plus the calls a checkpoint
 * waits on and the checkpoints continue refuses.
 */
import t from 'tap';
import type { RunResult, ToolResult } from '../../../src/runtime/engine/request.js';
import { continueEntity, pendingCallsOf } from '../../../src/runtime/engine/continue.js';
import { MAX_MODEL_TURNS } from '../../../src/runtime/engine/agent-run.js';
import {
  CLIENT_TOOL,
  drain,
  makeAgent,
  makeRequest,
  makeTeam,
  makeWorkflow,
  names,
  only,
  runToEnd,
  testDeps,
} from './fixtures/harness.js';

const picker = makeAgent({ id: 'picker', name: 'Picker', tools: [CLIENT_TOOL] });
const plain = makeAgent({ id: 'plain', name: 'Plain' });
/** Has a `pick_color` with no client behind it: the call fails at once and the member answers. */
const server = makeAgent({
  id: 'server',
  name: 'Server',
  tools: [{ ...CLIENT_TOOL, external_execution: false }],
});
const PICK = '/tool pick_color {"shade": "dark"}';
const FAILED = 'Tool pick_color returned: Tool pick_color has no server implementation';

/** The checkpoint as the store hands it back: through JSON. */
const stored = (result: RunResult): unknown => JSON.parse(JSON.stringify(result.checkpoint));

const answers = (checkpoint: unknown, content = 'red', error = false): ToolResult[] =>
  pendingCallsOf(checkpoint).map((call) => ({ toolCallId: call.toolCallId, content, error }));

t.test('an agent paused on a client tool continues with its result', async (t) => {
  const deps = testDeps();
  const paused = await runToEnd(picker, PICK, { deps });
  t.equal(paused.result.status, 'PAUSED');
  const checkpoint = stored(paused.result);
  t.same(pendingCallsOf(checkpoint), [
    { toolCallId: 'id-2', toolName: 'pick_color', toolArgs: { shade: 'dark' } },
  ]);

  const { events, result } = await drain(
    continueEntity(
      picker,
      { ...makeRequest(''), sessionState: { seen: 1 }, checkpoint, results: answers(checkpoint) },
      deps,
    ),
  );
  t.same(names(events), [
    'RunContinued',
    'ModelRequestStarted',
    'RunContent',
    'RunContent',
    'RunContent',
    'RunContent',
    'ModelRequestCompleted',
    'RunContentCompleted',
    'RunCompleted',
  ]);
  t.equal(only(events, 'RunCompleted')['content'], 'Tool pick_color returned: red');
  t.equal(result.status, 'COMPLETED');
  t.equal(result.checkpoint, null, 'nothing to continue any more');
  t.same(result.sessionState, { seen: 1 }, 'the state given to the continue');
  const output = result.output;
  t.equal(output['run_id'], 'run-1', 'the same run');
  t.same(output['input'], { input_content: PICK }, 'the original input, from the checkpoint');
  t.match(output['tools'], [
    { tool_call_id: 'id-2', tool_name: 'pick_color', result: 'red', tool_call_error: false },
  ]);
  const all = output['events'] as { event: string }[];
  t.equal(all[0]?.event, 'RunStarted', 'the stored events cover the whole run');
  t.ok(all.some((e) => e.event === 'RunPaused'));
  t.equal(all.at(-1)?.event, 'RunCompleted');
  t.match(output['messages'], [
    { role: 'user', content: PICK },
    { role: 'assistant', tool_calls: [{ id: 'id-2' }] },
    { role: 'tool', content: 'red', tool_call_id: 'id-2', tool_name: 'pick_color' },
    { role: 'assistant', content: 'Tool pick_color returned: red' },
  ]);
});

t.test('an error result reaches the model as a failed tool call', async (t) => {
  const deps = testDeps();
  const paused = await runToEnd(picker, PICK, { deps });
  const checkpoint = stored(paused.result);
  const { result } = await drain(
    continueEntity(
      picker,
      { ...makeRequest(''), checkpoint, results: answers(checkpoint, 'no colors today', true) },
      deps,
    ),
  );
  t.equal(result.output['content'], 'Tool pick_color returned: no colors today');
  t.match(result.output['tools'], [{ tool_call_error: true, result: 'no colors today' }]);
});

t.test('client tools of the run (AG-UI) are kept in the checkpoint', async (t) => {
  const deps = testDeps();
  const paused = await runToEnd(plain, '/tool confirm {}', {
    deps,
    request: { clientTools: [{ ...CLIENT_TOOL, name: 'confirm' }] },
  });
  t.equal(paused.result.status, 'PAUSED');
  const checkpoint = stored(paused.result);
  t.match(checkpoint, { clientTools: [{ name: 'confirm' }] });
  const { result } = await drain(
    continueEntity(
      plain,
      { ...makeRequest(''), checkpoint, results: answers(checkpoint, 'yes') },
      deps,
    ),
  );
  t.equal(result.output['content'], 'Tool confirm returned: yes');
});

t.test('a cancelled continue stops before its next model turn', async (t) => {
  const deps = testDeps();
  const paused = await runToEnd(picker, PICK, { deps });
  const checkpoint = stored(paused.result);
  const { events, result } = await drain(
    continueEntity(
      picker,
      {
        ...makeRequest(''),
        cancel: { cancelled: true },
        checkpoint,
        results: answers(checkpoint),
      },
      deps,
    ),
  );
  t.same(names(events), ['RunContinued', 'RunCancelled', 'RunCompleted']);
  t.equal(result.status, 'CANCELLED');
});

t.test('the turn limit counts the turns before the pause', async (t) => {
  const deps = testDeps();
  const paused = await runToEnd(picker, PICK, { deps });
  const checkpoint = stored(paused.result) as { run: { turns: number } };
  checkpoint.run.turns = MAX_MODEL_TURNS;
  const { events, result } = await drain(
    continueEntity(picker, { ...makeRequest(''), checkpoint, results: answers(checkpoint) }, deps),
  );
  t.same(names(events), ['RunContinued', 'RunError']);
  t.equal(result.status, 'ERROR');
});

t.test('an agent whose model provider is gone fails on continue', async (t) => {
  const deps = testDeps();
  const paused = await runToEnd(picker, PICK, { deps });
  const checkpoint = stored(paused.result);
  const gone = { ...picker, model: { id: 'x', provider: 'nowhere' } };
  const { result } = await drain(
    continueEntity(gone, { ...makeRequest(''), checkpoint, results: answers(checkpoint) }, deps),
  );
  t.equal(result.status, 'ERROR');
  t.equal(result.output['content'], 'Unknown model provider nowhere');
});

t.test('a team whose member paused continues that member, then the rest', async (t) => {
  const team = makeTeam([server, picker, server]);
  const deps = testDeps();
  const paused = await runToEnd(team, PICK, { deps });
  t.equal(paused.result.status, 'PAUSED');
  const checkpoint = stored(paused.result);
  t.equal(pendingCallsOf(checkpoint).length, 1);
  const { events, result } = await drain(
    continueEntity(team, { ...makeRequest(''), checkpoint, results: answers(checkpoint) }, deps),
  );
  t.equal(events[0]?.event, 'TeamRunContinued');
  t.equal(events[1]?.event, 'RunContinued', "the paused member's own continue");
  t.notOk(
    events.some(
      (e) =>
        e.event === 'TeamRunStarted' || (e.event === 'RunStarted' && e['agent_id'] === 'picker'),
    ),
    'nothing starts over',
  );
  t.equal(result.status, 'COMPLETED');
  t.equal(
    result.output['content'],
    [FAILED, 'Tool pick_color returned: red', FAILED].join('\n\n'),
    "the first member's answer, the continued member's, and the last member's",
  );
  t.equal((result.output['member_responses'] as unknown[]).length, 3);
  t.match(result.output['member_responses'], [
    { agent_id: 'server', status: 'COMPLETED' },
    { agent_id: 'picker', status: 'COMPLETED' },
    { agent_id: 'server', status: 'COMPLETED' },
  ]);
});

t.test('a team continue that ends in a member error or a cancel', async (t) => {
  const team = makeTeam([picker, picker]);
  for (const row of [
    { name: 'cancelled', cancel: true, status: 'CANCELLED', last: 'TeamRunCompleted' },
    { name: 'paused again', cancel: false, status: 'PAUSED', last: 'TeamRunPaused' },
  ]) {
    await t.test(row.name, async (t) => {
      const deps = testDeps();
      const paused = await runToEnd(team, PICK, { deps });
      const checkpoint = stored(paused.result);
      const { events, result } = await drain(
        continueEntity(
          team,
          {
            ...makeRequest(''),
            cancel: { cancelled: row.cancel },
            checkpoint,
            results: answers(checkpoint),
          },
          deps,
        ),
      );
      t.equal(result.status, row.status);
      t.equal(events.at(-1)?.event, row.last);
      if (row.status === 'PAUSED') {
        // The second member paused: continuing again finishes the team.
        const again = stored(result);
        const done = await drain(
          continueEntity(
            team,
            { ...makeRequest(''), checkpoint: again, results: answers(again, 'blue') },
            deps,
          ),
        );
        t.equal(done.result.status, 'COMPLETED');
        t.equal(
          done.result.output['content'],
          'Tool pick_color returned: red\n\nTool pick_color returned: blue',
        );
      }
    });
  }
});

t.test('a team member that fails after its continue fails the team', async (t) => {
  const team = makeTeam([picker]);
  const deps = testDeps();
  const paused = await runToEnd(team, PICK, { deps });
  const checkpoint = stored(paused.result) as { run: { member: { turns: number } } };
  checkpoint.run.member.turns = MAX_MODEL_TURNS;
  const { events, result } = await drain(
    continueEntity(team, { ...makeRequest(''), checkpoint, results: answers(checkpoint) }, deps),
  );
  t.equal(result.status, 'ERROR');
  t.equal(events.at(-1)?.event, 'TeamRunError');
});

t.test('a workflow whose step paused continues that step, then the next ones', async (t) => {
  for (const row of [
    { name: 'agent step', steps: [picker, plain] },
    { name: 'team step', steps: [makeTeam([picker]), plain] },
  ]) {
    await t.test(row.name, async (t) => {
      const flow = makeWorkflow(row.steps.map((executor, i) => ({ name: `step-${i}`, executor })));
      const deps = testDeps();
      const paused = await runToEnd(flow, PICK, { deps });
      t.equal(paused.result.status, 'PAUSED');
      const checkpoint = stored(paused.result);
      const { events, result } = await drain(
        continueEntity(
          flow,
          { ...makeRequest(''), checkpoint, results: answers(checkpoint) },
          deps,
        ),
      );
      t.equal(events[0]?.event, 'WorkflowContinued');
      t.equal(
        events.filter((e) => e.event === 'StepStarted').length,
        1,
        'only the step after the paused one starts',
      );
      t.equal(result.status, 'COMPLETED');
      t.equal(
        result.output['content'],
        'Echo: Tool pick_color returned: red',
        "the last step's answer to the continued step's",
      );
      t.match(result.output['step_results'], [
        { step_name: 'step-0', success: true, content: 'Tool pick_color returned: red' },
        { step_name: 'step-1', success: true },
      ]);
      t.equal(only(events, 'WorkflowCompleted')['content'], result.output['content']);
    });
  }
});

t.test('a workflow continue that pauses again, fails or is cancelled', async (t) => {
  const rows = [{ name: 'cancelled', steps: [picker, plain], cancel: true, status: 'CANCELLED' }];
  for (const row of rows) {
    await t.test(row.name, async (t) => {
      const flow = makeWorkflow(row.steps.map((executor, i) => ({ name: `step-${i}`, executor })));
      const deps = testDeps();
      const paused = await runToEnd(flow, PICK, { deps });
      const checkpoint = stored(paused.result);
      const { result } = await drain(
        continueEntity(
          flow,
          {
            ...makeRequest(''),
            cancel: { cancelled: row.cancel },
            checkpoint,
            results: answers(checkpoint),
          },
          deps,
        ),
      );
      t.equal(result.status, row.status);
    });
  }
  await t.test('the continued step fails', async (t) => {
    const flow = makeWorkflow([{ name: 'only', executor: picker }]);
    const deps = testDeps();
    const paused = await runToEnd(flow, PICK, { deps });
    const checkpoint = stored(paused.result) as { run: { executor: { turns: number } } };
    checkpoint.run.executor.turns = MAX_MODEL_TURNS;
    const { events, result } = await drain(
      continueEntity(flow, { ...makeRequest(''), checkpoint, results: answers(checkpoint) }, deps),
    );
    t.equal(result.status, 'ERROR');
    t.same(names(events).slice(-2), ['StepError', 'WorkflowError']);
  });
});

t.test('pendingCallsOf: only checkpoints this engine wrote', async (t) => {
  for (const bad of [null, undefined, 'x', 42, {}, { v: 2 }]) {
    t.same(pendingCallsOf(bad), [], JSON.stringify(bad) ?? 'undefined');
  }
});

t.test('continue refuses a checkpoint that is not for this run or entity', async (t) => {
  const deps = testDeps();
  const paused = await runToEnd(picker, PICK, { deps });
  const checkpoint = stored(paused.result);
  const rows = [
    { name: 'no checkpoint', entity: picker, checkpoint: null, runId: 'run-1' },
    { name: 'another version', entity: picker, checkpoint: { v: 2 }, runId: 'run-1' },
    { name: 'another kind', entity: makeTeam([picker]), checkpoint, runId: 'run-1' },
    { name: 'another run', entity: picker, checkpoint, runId: 'run-2' },
  ];
  for (const row of rows) {
    await t.rejects(
      drain(
        continueEntity(
          row.entity,
          { ...makeRequest('', { runId: row.runId }), checkpoint: row.checkpoint, results: [] },
          deps,
        ),
      ),
      { name: 'TypeError', message: `Run ${row.runId} has no checkpoint to continue from` },
      row.name,
    );
  }
});
