/**
 * Runs on the query layer, on a real SQLite file and on PostgreSQL, opened by two stores as two
 * runtime processes (replicas) would: a run id is inserted once, a change of status is a compare-and-set that one writer
 * wins, a paused run continued through both at once is continued once (the other gets the 409
 * a second continue gets), two starts in one new session share it, and a closed store answers
 * the run routes with a 500, never a 200.
 */
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { ANONYMOUS_CALLER } from '../../../../src/runtime/http/caller.js';
import { buildCatalogue } from '../../../../src/runtime/catalogue/resolve.js';
import type { AgentDefinition } from '../../../../src/runtime/catalogue/definitions.js';
import {
  createRunService,
  type ActiveRun,
  type RunService,
} from '../../../../src/runtime/api/runs/service.js';
import { openRuntimeStore, type RuntimeStore } from '../../../../src/runtime/store/store.js';
import { createTestClock } from '../../../fixtures/tokens.js';
import { call, runtimeApp, SETTINGS } from '../../fixtures/runtime.js';
import { eachStore } from '../../fixtures/stores.js';
import { aliceSession, completedRun } from '../../store/fixtures/records.js';

/** Two stores on one fresh file, as two processes would open it; closed at teardown. */
function twoStores(t: Test): [RuntimeStore, RuntimeStore] {
  const path = join(t.testdir(), 'runtime.db');
  const stores: [RuntimeStore, RuntimeStore] = [openRuntimeStore(path), openRuntimeStore(path)];
  t.teardown(() => stores.forEach((store) => store.close()));
  return stores;
}

/** A run service over `store`, with ids of its own prefix. */
function serviceOf(store: RuntimeStore, prefix: string): RunService {
  let ids = 0;
  return createRunService(store, {
    clock: createTestClock(),
    newId: () => `${prefix}-${++ids}`,
    sleep: async () => {},
  });
}

const agent = buildCatalogue(SETTINGS).catalogue?.agents.get('a1') as AgentDefinition;

async function drain(run: ActiveRun) {
  let step = await run.events.next();
  while (!step.done) step = await run.events.next();
  return step.value;
}

/** What `promise` settled as: the value, or the error's status and detail. */
async function outcome<T>(promise: Promise<T>): Promise<T | { status: number; detail: unknown }> {
  try {
    return await promise;
  } catch (error) {
    const { status, detail } = error as { status: number; detail: unknown };
    return { status, detail };
  }
}

eachStore(t, 'insertRun, replaceRun and updateRun say whether they wrote', async (t, stores) => {
  const [one, two] = await stores.pair();
  await one.putSession(aliceSession());
  const paused = completedRun({ status: 'PAUSED' });
  t.equal(await one.insertRun(paused), true, 'a new id');
  t.equal(await two.insertRun(completedRun({ input: 'other' })), false, 'a taken id');
  t.strictSame(await two.getRun('run-1'), paused, 'nothing overwritten');

  const running = { ...paused, status: 'RUNNING' as const };
  const cancelled = { ...paused, status: 'CANCELLED' as const };
  const wrote = await Promise.all([
    one.replaceRun(running, 'PAUSED'),
    two.replaceRun(cancelled, 'PAUSED'),
  ]);
  t.same(wrote.filter(Boolean), [true], 'of two compare-and-sets on the status read, one wins');
  t.equal((await two.getRun('run-1'))?.status, wrote[0] ? 'RUNNING' : 'CANCELLED', 'the winner');
  t.equal(await two.replaceRun(cancelled, 'PAUSED'), false, 'no longer paused');

  t.equal(await two.updateRun({ ...running, status: 'COMPLETED' }), true);
  await one.deleteSession('sess-alice');
  t.equal(await two.updateRun(running), false, 'a run gone with its session is not written');
  t.equal(await two.getRun('run-1'), null, 'nor brought back');
});

eachStore(
  t,
  'a paused run continued through two processes at once is continued once',
  async (t, stores) => {
    const [one, two] = await stores.pair();
    const first = serviceOf(one, 'p1');
    const second = serviceOf(two, 'p2');
    const started = await first.start({
      entity: agent,
      caller: ANONYMOUS_CALLER,
      clientUserId: null,
      sessionId: 's',
      message: '/tool pick_color {}',
    });
    t.equal((await drain(started)).status, 'PAUSED');
    const paused = (await two.getRun(started.runId))!;
    const [pending] = second.pendingCalls(paused);
    const answers = [{ toolCallId: pending!.toolCallId, content: 'red', error: false }];
    const ref = { entity: agent, caller: ANONYMOUS_CALLER, runId: started.runId, sessionId: 's' };
    const results = await Promise.all([
      outcome(first.continue(ref, answers)),
      outcome(second.continue(ref, answers)),
    ]);
    const won = results.filter((r): r is ActiveRun => 'events' in r);
    const lost = results.filter((r) => !('events' in r));
    t.equal(won.length, 1, 'one continues');
    t.same(lost, [
      { status: 409, detail: `Cannot continue run ${started.runId}: run is running, not paused` },
    ]);
    t.equal((await drain(won[0]!)).status, 'COMPLETED');
    t.match(await one.getRun(started.runId), { status: 'COMPLETED' });

    // Two cancels of a paused run at once: one writes it, the other finds it already cancelled.
    const again = await first.start({
      entity: agent,
      caller: ANONYMOUS_CALLER,
      clientUserId: null,
      sessionId: 's',
      message: '/tool pick_color {}',
    });
    await drain(again);
    const cancel = { ...ref, runId: again.runId };
    await Promise.all([first.cancel(cancel), second.cancel(cancel)]);
    t.match(await two.getRun(again.runId), { status: 'CANCELLED', checkpoint: null });
    t.same(await outcome(second.continue(cancel, answers)), {
      status: 409,
      detail: `Cannot continue run ${again.runId}: run is cancelled`,
    });
  },
);

t.test('two runs started at once in one new session share it', async (t) => {
  const [one, two] = twoStores(t);
  const start = (runs: RunService, message: string) =>
    runs.start({
      entity: agent,
      caller: ANONYMOUS_CALLER,
      clientUserId: 'alice',
      sessionId: 'fresh',
      message,
    });
  // Both on one connection: at the runs' end a trace is written in a transaction that spans
  // awaits, and a second connection in the same process would wait for its lock synchronously,
  // blocking the thread the first needs to commit (a limit of SQLite in one process; separate
  // processes do not share a thread). The race on the new session is the same.
  const runs = await Promise.all([
    start(serviceOf(one, 'p1'), 'hello'),
    start(serviceOf(one, 'p2'), 'hi'),
  ]);
  await Promise.all(runs.map(drain));
  t.match(await one.getSession('fresh'), { user_id: 'alice', component_id: 'a1' });
  t.same(
    (await two.listRuns('fresh')).map((run) => run.status),
    ['COMPLETED', 'COMPLETED'],
    'both runs stored in it',
  );
  // One started in another component's session of the same id is refused as before.
  const team = serviceOf(one, 'p3');
  const other = { ...agent, id: 'someone-else' };
  t.same(
    await outcome(
      team.start({
        entity: other,
        caller: ANONYMOUS_CALLER,
        clientUserId: null,
        sessionId: 'fresh',
        message: 'x',
      }),
    ),
    { status: 404, detail: 'Session not found' },
  );
});

eachStore(
  t,
  'a run id taken between the check and the write is refused with the 409',
  async (t, stores) => {
    const [one, two] = await stores.pair();
    const start = (runs: RunService) =>
      runs.start({
        entity: agent,
        caller: ANONYMOUS_CALLER,
        clientUserId: null,
        sessionId: 's',
        message: 'hello',
        runId: 'client-run',
      });
    const results = await Promise.all([
      outcome(start(serviceOf(one, 'p1'))),
      outcome(start(serviceOf(two, 'p2'))),
    ]);
    const won = results.filter((r): r is ActiveRun => 'events' in r);
    t.equal(won.length, 1, 'one run');
    t.same(
      results.filter((r) => !('events' in r)),
      [{ status: 409, detail: 'Run client-run already exists' }],
    );
    await drain(won[0]!);
  },
);

t.test('a closed store: the run routes answer 500, never a 200', async (t) => {
  const rt = runtimeApp(t);
  rt.store.close();
  const rows: [name: string, url: string][] = [
    ['GET /agents/{id}/runs', '/agents/a1/runs?session_id=s'],
    ['GET /agents/{id}/runs/{run_id}', '/agents/a1/runs/r1?session_id=s'],
  ];
  for (const [name, url] of rows) {
    t.same(
      await call(rt, 'GET', url),
      { status: 500, body: { detail: 'Internal runtime error' } },
      name,
    );
  }
});
