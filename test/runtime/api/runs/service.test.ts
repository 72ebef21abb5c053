/**
 * The run service's own rules, below the routes: a run id a client chose twice, cancel intent
 * for a run not started yet, which paused run a set of tool call ids finds, and the pending
 * calls of stored runs.
 */
import t, { type Test } from 'tap';
import { ANONYMOUS_CALLER } from '../../../../src/runtime/http/caller.js';
import { buildCatalogue } from '../../../../src/runtime/catalogue/resolve.js';
import type { AgentDefinition } from '../../../../src/runtime/catalogue/definitions.js';
import { createRunService, type ActiveRun } from '../../../../src/runtime/api/runs/service.js';
import { openRuntimeStore } from '../../../../src/runtime/store/store.js';
import { createTestClock } from '../../../fixtures/tokens.js';
import { SETTINGS } from '../../fixtures/runtime.js';

function setup(t: Test) {
  const store = openRuntimeStore(':memory:');
  t.teardown(() => store.close());
  let ids = 0;
  const runs = createRunService(store, {
    clock: createTestClock(),
    newId: () => `id-${++ids}`,
    sleep: async () => {},
  });
  const catalogue = buildCatalogue(SETTINGS).catalogue;
  const agent = catalogue?.agents.get('a1') as AgentDefinition;
  return { store, runs, agent };
}

async function drain(run: ActiveRun) {
  let step = await run.events.next();
  while (!step.done) step = await run.events.next();
  return step.value;
}

t.test('a run id chosen by the client is used once (409 after)', async (t) => {
  const { runs, agent } = setup(t);
  const start = () =>
    runs.start({
      entity: agent,
      caller: ANONYMOUS_CALLER,
      clientUserId: null,
      sessionId: 'thread-1',
      message: 'hi',
      runId: 'client-run',
    });
  const run = start();
  t.equal(run.runId, 'client-run');
  t.equal(run.sessionId, 'thread-1');
  t.equal((await drain(run)).status, 'COMPLETED');
  let caught: unknown = null;
  try {
    start();
  } catch (err) {
    caught = err;
  }
  t.match(caught, { status: 409, detail: 'Run client-run already exists' });
});

t.test('a cancel before the run starts makes it start cancelled', async (t) => {
  const { runs, agent, store } = setup(t);
  await runs.cancel({ entity: agent, caller: ANONYMOUS_CALLER, runId: 'later', sessionId: null });
  const run = runs.start({
    entity: agent,
    caller: ANONYMOUS_CALLER,
    clientUserId: null,
    sessionId: null,
    message: 'hi',
    runId: 'later',
  });
  t.equal((await drain(run)).status, 'CANCELLED');
  t.match(store.getRun('later'), { status: 'CANCELLED' });
});

t.test('ActiveRun.cancel stops the run at its next delta', async (t) => {
  const { runs, agent } = setup(t);
  const run = runs.start({
    entity: agent,
    caller: ANONYMOUS_CALLER,
    clientUserId: null,
    sessionId: null,
    message: '/slow 5 0',
  });
  const first = await run.events.next();
  t.equal(first.done, false);
  run.cancel();
  t.equal((await drain(run)).status, 'CANCELLED');
});

t.test('findPausedRun and pendingCalls', async (t) => {
  const { runs, agent, store } = setup(t);
  const start = (message: string) =>
    runs.start({
      entity: agent,
      caller: ANONYMOUS_CALLER,
      clientUserId: null,
      sessionId: 's',
      message,
    });
  await drain(start('/tool pick_color {}'));
  await drain(start('hello'));
  const [pausedRun, doneRun] = store.listRuns('s');
  const calls = runs.pendingCalls(pausedRun!);
  t.equal(calls.length, 1);
  t.equal(calls[0]?.toolName, 'pick_color');
  t.same(runs.pendingCalls(doneRun!), [], 'a completed run waits on nothing');
  t.equal(runs.findPausedRun('s', [calls[0]!.toolCallId])?.run_id, pausedRun?.run_id);
  t.equal(runs.findPausedRun('s', ['other']), null);
  t.equal(runs.findPausedRun('nowhere', [calls[0]!.toolCallId]), null);
});

t.test('a session renamed while a run goes on keeps its new name', async (t) => {
  const { runs, agent, store } = setup(t);
  const run = runs.start({
    entity: agent,
    caller: ANONYMOUS_CALLER,
    clientUserId: null,
    sessionId: 's',
    message: '/slow 2 0',
  });
  await run.events.next();
  store.putSession({ ...store.getSession('s')!, session_name: 'renamed' });
  await drain(run);
  t.equal(store.getSession('s')?.session_name, 'renamed');
});

t.test('a session deleted while its run goes on is not brought back', async (t) => {
  const { runs, agent, store } = setup(t);
  const run = runs.start({
    entity: agent,
    caller: ANONYMOUS_CALLER,
    clientUserId: null,
    sessionId: 's',
    message: '/slow 2 0',
  });
  await run.events.next();
  store.deleteSession('s');
  t.equal((await drain(run)).status, 'COMPLETED', 'the run itself finishes');
  t.equal(store.getSession('s'), null);
  t.equal(store.getRun(run.runId), null);
});

t.test('an engine that throws leaves the run stored as ERROR, not RUNNING', async (t) => {
  const { runs, agent, store } = setup(t);
  const run = runs.start({
    entity: agent,
    caller: ANONYMOUS_CALLER,
    clientUserId: null,
    sessionId: 's',
    message: '/tool pick_color {}',
  });
  await drain(run);
  const paused = store.getRun(run.runId)!;
  // A checkpoint that names its pending call but belongs to another run: the engine refuses it.
  const checkpoint = structuredClone(paused.checkpoint) as { run: { runId: string } };
  checkpoint.run.runId = 'someone-else';
  store.putRun({ ...paused, checkpoint });
  const [call] = runs.pendingCalls(store.getRun(run.runId)!);
  const resumed = await runs.continue(
    { entity: agent, caller: ANONYMOUS_CALLER, runId: run.runId, sessionId: 's' },
    [{ toolCallId: call!.toolCallId, content: 'red', error: false }],
  );
  await t.rejects(drain(resumed), { name: 'TypeError' });
  t.match(store.getRun(run.runId), {
    status: 'ERROR',
    checkpoint: null,
    output: {
      status: 'ERROR',
      content: `TypeError: Run ${run.runId} has no checkpoint to continue from`,
    },
  });
  // And when the session went away in the meantime, nothing is written back.
  store.putRun({ ...paused, checkpoint });
  const again = await runs.continue(
    { entity: agent, caller: ANONYMOUS_CALLER, runId: run.runId, sessionId: 's' },
    [{ toolCallId: call!.toolCallId, content: 'red', error: false }],
  );
  store.deleteSession('s');
  await t.rejects(drain(again), { name: 'TypeError' });
  t.equal(store.getRun(run.runId), null);
});
