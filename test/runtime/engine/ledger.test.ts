/**
 * The run ledger: events stamped with the run's fields, messages with ids and times, tokens, a
 * restored ledger, a child's events and tokens taken in after its checkpoint, and the one
 * RunOutcome assembly (with the agent/team output layout, key order included).
 */
import t from 'tap';
import {
  RunLedger,
  type CheckpointHead,
  type RunOutcome,
} from '../../../src/runtime/engine/ledger.js';
import { NO_TOKENS, type TokenCounts } from '../../../src/runtime/engine/metrics.js';
import { createChildScope } from '../../../src/runtime/engine/scope.js';
import { AGENT_COMMON, NOW_MS, NOW_S, makeScope, testDeps } from './fixtures/harness.js';

const IDENTITY = { agent_id: 'echoer', agent_name: 'Echoer' };
const TOKENS: TokenCounts = {
  input_tokens: 2,
  output_tokens: 3,
  total_tokens: 5,
  reasoning_tokens: 1,
};
const CALL = { id: 'call-1', name: 'add', args: { a: 1 } };

/** A fresh ledger on a clock that advances `tickMs` at each read. */
function fresh(tickMs = 0): RunLedger {
  return new RunLedger(makeScope('hi', testDeps({ tickMs })), IDENTITY, null);
}

t.test('a fresh ledger starts at the clock’s time with nothing recorded', async (t) => {
  const ledger = fresh();
  t.equal(ledger.startMs, NOW_MS);
  t.same(ledger.events, []);
  t.same(ledger.messages, []);
  t.same(ledger.tokens, NO_TOKENS);
});

t.test('emit stamps the time, the entity and the scope’s fields and logs the event', async (t) => {
  const ledger = fresh();
  const stamp = AGENT_COMMON;
  t.same(ledger.emit('RunStarted', { model: 'm', dropped: null }), {
    event: 'RunStarted',
    ...stamp,
    model: 'm',
  });
  t.same(ledger.emit('RunContinued'), { event: 'RunContinued', ...stamp });
  t.same(ledger.emitCancelled('RunCancelled'), {
    event: 'RunCancelled',
    ...stamp,
    reason: 'Run run-1 was cancelled',
  });
  t.same(
    ledger.events.map((e) => e.event),
    ['RunStarted', 'RunContinued', 'RunCancelled'],
  );
});

t.test('an event of a nested run carries its nesting', async (t) => {
  const scope = createChildScope(makeScope('hi'), {
    runId: 'child',
    message: 'hi',
    parentRunId: 'run-1',
    workflow: null,
  });
  const ledger = new RunLedger(scope, { team_id: 'crew', team_name: 'Crew' }, null);
  t.match(ledger.emit('TeamRunStarted'), {
    team_id: 'crew',
    run_id: 'child',
    parent_run_id: 'run-1',
    nested_depth: 1,
  });
});

t.test('record gives each message a new id and the time', async (t) => {
  const ledger = fresh();
  ledger.record({ role: 'user', content: 'hi' });
  t.same(ledger.messages, [
    { id: 'id-1', createdAt: NOW_S, message: { role: 'user', content: 'hi' } },
  ]);
});

t.test('recordToolResult: a tool message, marked only when the user rejected it', async (t) => {
  const rows = [
    { name: 'a result', error: false, rejected: undefined, marked: false },
    { name: 'an error', error: true, rejected: false, marked: false },
    { name: 'a rejection', error: true, rejected: true, marked: true },
  ];
  for (const row of rows) {
    const ledger = fresh();
    ledger.recordToolResult(CALL, 'content', row.error, row.rejected);
    const message = ledger.messages[0]!.message;
    t.same(
      message,
      {
        role: 'tool',
        content: 'content',
        toolCallId: 'call-1',
        toolName: 'add',
        toolArgs: { a: 1 },
        toolCallError: row.error,
        ...(row.marked ? { rejected: true } : {}),
      },
      row.name,
    );
    t.equal('rejected' in message, row.marked, `${row.name}: the rejected key`);
  }
});

t.test('metrics: tokens, duration since the start, first token and model when given', async (t) => {
  const ledger = fresh(500); // start at NOW_MS; each later read is 500 ms on
  ledger.addTokens(TOKENS);
  ledger.addTokens(TOKENS);
  t.same(
    ledger.metrics(),
    { input_tokens: 4, output_tokens: 6, total_tokens: 10, reasoning_tokens: 2, duration: 0.5 },
    'no first token, no model',
  );
  t.same(
    ledger.metrics(NOW_MS + 250, { id: 'm', provider: 'p' }),
    {
      input_tokens: 4,
      output_tokens: 6,
      total_tokens: 10,
      reasoning_tokens: 2,
      time_to_first_token: 0.25,
      duration: 1,
      details: {
        model: [
          {
            id: 'm',
            provider: 'p',
            input_tokens: 4,
            output_tokens: 6,
            total_tokens: 10,
            reasoning_tokens: 2,
          },
        ],
      },
    },
    'a first token and a model',
  );
  t.notOk('time_to_first_token' in ledger.metrics(), 'no first token: left out');
});

t.test('checkpointHead: the run, its input and tokens; events come with the outcome', async (t) => {
  const ledger = fresh();
  ledger.addTokens(TOKENS);
  ledger.emit('RunStarted');
  t.same(ledger.checkpointHead(), {
    runId: 'run-1',
    message: 'hi',
    startMs: NOW_MS,
    tokens: TOKENS,
    events: [],
  });
});

t.test('a restored ledger goes on from its checkpoint without reading the clock', async (t) => {
  let reads = 0;
  const deps = testDeps();
  const counting = { ...deps, clock: { now: () => (reads++, deps.clock.now()) } };
  const saved: CheckpointHead = {
    runId: 'run-1',
    message: 'hi',
    startMs: 42_000,
    tokens: TOKENS,
    events: [{ event: 'RunStarted' }],
    messages: [{ id: 'm1', createdAt: 1, message: { role: 'user', content: 'hi' } }],
  };
  const ledger = new RunLedger(makeScope('hi', counting), IDENTITY, saved);
  t.equal(reads, 0);
  t.equal(ledger.startMs, 42_000);
  t.same(ledger.tokens, TOKENS);
  t.same(ledger.events, saved.events);
  t.same(ledger.messages, saved.messages);
  ledger.emit('RunContinued');
  ledger.record({ role: 'user', content: 'more' });
  t.equal(saved.events.length, 1, 'the checkpoint’s events are copied, not extended');
  t.equal(saved.messages!.length, 1, 'the checkpoint’s messages are copied, not extended');

  const { messages: _, ...withoutMessages } = saved;
  t.same(new RunLedger(makeScope('hi'), IDENTITY, withoutMessages).messages, [], 'a workflow’s');
});

/** A child's outcome with `events` and `tokens`, as its own ledger would return it. */
function childOutcome(events: readonly string[], tokens: TokenCounts): RunOutcome {
  return {
    status: 'COMPLETED',
    output: {},
    sessionState: {},
    checkpoint: null,
    text: '',
    tokens,
    events: events.map((event) => ({ event })),
    pending: null,
  };
}

t.test('adopt takes in a child’s events and tokens, or those after its checkpoint', async (t) => {
  const ledger = fresh();
  ledger.adopt(childOutcome(['A', 'B'], TOKENS), null);
  t.same(
    ledger.events.map((e) => e.event),
    ['A', 'B'],
  );
  t.same(ledger.tokens, TOKENS);
  const before: CheckpointHead = { ...ledger.checkpointHead(), events: [{ event: 'A' }] };
  const doubled = { input_tokens: 4, output_tokens: 6, total_tokens: 10, reasoning_tokens: 2 };
  ledger.adopt(childOutcome(['A', 'C', 'D'], doubled), before);
  t.same(
    ledger.events.map((e) => e.event),
    ['A', 'B', 'C', 'D'],
    'only the events after the checkpoint',
  );
  t.same(
    ledger.tokens,
    doubled,
    'only the tokens added since the checkpoint (the child counts from its start)',
  );
});

t.test('toOutcome assembles the outcome: output without nulls, a copy of the events', async (t) => {
  const ledger = fresh();
  ledger.emit('RunStarted');
  const outcome = ledger.toOutcome('COMPLETED', 'done', {
    output: (events) => ({ b: 1, gone: null, a: undefined, events }),
  });
  t.same(outcome, {
    status: 'COMPLETED',
    output: { b: 1, events: outcome.events },
    sessionState: {},
    text: 'done',
    tokens: ledger.tokens,
    events: ledger.events,
    pending: null,
    checkpoint: null,
  });
  t.equal(outcome.sessionState, ledger.scope.state, 'the session state itself');
  t.not(outcome.events, ledger.events, 'the events as of now');
  t.equal(outcome.output['events'], outcome.events);
});

t.test('toOutcome of a paused run: what it waits on, its checkpoint with the events', async (t) => {
  const ledger = fresh();
  ledger.emit('RunPaused');
  const pending = { tools: [], requirements: [{ id: 'req' }] };
  const head = { kind: 'toy', ...ledger.checkpointHead(), extra: 1 };
  const outcome = ledger.toOutcome('PAUSED', '', { output: () => ({}), pending, checkpoint: head });
  t.equal(outcome.pending, pending);
  t.same(outcome.checkpoint, { ...head, events: outcome.events });
  t.same(Object.keys(outcome.checkpoint as object), Object.keys(head), 'the key order kept');
  t.same(head.events, [], 'the head given is not changed');
});

t.test('delegateOutcome: the agent and team output layout, in Agno’s key order', async (t) => {
  const link = {
    workflow_id: 'flow',
    workflow_run_id: 'wr',
    step_id: 's',
    step_name: 'draft',
    step_index: 0,
  };
  const model = { id: 'offline-echo', provider: 'offline' };
  const rows = [
    {
      name: 'an agent with reasoning and tools, paused',
      identity: IDENTITY,
      end: {
        reasoning: 'hmm',
        tools: [{ tool_call_id: 'c' }],
        pending: { tools: [], requirements: [{ id: 'r' }] },
      },
      keys: ['agent_id', 'agent_name', 'reasoning_content', 'tools', 'requirements'],
    },
    {
      name: 'an agent without reasoning or tools',
      identity: IDENTITY,
      end: { reasoning: '', tools: [], pending: null },
      keys: ['agent_id', 'agent_name'],
    },
    {
      name: 'a team with member responses',
      identity: { team_id: 'crew', team_name: 'Crew' },
      end: { tools: [], memberResponses: [{ run_id: 'm' }], pending: null },
      keys: ['team_id', 'team_name', 'member_responses'],
    },
  ];
  for (const row of rows) {
    const scope = { ...makeScope('hi'), state: { n: 1 }, parentRunId: 'p', workflow: link };
    const ledger = new RunLedger(scope, row.identity, null);
    ledger.record({ role: 'user', content: 'hi' });
    ledger.emit('Started');
    const outcome = ledger.delegateOutcome('COMPLETED', 'answer', {
      model,
      metrics: { duration: 1 },
      checkpoint: null,
      ...row.end,
    });
    const present = (key: string): boolean => row.keys.includes(key);
    const expected = [
      'run_id',
      ...Object.keys(row.identity),
      'session_id',
      'parent_run_id',
      'workflow_id',
      'user_id',
      'input',
      'content',
      'content_type',
      ...(present('reasoning_content') ? ['reasoning_content'] : []),
      'model',
      'model_provider',
      'messages',
      'metrics',
      ...(present('tools') ? ['tools'] : []),
      ...(present('member_responses') ? ['member_responses'] : []),
      'session_state',
      'created_at',
      'events',
      'status',
      ...(present('requirements') ? ['requirements'] : []),
    ];
    t.same(Object.keys(outcome.output), expected, `${row.name}: keys in order`);
    t.match(
      outcome.output,
      {
        run_id: 'run-1',
        ...row.identity,
        session_id: 'sess-1',
        parent_run_id: 'p',
        workflow_id: 'flow',
        user_id: 'alice',
        input: { input_content: 'hi' },
        content: 'answer',
        content_type: 'str',
        model: 'offline-echo',
        model_provider: 'offline',
        messages: [{ id: 'id-1', role: 'user', content: 'hi' }],
        metrics: { duration: 1 },
        session_state: { n: 1 },
        created_at: NOW_S,
        events: outcome.events,
        status: 'COMPLETED',
      },
      row.name,
    );
    t.not(outcome.output['session_state'], scope.state, `${row.name}: the state copied`);
  }
});
