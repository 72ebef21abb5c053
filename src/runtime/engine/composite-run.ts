/**
 * The one runner for runs made of child runs, a team's members and a workflow's steps: each
 * child in order (the paused one continued), its events after its checkpoint spliced into the
 * parent's, its tokens added, a pause kept as a checkpoint, a cancel checked between children.
 * What a child is and what the parent says around it is its {@link ChildList}'s. Pure: no I/O.
 */
import type { RunEvent } from './events.js';
import type { CheckpointHead, Resume, RunLedger, RunOutcome } from './ledger.js';

/** Continuing a composite run: the position of its paused child, and that child's resume. */
export interface CompositeResume<Saved extends CheckpointHead> extends Resume<Saved> {
  readonly at: number;
}

/**
 * One kind of composite run: its ledger, its children, and what it does around each. The runner
 * calls `begin`; per child `open`, `run`, `checkpoint` (if the child paused), `keep`, then one of
 * `paused`, `cancelled`, `failed`, `completed` by the child's status; and `finish` once every
 * child completed. `cancelled` also ends a run cancelled between children. `Child` is what the
 * kind knows of one child while it runs (ids, delegation call…); `Saved`, a child's checkpoint.
 */
export interface ChildList<Child, Saved extends CheckpointHead> {
  readonly ledger: RunLedger;
  /** How many children the run has. */
  readonly size: number;
  /** Emits the run's opening events: a fresh run's, or a continued one's. */
  begin(continued: boolean): Generator<RunEvent, void, void>;
  /** Starts child `index`, with its saved ids when `continued`, and emits what opens it. */
  open(index: number, continued: boolean): Generator<RunEvent, Child, void>;
  /** Runs the child, or continues it from its checkpoint. */
  run(child: Child, resume: Resume<Saved> | null): AsyncGenerator<RunEvent, RunOutcome, void>;
  /** What the run keeps to be continued when `child` paused (taken before `keep`). */
  checkpoint(child: Child, paused: RunOutcome): CheckpointHead;
  /** Keeps the child's outcome in the run's own record, whatever its status. */
  keep(child: Child, outcome: RunOutcome): void;
  /** Ends the run paused on `child`. */
  paused(child: Child, outcome: RunOutcome, checkpoint: CheckpointHead): Steps<RunOutcome>;
  /** Ends the run failed by `child`. */
  failed(child: Child, outcome: RunOutcome): Steps<RunOutcome>;
  /** Takes a completed child's answer; the next child runs after it. */
  completed(child: Child, outcome: RunOutcome): Steps<void>;
  /** Ends the run cancelled. */
  cancelled(): Steps<RunOutcome>;
  /** Ends the run once every child completed. */
  finish(): Steps<RunOutcome>;
}

/** Events emitted on the way to a result. */
type Steps<Result> = Generator<RunEvent, Result, void>;

/**
 * Runs `list`'s children in order, or with `resume` continues the paused one and runs those
 * after it. Yields every event (the children's nested), returns the run's outcome.
 */
export async function* runChildren<Child, Saved extends CheckpointHead>(
  list: ChildList<Child, Saved>,
  resume: CompositeResume<Saved> | null,
): AsyncGenerator<RunEvent, RunOutcome, void> {
  const { ledger } = list;
  yield* list.begin(resume !== null);
  for (let index = resume?.at ?? 0; index < list.size; index++) {
    // The paused child continues under its own ids; the ones after it start afresh.
    const continued = resume !== null && index === resume.at ? resume : null;
    if (ledger.scope.cancel.cancelled) return yield* list.cancelled();
    const child = yield* list.open(index, continued !== null);
    const outcome = yield* list.run(child, continued);
    ledger.adopt(outcome, continued?.checkpoint ?? null);
    if (outcome.status === 'PAUSED') {
      const checkpoint = list.checkpoint(child, outcome);
      list.keep(child, outcome);
      return yield* list.paused(child, outcome, checkpoint);
    }
    list.keep(child, outcome);
    if (outcome.status === 'CANCELLED') return yield* list.cancelled();
    if (outcome.status === 'ERROR') return yield* list.failed(child, outcome);
    yield* list.completed(child, outcome);
  }
  return yield* list.finish();
}
