/**
 * What an AG-UI request brings to a run: the client's tools, offered after
 * the agent's own and called when the message names one, and the run's dependencies, shown to
 * every agent in its system prompt and kept across a pause.
 */
import t from 'tap';
import { continueEntity } from '../../../src/runtime/engine/continue.js';
import {
  CLIENT_TOOL,
  drain,
  makeAgent,
  makeRequest,
  makeTeam,
  names,
  only,
  runToEnd,
  testDeps,
} from './fixtures/harness.js';

const ADDITIONAL_CONTEXT = '<additional context>\n{\n  "timezone": "UTC"\n}\n</additional context>';

t.test('a message naming a client tool of the request calls it and pauses the run', async (t) => {
  const { events, result } = await runToEnd(makeAgent(), 'please pick_color {"for": "car"} now', {
    request: { clientTools: [CLIENT_TOOL] },
  });
  t.same(names(events), [
    'RunStarted',
    'ModelRequestStarted',
    'ModelRequestCompleted',
    'RunPaused',
  ]);
  t.match(only(events, 'RunPaused')['tools'], [
    { tool_name: 'pick_color', tool_args: { for: 'car' }, external_execution_required: true },
  ]);
  t.equal(result.status, 'PAUSED');
});

t.test('a configured client tool is not called by being named, only by /tool', async (t) => {
  const agent = makeAgent({ tools: [CLIENT_TOOL] });
  const { result } = await runToEnd(agent, 'please pick_color');
  t.equal(result.status, 'COMPLETED');
  t.equal(result.output['content'], 'Echo: please pick_color');
});

t.test('dependencies join the system prompt, never the user message', async (t) => {
  const agent = makeAgent({ description: 'An echo bot.' });
  const { result } = await runToEnd(agent, 'hi', {
    request: { dependencies: { timezone: 'UTC' } },
  });
  t.match(result.output['messages'], [
    { role: 'system', content: `An echo bot.\n\n${ADDITIONAL_CONTEXT}` },
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: 'Echo: hi' },
  ]);
});

t.test(
  'every member of a team sees the dependencies, also one started after a pause',
  async (t) => {
    // Both members get the same task, so each pauses on the client tool in turn.
    const team = makeTeam([makeAgent({ id: 'first', name: 'First' }), makeAgent()]);
    const deps = testDeps();
    const first = await runToEnd(team, '/tool pick_color {}', {
      request: { clientTools: [CLIENT_TOOL], dependencies: { timezone: 'UTC' } },
      deps,
    });
    t.equal(first.result.status, 'PAUSED');
    t.match(
      first.result.checkpoint,
      { dependencies: { timezone: 'UTC' } },
      'kept in the checkpoint',
    );
    const call = (only(first.events, 'TeamRunPaused')['tools'] as { tool_call_id: string }[])[0];
    const request = makeRequest('/tool pick_color {}');
    const second = await drain(
      continueEntity(
        team,
        {
          runId: request.runId,
          sessionId: request.sessionId,
          userId: request.userId,
          sessionState: first.result.sessionState,
          cancel: { cancelled: false },
          checkpoint: first.result.checkpoint,
          results: [{ toolCallId: call?.tool_call_id as string, content: 'red', error: false }],
        },
        deps,
      ),
    );
    t.equal(second.result.status, 'PAUSED', 'the second member pauses too');
    const members = second.result.output['member_responses'] as Record<string, unknown>[];
    t.match(members, [{ agent_id: 'first' }, { agent_id: 'echoer' }]);
    for (const member of members) {
      t.match(
        member['messages'],
        [{ role: 'system', content: ADDITIONAL_CONTEXT }],
        `${String(member['agent_id'])} sees them`,
      );
    }
  },
);
