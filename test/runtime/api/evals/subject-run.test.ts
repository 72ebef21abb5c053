/**
 * Running an eval's subject through the real engine on the offline model: the answer text, the
 * events and the model; nothing is stored (the engine has no store to write to).
 */
import t from 'tap';
import { buildCatalogue } from '../../../../src/runtime/catalogue/resolve.js';
import type {
  AgentDefinition,
  TeamDefinition,
} from '../../../../src/runtime/catalogue/definitions.js';
import type { EngineDeps } from '../../../../src/runtime/engine/run.js';
import {
  contentText,
  runSubject,
  stringOrNull,
} from '../../../../src/runtime/api/evals/subject-run.js';
import { createTestClock } from '../../../fixtures/tokens.js';
import { SETTINGS } from '../../fixtures/runtime.js';

const catalogue = buildCatalogue(SETTINGS).catalogue!;
const agent = (id: string) => catalogue.agents.get(id) as AgentDefinition;
const team = (id: string) => catalogue.teams.get(id) as TeamDefinition;

function deps(): EngineDeps {
  let n = 0;
  return { clock: createTestClock(), newId: () => `id-${++n}`, sleep: async () => {} };
}

t.test('an agent run: the echo, its events and the offline model', async (t) => {
  const run = await runSubject(agent('a2'), 'hello there', deps());
  t.equal(run.content, 'Echo: hello there');
  t.equal(run.model, 'offline-echo');
  t.equal(run.modelProvider, 'offline');
  t.equal(run.events[0]?.event, 'RunStarted');
  t.equal(run.events.at(-1)?.event, 'RunCompleted');
  t.match(run.events[0], { run_id: 'id-1', session_id: 'id-2' }, 'fresh run and session ids');
});

t.test('a tool call shows in the events; a failed run answers its error', async (t) => {
  const tool = await runSubject(agent('a1'), '/tool add {"a":2,"b":3}', deps());
  t.equal(tool.content, 'Tool add returned: 5');
  t.ok(tool.events.some((e) => e.event === 'ToolCallStarted'));
  const failed = await runSubject(agent('a2'), '/error boom', deps());
  t.equal(failed.content, 'boom');
  t.equal(failed.events.at(-1)?.event, 'RunError');
});

t.test(
  'a team run: the members answers joined; the leader reports the offline model',
  async (t) => {
    const run = await runSubject(team('t1'), 'hi', deps());
    t.equal(run.content, 'Echo: hi\n\nEcho: hi');
    t.equal(run.model, 'offline-echo');
    t.equal(run.events.at(-1)?.event, 'TeamRunCompleted');
  },
);

t.test('contentText and stringOrNull', async (t) => {
  t.equal(contentText('text'), 'text');
  t.equal(contentText(undefined), '');
  t.equal(contentText(null), '');
  t.equal(contentText({ answer: 4 }), '{"answer":4}', 'structured content as its JSON');
  t.equal(stringOrNull('x'), 'x');
  t.equal(stringOrNull(3), null);
});
