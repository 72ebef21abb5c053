/**
 * Cancels across runtime replicas, on one real store that two run services share as two replicas
 * would (each with its own live runs): a cancel through one reaches a run live on the other, a
 * client's run id cancelled through one before it starts starts cancelled on the other, old
 * intents are pruned, and a store that stops answering never stops the watch with a throw.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { ANONYMOUS_CALLER } from '../../../../src/runtime/http/caller.js';
import { buildCatalogue } from '../../../../src/runtime/catalogue/resolve.js';
import type { AgentDefinition } from '../../../../src/runtime/catalogue/definitions.js';
import {
  CANCEL_RETENTION_SECONDS,
  watchCancels,
} from '../../../../src/runtime/api/runs/cancel-watch.js';
import { createRunService, type ActiveRun } from '../../../../src/runtime/api/runs/service.js';
import { openRuntimeStore, type RuntimeStore } from '../../../../src/runtime/store/store.js';
import { createTestClock } from '../../../fixtures/tokens.js';
import { SETTINGS } from '../../fixtures/runtime.js';

const agent = buildCatalogue(SETTINGS).catalogue?.agents.get('a1') as AgentDefinition;

/** A replica's run service on `store`: ids of its own, deltas of `/slow` really apart. */
function replica(store: RuntimeStore, prefix: string) {
  let ids = 0;
  return createRunService(store, {
    clock: createTestClock(),
    newId: () => `${prefix}-${++ids}`,
    sleep: (ms) => sleep(ms),
  });
}

async function drain(run: ActiveRun) {
  let step = await run.events.next();
  while (!step.done) step = await run.events.next();
  return step.value;
}

/** Waits (polling every 10 ms) until `probe` holds; the test's timeout bounds it. */
async function until(probe: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await probe())) await sleep(10);
}

t.test('a cancel through one replica stops a run live on the other', async (t) => {
  const store = openRuntimeStore(':memory:');
  t.teardown(() => store.close());
  const [one, two] = [replica(store, 'r1'), replica(store, 'r2')];
  const run = await one.start({
    entity: agent,
    caller: ANONYMOUS_CALLER,
    clientUserId: null,
    sessionId: 's',
    message: '/slow 2000 5',
  });
  const ended = drain(run);
  await until(async () => (await store.getRun(run.runId))?.status === 'RUNNING');
  await two.cancel({ entity: agent, caller: ANONYMOUS_CALLER, runId: run.runId, sessionId: 's' });
  t.same(await store.cancelsAmong([run.runId]), [run.runId], 'the intent is stored');
  t.equal((await ended).status, 'CANCELLED', 'the run stopped at a delta');
  t.match(await store.getRun(run.runId), { status: 'CANCELLED' });
});

t.test(
  "a client's run id cancelled through one replica starts cancelled on the other",
  async (t) => {
    const store = openRuntimeStore(':memory:');
    t.teardown(() => store.close());
    const [one, two] = [replica(store, 'r1'), replica(store, 'r2')];
    await two.cancel({
      entity: agent,
      caller: ANONYMOUS_CALLER,
      runId: 'client-run',
      sessionId: null,
    });
    const run = await one.start({
      entity: agent,
      caller: ANONYMOUS_CALLER,
      clientUserId: null,
      sessionId: 's',
      message: 'hello',
      runId: 'client-run',
    });
    t.equal((await drain(run)).status, 'CANCELLED');
    // A finished run is not cancelled again, and leaves no intent behind.
    const done = await one.start({
      entity: agent,
      caller: ANONYMOUS_CALLER,
      clientUserId: null,
      sessionId: 's',
      message: 'hello',
    });
    await drain(done);
    await two.cancel({
      entity: agent,
      caller: ANONYMOUS_CALLER,
      runId: done.runId,
      sessionId: 's',
    });
    t.same(await store.cancelsAmong([done.runId]), []);
  },
);

t.test('the watch prunes old intents, polls while runs are live and stops after', async (t) => {
  const store = openRuntimeStore(':memory:');
  t.teardown(() => store.close());
  await store.requestCancel('old', 0);
  await store.requestCancel('old', 5);
  await store.requestCancel('live', CANCEL_RETENTION_SECONDS + 10);
  const live = new Map([
    ['live', { cancelled: false }],
    ['other', { cancelled: false }],
  ]);
  const wake = watchCancels(store, live, () => CANCEL_RETENTION_SECONDS + 10, 5);
  wake();
  wake();
  await until(() => live.get('live')!.cancelled);
  t.equal(live.get('other')!.cancelled, false, 'only the one asked for');
  await until(async () => (await store.cancelsAmong(['old'])).length === 0);
  t.same(await store.cancelsAmong(['old', 'live']), ['live'], 'the old intent is pruned');
  live.clear();
  await sleep(20);
});

t.test('a store that stops answering never throws out of the watch', async (t) => {
  const store = openRuntimeStore(':memory:');
  const live = new Map([['r', { cancelled: false }]]);
  const wake = watchCancels(store, live, () => 0, 5);
  await store.close();
  wake();
  await sleep(30);
  t.equal(live.get('r')!.cancelled, false);
  live.clear();
  await sleep(20);
});
