/**
 * The composite runner over a toy child list: the order it calls the list in for each way a
 * child ends, a cancel between children, and a continued run (the paused child resumed, only
 * its events and tokens after the checkpoint taken in, the children after it run afresh).
 */
import t from 'tap';
import { runChildren, type ChildList } from '../../../src/runtime/engine/composite-run.js';
import { RunLedger, type CheckpointHead } from '../../../src/runtime/engine/ledger.js';
import type { TokenCounts } from '../../../src/runtime/engine/metrics.js';
import type { RunStatus } from '../../../src/runtime/engine/request.js';
import { createChildScope } from '../../../src/runtime/engine/scope.js';
import { drain, makeScope, names, testDeps } from './fixtures/harness.js';

const ONE: TokenCounts = {
  input_tokens: 1,
  output_tokens: 1,
  total_tokens: 2,
  reasoning_tokens: 0,
};

/** A toy's own checkpoint: the paused child's position and checkpoint. */
interface ToyCheckpoint extends CheckpointHead {
  readonly at: number;
  readonly child: CheckpointHead;
}

/**
 * A list of children that end with `statuses`, one `Child` event and one token count each (a
 * continued child adds `ChildContinued` and another); every call the runner makes is logged.
 */
function toy(
  statuses: readonly RunStatus[],
  options: { readonly cancelAfter?: number; readonly saved?: ToyCheckpoint } = {},
) {
  const log: string[] = [];
  const cancel = { cancelled: false };
  const scope = { ...makeScope('go', testDeps()), cancel };
  const ledger = new RunLedger(scope, { toy_id: 'toy' }, options.saved ?? null);
  const end = (status: RunStatus, checkpoint: CheckpointHead | null = null) =>
    ledger.toOutcome(status, status, { output: () => ({ status }), checkpoint });
  const list: ChildList<number, CheckpointHead> = {
    ledger,
    size: statuses.length,
    *begin(continued) {
      log.push(`begin${continued ? ' continued' : ''}`);
      yield ledger.emit(continued ? 'ToyContinued' : 'ToyStarted');
    },
    *open(index, continued) {
      log.push(`open ${index}${continued ? ' continued' : ''}`);
      yield ledger.emit('ChildOpened', { index });
      return index;
    },
    async *run(index, resume) {
      log.push(`run ${index}${resume === null ? '' : ` from ${resume.checkpoint.runId}`}`);
      const childScope = createChildScope(scope, {
        runId: `child-${index}`,
        message: 'go',
        parentRunId: scope.runId,
        workflow: null,
      });
      const child = new RunLedger(childScope, { child: index }, resume?.checkpoint ?? null);
      yield child.emit(resume === null ? 'Child' : 'ChildContinued');
      child.addTokens(ONE);
      const status = statuses[index] as RunStatus;
      const checkpoint = status === 'PAUSED' ? child.checkpointHead() : null;
      return child.toOutcome(status, `answer ${index}`, { output: () => ({}), checkpoint });
    },
    checkpoint(index, paused) {
      log.push(`checkpoint ${index}`);
      return { ...ledger.checkpointHead(), at: index, child: paused.checkpoint };
    },
    keep(index, outcome) {
      log.push(`keep ${index} ${outcome.status}`);
    },
    *paused(index, _, checkpoint) {
      log.push(`paused ${index}`);
      yield ledger.emit('ToyPaused');
      return end('PAUSED', checkpoint);
    },
    *failed(index) {
      log.push(`failed ${index}`);
      yield ledger.emit('ToyError');
      return end('ERROR');
    },
    *completed(index, outcome) {
      log.push(`completed ${index} ${outcome.text}`);
      if (index === options.cancelAfter) cancel.cancelled = true;
      yield ledger.emit('ChildCompleted');
    },
    *cancelled() {
      log.push('cancelled');
      yield ledger.emitCancelled('ToyCancelled');
      return end('CANCELLED');
    },
    *finish() {
      log.push('finish');
      yield ledger.emit('ToyCompleted');
      return end('COMPLETED');
    },
  };
  return { list, log };
}

const rows: {
  readonly name: string;
  readonly statuses: readonly RunStatus[];
  readonly cancelAfter?: number;
  readonly log: readonly string[];
  readonly status: RunStatus;
}[] = [
  {
    name: 'every child completes, then the run finishes',
    statuses: ['COMPLETED', 'COMPLETED'],
    log: [
      'begin',
      ...['open 0', 'run 0', 'keep 0 COMPLETED', 'completed 0 answer 0'],
      ...['open 1', 'run 1', 'keep 1 COMPLETED', 'completed 1 answer 1'],
      'finish',
    ],
    status: 'COMPLETED',
  },
  {
    name: 'no children: the run finishes at once',
    statuses: [],
    log: ['begin', 'finish'],
    status: 'COMPLETED',
  },
  {
    name: 'a paused child: the checkpoint is taken before the child is kept',
    statuses: ['COMPLETED', 'PAUSED', 'COMPLETED'],
    log: [
      'begin',
      ...['open 0', 'run 0', 'keep 0 COMPLETED', 'completed 0 answer 0'],
      ...['open 1', 'run 1', 'checkpoint 1', 'keep 1 PAUSED', 'paused 1'],
    ],
    status: 'PAUSED',
  },
  {
    name: 'a failed child fails the run',
    statuses: ['ERROR', 'COMPLETED'],
    log: ['begin', 'open 0', 'run 0', 'keep 0 ERROR', 'failed 0'],
    status: 'ERROR',
  },
  {
    name: 'a cancelled child cancels the run',
    statuses: ['CANCELLED', 'COMPLETED'],
    log: ['begin', 'open 0', 'run 0', 'keep 0 CANCELLED', 'cancelled'],
    status: 'CANCELLED',
  },
  {
    name: 'a cancel between children: the next child is not opened',
    statuses: ['COMPLETED', 'COMPLETED'],
    cancelAfter: 0,
    log: ['begin', 'open 0', 'run 0', 'keep 0 COMPLETED', 'completed 0 answer 0', 'cancelled'],
    status: 'CANCELLED',
  },
];

for (const row of rows) {
  t.test(row.name, async (t) => {
    const { list, log } = toy(row.statuses, { cancelAfter: row.cancelAfter });
    const { events, result } = await drain(runChildren(list, null));
    t.same(log, row.log);
    t.equal(result.status, row.status);
    t.same(result.events, events, 'the outcome holds every event, the children’s nested');
    const ran = log.filter((entry) => entry.startsWith('run ')).length;
    t.equal(names(events).filter((name) => name === 'Child').length, ran);
    t.equal(result.tokens.total_tokens, 2 * ran, 'each child’s tokens added');
  });
}

t.test('a paused run continues its paused child, then runs the ones after it', async (t) => {
  const first = toy(['COMPLETED', 'PAUSED', 'COMPLETED']);
  const paused = await drain(runChildren(first.list, null));
  const saved = paused.result.checkpoint as ToyCheckpoint;
  t.equal(saved.at, 1);
  t.same(
    saved.child.events.map((e) => e.event),
    ['Child'],
    'the child’s events up to its pause',
  );
  t.same(
    names(saved.events),
    names(paused.events),
    'the run’s checkpoint holds all its events so far',
  );

  const second = toy(['COMPLETED', 'COMPLETED', 'COMPLETED'], { saved });
  const resume = { at: saved.at, checkpoint: saved.child, results: [] };
  const { events, result } = await drain(runChildren(second.list, resume));
  t.same(second.log, [
    'begin continued',
    ...['open 1 continued', 'run 1 from child-1', 'keep 1 COMPLETED', 'completed 1 answer 1'],
    ...['open 2', 'run 2', 'keep 2 COMPLETED', 'completed 2 answer 2'],
    'finish',
  ]);
  t.same(names(events), [
    'ToyContinued',
    'ChildOpened',
    'ChildContinued',
    'ChildCompleted',
    'ChildOpened',
    'Child',
    'ChildCompleted',
    'ToyCompleted',
  ]);
  t.same(
    names(result.events),
    [...names(paused.events), ...names(events)],
    'the child’s events before its pause are not taken in twice',
  );
  t.equal(
    result.tokens.total_tokens,
    2 + 2 + 2 + 2,
    'two children before the pause, the resumed one’s second count, the last child',
  );
});
