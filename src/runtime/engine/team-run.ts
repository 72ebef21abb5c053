/**
 * Runs a team offline: the leader delegates the message to each member in
 * order through `delegate_task_to_member`, streams the members' events nested, then answers with
 * their answers joined. Emits Agno's `Team*` events and builds the TeamRunOutput.
 */
import type { AgentDefinition, TeamDefinition } from '../definitions.js';
import type { ModelMessage, ModelToolCall } from '../model/model.js';
import { OFFLINE_MODEL_ID, OFFLINE_PROVIDER } from '../model/offline.js';
import type { ModelResolver } from '../model/resolve.js';
import { splitWords } from '../model/tokens.js';
import { runAgent, type AgentCheckpoint } from './agent-run.js';
import { createEvent, omitNulls, type RunEvent } from './events.js';
import { messageDict, type RecordedMessage } from './messages.js';
import { addTokens, metricsDict, NO_TOKENS, subtractTokens, type TokenCounts } from './metrics.js';
import type { PendingTools, RunOutcome } from './outcome.js';
import type { RunStatus, ToolAnswer } from './request.js';
import { createChildScope, scopeFields, type RunScope } from './scope.js';
import { epochSeconds } from './time.js';
import { finishToolExecution, startToolExecution, type ToolExecution } from './tool-execution.js';

/** The leader's tool for handing a member the task (Agno's name). */
export const DELEGATE_TOOL = 'delegate_task_to_member';

/** Between member answers in the team's content. */
const ANSWER_SEPARATOR = '\n\n';

/** What a paused team run keeps to be continued: its own state and its paused member's. */
export interface TeamCheckpoint {
  readonly kind: 'team';
  readonly runId: string;
  readonly message: string;
  readonly startMs: number;
  readonly tokens: TokenCounts;
  readonly events: readonly RunEvent[];
  readonly messages: readonly RecordedMessage[];
  /** Finished delegations (the paused one is rebuilt from `call`). */
  readonly tools: readonly ToolExecution[];
  readonly memberResponses: readonly Record<string, unknown>[];
  readonly answers: readonly string[];
  /** The paused member's position, delegation call and run. */
  readonly memberIndex: number;
  readonly memberRunId: string;
  readonly call: ModelToolCall;
  readonly callStartMs: number;
  readonly member: AgentCheckpoint;
}

/** Continuing a paused team run: its checkpoint and the results for its member's calls. */
export interface TeamResume {
  readonly checkpoint: TeamCheckpoint;
  readonly results: readonly ToolAnswer[];
}

/**
 * Runs `team` in `scope`; each member's model comes from `models`. Order: `TeamRunStarted`, per
 * member `TeamToolCallStarted`, the member's events, `TeamToolCallCompleted`; then
 * `TeamRunContent` deltas, `TeamRunContentCompleted`, `TeamRunCompleted`. A member's error,
 * pause or cancellation ends the team the same way (`TeamRunError`, `TeamRunPaused`,
 * `TeamRunCancelled` + `TeamRunCompleted`). With `resume`, `TeamRunContinued`, then the paused
 * member continues and the members after it run as above.
 */
export async function* runTeam(
  team: TeamDefinition,
  scope: RunScope,
  models: ModelResolver,
  resume: TeamResume | null = null,
): AsyncGenerator<RunEvent, RunOutcome, void> {
  const { deps } = scope;
  const now = (): number => deps.clock.now();
  const saved = resume?.checkpoint ?? null;
  const startMs = saved?.startMs ?? now();
  const common = { team_id: team.id, team_name: team.name, ...scopeFields(scope) };
  const events: RunEvent[] = [...(saved?.events ?? [])];
  const messages: RecordedMessage[] = [...(saved?.messages ?? [])];
  const tools: ToolExecution[] = [...(saved?.tools ?? [])];
  const memberResponses: Record<string, unknown>[] = [...(saved?.memberResponses ?? [])];
  const answers: string[] = [...(saved?.answers ?? [])];
  let tokens = saved?.tokens ?? NO_TOKENS;
  let content = '';

  const emit = (name: string, fields: Record<string, unknown> = {}): RunEvent => {
    const event = createEvent(name, { created_at: epochSeconds(now()) }, common, fields);
    events.push(event);
    return event;
  };
  const record = (message: ModelMessage): void => {
    messages.push({ id: deps.newId(), createdAt: epochSeconds(now()), message });
  };
  const completion = (): Record<string, unknown> => ({
    content,
    content_type: 'str',
    metrics: metricsDict(tokens, { durationMs: now() - startMs, timeToFirstTokenMs: null }, null),
    session_state: structuredClone(scope.state),
  });
  const finish = (
    status: RunStatus,
    text: string,
    pending: PendingTools | null,
    checkpoint: TeamCheckpoint | null = null,
  ): RunOutcome => {
    const eventsSoFar = [...events];
    const output = omitNulls({
      run_id: scope.runId,
      team_id: team.id,
      team_name: team.name,
      session_id: scope.sessionId,
      parent_run_id: scope.parentRunId,
      workflow_id: scope.workflow?.workflow_id,
      user_id: scope.userId,
      input: { input_content: scope.message },
      content: text,
      content_type: 'str',
      model: OFFLINE_MODEL_ID,
      model_provider: OFFLINE_PROVIDER,
      messages: messages.map(messageDict),
      metrics: completion()['metrics'],
      tools: tools.length === 0 ? null : [...tools],
      member_responses: [...memberResponses],
      session_state: structuredClone(scope.state),
      created_at: epochSeconds(startMs),
      events: eventsSoFar,
      status,
      requirements: pending?.requirements,
    });
    return {
      status,
      output,
      sessionState: scope.state,
      text,
      tokens,
      events: eventsSoFar,
      pending,
      checkpoint: checkpoint === null ? null : { ...checkpoint, events: eventsSoFar },
    };
  };
  function* cancelled(): Generator<RunEvent, RunOutcome, void> {
    yield emit('TeamRunCancelled', { reason: `Run ${scope.runId} was cancelled` });
    yield emit('TeamRunCompleted', completion());
    return finish('CANCELLED', content, null);
  }

  if (saved === null) {
    yield emit('TeamRunStarted', { model: OFFLINE_MODEL_ID, model_provider: OFFLINE_PROVIDER });
    if (team.description !== null) record({ role: 'system', content: team.description });
    record({ role: 'user', content: scope.message });
  } else yield emit('TeamRunContinued');

  for (let index = saved?.memberIndex ?? 0; index < team.members.length; index++) {
    const member = team.members[index] as AgentDefinition;
    // The paused member continues under its own run and delegation call; the rest start afresh.
    const resumed = saved !== null && index === saved.memberIndex;
    if (scope.cancel.cancelled) return yield* cancelled();
    const memberRunId = resumed ? saved.memberRunId : deps.newId();
    const call: ModelToolCall = resumed
      ? saved.call
      : {
          id: deps.newId(),
          name: DELEGATE_TOOL,
          args: { member_id: member.id, task: scope.message },
        };
    const callStartMs = resumed ? saved.callStartMs : now();
    const started = startToolExecution({
      ...call,
      createdAt: epochSeconds(callStartMs),
      childRunId: memberRunId,
    });
    if (!resumed) {
      record({ role: 'assistant', content: null, toolCalls: [call], reasoning: null });
      yield emit('TeamToolCallStarted', { tool: started });
    }
    const memberScope = createChildScope(scope, {
      runId: memberRunId,
      message: scope.message,
      parentRunId: scope.runId,
      workflow: scope.workflow,
    });
    const memberResume = resumed ? { checkpoint: saved.member, results: resume!.results } : null;
    const outcome = yield* runAgent(member, memberScope, models(member.model), memberResume);
    if (resumed) {
      // The member's events before its pause are in `events` already.
      events.push(...outcome.events.slice(saved.member.events.length));
    } else events.push(...outcome.events);
    tokens = addTokens(
      tokens,
      resumed ? subtractTokens(outcome.tokens, saved.member.tokens) : outcome.tokens,
    );
    if (outcome.status === 'PAUSED') {
      const checkpoint: TeamCheckpoint = {
        kind: 'team',
        runId: scope.runId,
        message: scope.message,
        startMs,
        tokens,
        events: [],
        messages: [...messages],
        tools: [...tools],
        memberResponses: [...memberResponses],
        answers: [...answers],
        memberIndex: index,
        memberRunId,
        call,
        callStartMs,
        member: outcome.checkpoint as AgentCheckpoint,
      };
      memberResponses.push(outcome.output);
      tools.push(started);
      const pending = memberPending(outcome, member.id, member.name, memberRunId);
      yield emit('TeamRunPaused', { ...pending, content: '' });
      return finish('PAUSED', '', pending, checkpoint);
    }
    memberResponses.push(outcome.output);
    if (outcome.status === 'CANCELLED') {
      tools.push(started);
      return yield* cancelled();
    }
    const error = outcome.status === 'ERROR';
    const tool = finishToolExecution(started, {
      result: outcome.text,
      error,
      startMs: callStartMs,
      endMs: now(),
    });
    tools.push(tool);
    record({
      role: 'tool',
      content: outcome.text,
      toolCallId: call.id,
      toolName: call.name,
      toolArgs: call.args,
      toolCallError: error,
    });
    if (error) {
      yield emit('TeamRunError', { content: outcome.text });
      return finish('ERROR', outcome.text, null);
    }
    yield emit('TeamToolCallCompleted', { tool, content: outcome.text });
    answers.push(outcome.text);
  }

  const answer = answers.join(ANSWER_SEPARATOR);
  for (const delta of splitWords(answer)) {
    if (scope.cancel.cancelled) return yield* cancelled();
    content += delta;
    yield emit('TeamRunContent', { content: delta, content_type: 'str' });
  }
  record({ role: 'assistant', content: answer, toolCalls: [], reasoning: null });
  yield emit('TeamRunContentCompleted');
  yield emit('TeamRunCompleted', completion());
  return finish('COMPLETED', answer, null);
}

/** A paused member's tool calls, its requirements marked with the member they belong to. */
function memberPending(
  outcome: RunOutcome,
  agentId: string,
  agentName: string,
  runId: string,
): PendingTools {
  const pending = outcome.pending as PendingTools;
  return {
    tools: pending.tools,
    requirements: pending.requirements.map((requirement) => ({
      ...requirement,
      member_agent_id: agentId,
      member_agent_name: agentName,
      member_run_id: runId,
    })),
  };
}
