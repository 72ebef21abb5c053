/**
 * Runs a team offline: the leader delegates the message to each member in order through
 * `delegate_task_to_member` (the members are the composite runner's children), streams their
 * events nested, then answers with their answers joined. Emits Agno's `Team*` events and builds
 * the TeamRunOutput. Never does I/O.
 */
import type { AgentDefinition, TeamDefinition } from '../catalogue/definitions.js';
import type { ModelToolCall } from '../model/model.js';
import { OFFLINE_MODEL_ID, OFFLINE_PROVIDER } from '../model/offline.js';
import type { ModelResolver } from '../model/resolve.js';
import { splitWords } from '../model/tokens.js';
import { runAgent, type AgentCheckpoint } from './agent-run.js';
import { runChildren } from './composite-run.js';
import type { RunEvent } from './events.js';
import { RunLedger, type CheckpointHead, type Resume } from './ledger.js';
import type { PendingTools, RunOutcome } from './ledger.js';
import type { RecordedMessage } from './messages.js';
import type { RunStatus } from './request.js';
import { createChildScope, type RunScope } from './scope.js';
import { epochSeconds } from './time.js';
import { finishToolExecution, startToolExecution, type ToolExecution } from './tool-execution.js';

/** The leader's tool for handing a member the task (Agno's name). */
export const DELEGATE_TOOL = 'delegate_task_to_member';

/** Between member answers in the team's content. */
const ANSWER_SEPARATOR = '\n\n';

/** The model a team's leader reports. */
const LEADER_MODEL = { id: OFFLINE_MODEL_ID, provider: OFFLINE_PROVIDER };

/** What a paused team run keeps to be continued: its own state and its paused member's. */
export interface TeamCheckpoint extends CheckpointHead {
  readonly kind: 'team';
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
export type TeamResume = Resume<TeamCheckpoint>;

/** One delegation: the member, its run, and the leader's call handing it the task. */
interface Delegation {
  readonly index: number;
  readonly member: AgentDefinition;
  readonly runId: string;
  readonly call: ModelToolCall;
  readonly callStartMs: number;
  /** The call's execution: started, then finished once the member answers or fails. */
  tool: ToolExecution;
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
  const saved = resume?.checkpoint ?? null;
  const ledger = new RunLedger(scope, { team_id: team.id, team_name: team.name }, saved);
  const tools: ToolExecution[] = [...(saved?.tools ?? [])];
  const memberResponses: Record<string, unknown>[] = [...(saved?.memberResponses ?? [])];
  const answers: string[] = [...(saved?.answers ?? [])];
  let content = '';

  const end = (
    status: RunStatus,
    text: string,
    pending: PendingTools | null = null,
    checkpoint: CheckpointHead | null = null,
  ): Generator<RunEvent, RunOutcome, void> =>
    ledger.endDelegate('Team', status, text, pending, () => ({
      model: LEADER_MODEL,
      metrics: ledger.metrics(),
      tools,
      memberResponses,
      checkpoint,
    }));

  return yield* runChildren<Delegation, AgentCheckpoint>(
    {
      ledger,
      size: team.members.length,
      *begin(continued) {
        if (continued) {
          yield ledger.emit('TeamRunContinued');
          return;
        }
        const { id, provider } = LEADER_MODEL;
        yield ledger.emit('TeamRunStarted', { model: id, model_provider: provider });
        if (team.description !== null) ledger.record({ role: 'system', content: team.description });
        ledger.record({ role: 'user', content: scope.message });
      },
      // The paused member keeps its run and delegation call; the others get new ones.
      *open(index, continued) {
        const member = team.members[index] as AgentDefinition;
        const paused = continued ? saved : null;
        const runId = paused?.memberRunId ?? scope.deps.newId();
        const call: ModelToolCall = paused?.call ?? {
          id: scope.deps.newId(),
          name: DELEGATE_TOOL,
          args: { member_id: member.id, task: scope.message },
        };
        const callStartMs = paused?.callStartMs ?? ledger.now();
        const createdAt = epochSeconds(callStartMs);
        const tool = startToolExecution({ ...call, createdAt, childRunId: runId });
        if (paused === null) {
          ledger.record({ role: 'assistant', content: null, toolCalls: [call], reasoning: null });
          yield ledger.emit('TeamToolCallStarted', { tool });
        }
        return { index, member, runId, call, callStartMs, tool };
      },
      run({ member, runId }, memberResume) {
        const link = { runId, message: scope.message, parentRunId: scope.runId };
        const memberScope = createChildScope(scope, { ...link, workflow: scope.workflow });
        return runAgent(member, memberScope, models(member.model), memberResume);
      },
      checkpoint: (delegation, paused): TeamCheckpoint => ({
        kind: 'team',
        ...ledger.checkpointHead(),
        messages: [...ledger.messages],
        tools: [...tools],
        memberResponses: [...memberResponses],
        answers: [...answers],
        memberIndex: delegation.index,
        memberRunId: delegation.runId,
        call: delegation.call,
        callStartMs: delegation.callStartMs,
        member: paused.checkpoint as AgentCheckpoint,
      }),
      // A member that answered or failed finishes its call; the result becomes a tool message.
      keep(delegation, { status, output, text }) {
        memberResponses.push(output);
        const answered = status === 'COMPLETED' || status === 'ERROR';
        const error = status === 'ERROR';
        if (answered) {
          const end = { result: text, error, startMs: delegation.callStartMs, endMs: ledger.now() };
          delegation.tool = finishToolExecution(delegation.tool, end);
        }
        tools.push(delegation.tool);
        if (answered) ledger.recordToolResult(delegation.call, text, error);
      },
      paused: ({ member, runId }, paused, checkpoint) =>
        end('PAUSED', '', memberPending(paused, member, runId), checkpoint),
      failed: (_, { text }) => end('ERROR', text),
      *completed({ tool }, { text }) {
        yield ledger.emit('TeamToolCallCompleted', { tool, content: text });
        answers.push(text);
      },
      cancelled: () => end('CANCELLED', content),
      // The leader's answer: the members' answers joined, streamed word by word.
      *finish() {
        const answer = answers.join(ANSWER_SEPARATOR);
        for (const delta of splitWords(answer)) {
          if (scope.cancel.cancelled) return yield* end('CANCELLED', content);
          content += delta;
          yield ledger.emit('TeamRunContent', { content: delta, content_type: 'str' });
        }
        ledger.record({ role: 'assistant', content: answer, toolCalls: [], reasoning: null });
        return yield* end('COMPLETED', answer);
      },
    },
    resume && {
      at: resume.checkpoint.memberIndex,
      checkpoint: resume.checkpoint.member,
      results: resume.results,
    },
  );
}

/** A paused member's tool calls, its requirements marked with the member they belong to. */
function memberPending(outcome: RunOutcome, member: AgentDefinition, runId: string): PendingTools {
  const pending = outcome.pending as PendingTools;
  return {
    tools: pending.tools,
    requirements: pending.requirements.map((requirement) => ({
      ...requirement,
      member_agent_id: member.id,
      member_agent_name: member.name,
      member_run_id: runId,
    })),
  };
}
