/**
 * Runs as the runtime's routes see them (REST, AG-UI, A2A): start one in a session, continue a
 * paused one with tool results, cancel one, and read them back, each confined to the caller the
 * gateway named. Persists every run it hands out once its events are drained. Never writes HTTP.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { LRUCache } from 'lru-cache';
import { watchCancels } from './cancel-watch.js';
import { recordRunApprovals, resolveByAnswers } from '../approvals/records.js';
import { isReservedUserId, mayApprove, runUserOf, type Caller } from '../../http/caller.js';
import type {
  AgentDefinition,
  TeamDefinition,
  ToolDefinition,
  WorkflowDefinition,
} from '../../catalogue/definitions.js';
import {
  continueEntity,
  heldCallsOf,
  pendingCallsOf,
  type PendingCall,
} from '../../engine/continue.js';
import { runEntity, type EngineDeps, type RunEvent, type RunResult } from '../../engine/run.js';
import type { ToolAnswer } from '../../engine/request.js';
import { unsettledReason } from '../../engine/tool-gates.js';
import { HttpError } from '../../http/errors.js';
import type { RunRecord, SessionRecord, SessionType } from '../../store/records.js';
import type { RuntimeStore } from '../../store/store.js';
import { recordTrace } from '../traces/record.js';
import { spanned, startRunSpan } from './span.js';

export type { PendingCall } from '../../engine/continue.js';
export type { ToolAnswer, ToolResult } from '../../engine/request.js';

/** An agent, team or workflow. */
export type Entity = AgentDefinition | TeamDefinition | WorkflowDefinition;

/** Cancel intents remembered for runs not (yet) live: bounded, oldest forgotten first. */
const MAX_CANCEL_INTENTS = 10_000;

/** A run handed out by the service: drain `events` to the end, it persists the result. */
export interface ActiveRun {
  readonly runId: string;
  readonly sessionId: string;
  readonly userId: string | null;
  /**
   * The run's events; the return value is the result, already stored. Drain it to the end even
   * when the client has gone (call {@link ActiveRun.cancel} first): the engine then stops at its
   * next delta, and the run is stored as CANCELLED rather than left RUNNING.
   */
  readonly events: AsyncGenerator<RunEvent, RunResult, void>;
  /** Asks the run to stop at its next delta. */
  cancel(): void;
}

/** What starting a run takes. */
export interface StartRun {
  readonly entity: Entity;
  readonly caller: Caller;
  /** The user id the client supplied (form `user_id`, AG-UI `forwardedProps.user_id`, A2A). */
  readonly clientUserId: string | null;
  /** The session the client asked for; the caller's own `session_id` claim wins. */
  readonly sessionId: string | null;
  readonly message: string;
  /** Session state to run with instead of the stored one (AG-UI `state`). */
  readonly sessionState?: Record<string, unknown> | null | undefined;
  /** Tools the client executes for this run (AG-UI `tools[]`). */
  readonly clientTools?: readonly ToolDefinition[] | undefined;
  /** A run id chosen by the client (AG-UI `runId`); a new one otherwise. */
  readonly runId?: string | undefined;
  /** The run's dependencies (AG-UI `context[]`), shown to its agents in their system prompt. */
  readonly dependencies?: Readonly<Record<string, unknown>> | null | undefined;
  /** The starting request's headers: the run's span continues the trace they carry. */
  readonly traceHeaders?: IncomingHttpHeaders | undefined;
}

/** Names a stored run of an entity, as the caller sees it. */
export interface RunRef {
  readonly entity: Entity;
  readonly caller: Caller;
  readonly runId: string;
  /** Required for continue; required for cancel by a confined caller. */
  readonly sessionId: string | null;
}

/** Builds the run service over a store. */
export function createRunService(store: RuntimeStore, deps: EngineDeps) {
  const live = new Map<string, { cancelled: boolean }>();
  const intents = new LRUCache<string, true>({ max: MAX_CANCEL_INTENTS });
  const nowSeconds = (): number => Math.floor(deps.clock.now() / 1000);
  // Cancels asked through another replica reach the runs live here.
  const watch = watchCancels(store, live, nowSeconds);

  /** Wraps the engine's events: registers the run as live, stores the result at the end. */
  async function* persisted(
    source: AsyncGenerator<RunEvent, RunResult, void>,
    record: RunRecord,
    cancel: { cancelled: boolean },
    entity: Entity,
    fresh: boolean,
    stateRead: Readonly<Record<string, unknown>>,
  ): AsyncGenerator<RunEvent, RunResult, void> {
    live.set(record.run_id, cancel);
    watch();
    try {
      let result: RunResult;
      try {
        result = yield* source;
      } catch (error) {
        // The engine itself failed (a bug, or a checkpoint it cannot read): the run must not stay
        // RUNNING forever. Stored as ERROR with the message; the caller still sees the throw.
        // A run whose session was deleted meanwhile is gone with it: nothing is written then.
        await store.updateRun({
          ...record,
          status: 'ERROR',
          output: { ...record.output, status: 'ERROR', content: String(error) },
          checkpoint: null,
          updated_at: nowSeconds(),
        });
        throw error;
      }
      const now = nowSeconds();
      const stored: RunRecord = {
        ...record,
        status: result.status,
        output: result.output,
        checkpoint: result.checkpoint,
        updated_at: now,
      };
      // Another request may have deleted the session (and its runs with it) while this run went
      // on: then there is nothing left to store the run in.
      if (!(await store.updateRun(stored))) return result;
      // Only the fields the run changes: a rename, or another run's state, meanwhile is kept.
      await store.updateAfterRun(record.session_id, {
        name: record.input.slice(0, 100),
        before: stateRead,
        state: result.sessionState,
        at: now,
      });
      // After the session write, so no await falls between reading the session and writing it.
      await recordRunApprovals(store, stored, entity.name, now, fresh);
      return result;
    } finally {
      live.delete(record.run_id);
    }
  }

  /**
   * `fresh`: the run's id was made by this service for it (see {@link recordRunApprovals});
   * `stateRead`: the session state as stored when the run read it.
   */
  function activeRun(
    record: RunRecord,
    source: AsyncGenerator<RunEvent, RunResult, void>,
    cancel: { cancelled: boolean },
    entity: Entity,
    fresh: boolean,
    stateRead: Readonly<Record<string, unknown>>,
  ): ActiveRun {
    // Every run, started or continued, records its trace. A fresh run has no trace before this
    // one: its trace's ordinal is 0 without counting.
    const traces = fresh ? { ...store.traces, countForRun: async () => 0 } : store.traces;
    const traced = recordTrace(source, entity, record, traces, deps.clock);
    return {
      runId: record.run_id,
      sessionId: record.session_id,
      userId: record.user_id,
      events: persisted(traced, record, cancel, entity, fresh, stateRead),
      cancel: () => {
        cancel.cancelled = true;
      },
    };
  }

  /** The stored run named by `ref` if the caller may see it; null when there is none. */
  async function visibleRun(ref: RunRef): Promise<RunRecord | null> {
    const run = await store.getRun(ref.runId);
    if (run === null) return null;
    const { entity, caller, sessionId } = ref;
    const foreign =
      run.session_type !== entity.kind ||
      run.component_id !== entity.id ||
      (sessionId !== null && run.session_id !== sessionId) ||
      (caller.scopedUserId !== null &&
        (await store.getSession(run.session_id))?.user_id !== caller.scopedUserId);
    if (foreign) throw new HttpError(404, 'Run not found');
    return run;
  }

  return {
    /**
     * Starts a run and stores it as RUNNING.
     *
     * @throws {HttpError} 403 when an anonymous caller claims a reserved user id; 404 `Session not
     *   found` for another user's or another component's session; 409 for a run id already used
     */
    async start(o: StartRun): Promise<ActiveRun> {
      const { caller, entity } = o;
      if (o.clientUserId !== null && !caller.authenticated && isReservedUserId(o.clientUserId)) {
        throw new HttpError(403, 'Client-supplied user_id may not claim a reserved principal');
      }
      const userId = runUserOf(caller, o.clientUserId);
      const runId = o.runId ?? deps.newId();
      // Built only when thrown: an error captures its stack, a cost no started run should pay.
      const taken = (): HttpError => new HttpError(409, `Run ${runId} already exists`);
      // A client's run id may be taken: refused before a session is made for it. One made here
      // is new, and the insert below guards it all the same.
      if (o.runId !== undefined && (await store.getRun(runId)) !== null) throw taken();
      const session = await openSession(store, {
        sessionId: caller.sessionId ?? o.sessionId,
        type: entity.kind,
        componentId: entity.id,
        userId,
        scopedUserId: caller.scopedUserId,
        newId: deps.newId,
        now: nowSeconds(),
      });
      // A client's run id may have been cancelled before the run starts, here or on a replica.
      const cancel = {
        cancelled:
          intents.has(runId) ||
          (o.runId !== undefined && (await store.cancelsAmong([runId])).length > 0),
      };
      const record: RunRecord = {
        run_id: runId,
        session_id: session.session_id,
        session_type: session.session_type,
        component_id: entity.id,
        parent_run_id: null,
        user_id: userId,
        status: 'RUNNING',
        input: o.message,
        output: {},
        checkpoint: null,
        created_at: session.updated_at,
        updated_at: session.updated_at,
      };
      // Inserted, never replaced: a request that took the id meanwhile keeps its run.
      if (!(await store.insertRun(record))) throw taken();
      const source = runEntity(
        entity,
        {
          runId,
          sessionId: session.session_id,
          userId,
          message: o.message,
          sessionState: o.sessionState ?? session.session_state,
          cancel,
          clientTools: o.clientTools,
          dependencies: o.dependencies,
        },
        deps,
      );
      const span = startRunSpan(o.traceHeaders ?? {}, {
        kind: entity.kind,
        entityId: entity.id,
        runId,
        sessionId: session.session_id,
      });
      return activeRun(
        record,
        spanned(source, span),
        cancel,
        entity,
        o.runId === undefined,
        session.session_state,
      );
    },

    /**
     * Continues a PAUSED run with one answer per pending tool call (a result, a confirmation or
     * user input, as the call waits for), under its own run id; answers for other calls are
     * ignored. A pending approval of the run is resolved by the answers.
     *
     * @throws {HttpError} 400 without a session id or with a pending call left unsettled; 404 for
     *   a run the caller may not see; 409 when the run is not paused, also when another continue
     *   of the same pause (in this process or another) won
     */
    async continue(ref: RunRef, results: readonly ToolAnswer[]): Promise<ActiveRun> {
      if (ref.sessionId === null)
        throw new HttpError(400, 'session_id is required for this action');
      const run = await visibleRun(ref);
      if (run?.status !== 'PAUSED') throw notContinuable(ref.runId, run);
      // A required approval is settled by an approver, not by whoever may run the entity.
      const approval = await store.approvals.pendingForRun(run.run_id);
      if (approval !== null && !mayApprove(ref.caller)) {
        throw new HttpError(403, 'This run requires admin approval before it can be continued');
      }
      const pending = heldCallsOf(run.checkpoint);
      // Answers for calls the run does not wait on (a client sending back every tool) are ignored.
      const byId = new Map(results.map((result) => [result.toolCallId, result]));
      for (const call of pending) {
        const reason = unsettledReason(call, byId.get(call.toolCallId));
        if (reason !== null) throw new HttpError(400, reason);
      }
      const answers = pending.map((call) => byId.get(call.toolCallId) as ToolAnswer);
      const session = await store.getSession(run.session_id);
      // The session and its runs were deleted since the run was read (a race no test times).
      /* c8 ignore next */
      if (session === null) throw notContinuable(ref.runId, null);
      // RUNNING at once, and only while still PAUSED (a compare-and-set): of two continues of the
      // same pause, in this process or another, one wins and the other gets the 409 a second
      // continue gets.
      const record: RunRecord = { ...run, status: 'RUNNING', updated_at: nowSeconds() };
      if (!(await store.replaceRun(record, 'PAUSED'))) {
        throw notContinuable(ref.runId, await store.getRun(run.run_id));
      }
      if (approval !== null) {
        await resolveByAnswers(store, approval, answers, ref.caller.userId, nowSeconds());
      }
      const cancel = { cancelled: intents.has(run.run_id) };
      const source = continueEntity(
        ref.entity,
        {
          runId: run.run_id,
          sessionId: run.session_id,
          userId: run.user_id,
          sessionState: session.session_state,
          cancel,
          checkpoint: run.checkpoint,
          results: answers,
        },
        deps,
      );
      return activeRun(record, source, cancel, ref.entity, false, session.session_state);
    },

    /**
     * Records the intent to cancel: a live run stops at its next delta, a paused one is stored as
     * CANCELLED, and a run not started yet starts cancelled. Unknown runs are not an error.
     *
     * @throws {HttpError} 400 when a confined caller gives no session id; 404 for a run such a
     *   caller does not own
     */
    async cancel(ref: RunRef): Promise<void> {
      if (ref.caller.scopedUserId !== null && ref.sessionId === null) {
        throw new HttpError(400, 'session_id is required for this action');
      }
      const run = await visibleRun(ref);
      if (run === null && ref.caller.scopedUserId !== null) {
        throw new HttpError(404, 'Run not found');
      }
      intents.set(ref.runId, true);
      const flag = live.get(ref.runId);
      if (flag !== undefined) flag.cancelled = true;
      // Live on another replica, or not started yet: that runtime finds the intent.
      else if (run === null || run.status === 'RUNNING') {
        await store.requestCancel(ref.runId, nowSeconds());
      }
      if (run?.status !== 'PAUSED') return;
      // Only while still PAUSED: a continue that won meanwhile stops at its next delta instead.
      const cancelled = await store.replaceRun(
        {
          ...run,
          status: 'CANCELLED',
          output: { ...run.output, status: 'CANCELLED' },
          checkpoint: null,
          updated_at: nowSeconds(),
        },
        'PAUSED',
      );
      // Nothing is left to approve: the run's pending approval is cancelled with it.
      if (cancelled) await store.approvals.setRunStatus(run.run_id, 'CANCELLED', nowSeconds());
    },

    /**
     * The stored run, as the caller may see it.
     *
     * @throws {HttpError} 404 `Run not found`
     */
    async getRun(ref: RunRef): Promise<RunRecord> {
      const run = await visibleRun(ref);
      if (run === null) throw new HttpError(404, 'Run not found');
      return run;
    },

    /** The tool calls a stored PAUSED run waits on (empty for any other status). */
    pendingCalls(run: RunRecord): readonly PendingCall[] {
      return run.status === 'PAUSED' ? pendingCallsOf(run.checkpoint) : [];
    },

    /** The newest PAUSED run of the session waiting on any of these tool call ids, if any. */
    async findPausedRun(
      sessionId: string,
      toolCallIds: readonly string[],
    ): Promise<RunRecord | null> {
      const wanted = new Set(toolCallIds);
      return (
        (await store.listRuns(sessionId))
          .reverse()
          .find(
            (run) =>
              run.status === 'PAUSED' &&
              pendingCallsOf(run.checkpoint).some((call) => wanted.has(call.toolCallId)),
          ) ?? null
      );
    },
  };
}

/** The runs of the runtime. */
export type RunService = ReturnType<typeof createRunService>;

/** The 404 or 409 that refuses to continue `run` (`null`: not found). */
function notContinuable(runId: string, run: RunRecord | null): HttpError {
  if (run === null) return new HttpError(404, `No runs found for run ID ${runId}`);
  if (run.status === 'CANCELLED') {
    return new HttpError(409, `Cannot continue run ${run.run_id}: run is cancelled`);
  }
  return new HttpError(
    409,
    `Cannot continue run ${run.run_id}: run is ${run.status.toLowerCase()}, not paused`,
  );
}

/** Finds the session to run in (confined to the scoped caller), or creates it. */
async function openSession(
  store: RuntimeStore,
  o: {
    sessionId: string | null;
    type: SessionType;
    componentId: string;
    userId: string | null;
    scopedUserId: string | null;
    newId: () => string;
    now: number;
  },
): Promise<SessionRecord> {
  /** The stored session, if the caller may run in it. */
  const own = (existing: SessionRecord): SessionRecord => {
    // Another user's session, or another component's, is not the caller's to write into.
    const foreign =
      (o.scopedUserId !== null && existing.user_id !== o.scopedUserId) ||
      existing.session_type !== o.type ||
      existing.component_id !== o.componentId;
    if (foreign) throw new HttpError(404, 'Session not found');
    return existing;
  };
  if (o.sessionId !== null) {
    const existing = await store.getSession(o.sessionId);
    if (existing !== null) return own(existing);
  }
  const session: SessionRecord = {
    session_id: o.sessionId ?? o.newId(),
    session_type: o.type,
    component_id: o.componentId,
    user_id: o.userId,
    session_name: null,
    session_state: {},
    metadata: null,
    session_summary: null,
    created_at: o.now,
    updated_at: o.now,
  };
  // Inserted, never replaced: a session another request created meanwhile is run in as found.
  if (await store.insertSession(session)) return session;
  const found = await store.getSession(session.session_id);
  // Created and deleted again by other requests between these two statements.
  /* c8 ignore next */
  if (found === null) throw new HttpError(404, 'Session not found');
  return own(found);
}
