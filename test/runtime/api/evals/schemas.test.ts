/**
 * The eval-run bodies: what a `POST /eval-runs` body plans per eval type (400 for the field the
 * type needs, as Agno words it) and the `eval_input` recorded with the run.
 */
import t from 'tap';
import {
  createEvalBody,
  evalInputOf,
  evalPlanOf,
} from '../../../../src/runtime/api/evals/schemas.js';

const body = (fields: Record<string, unknown>) =>
  createEvalBody.parse({ agent_id: 'a1', input: 'q', ...fields });

/** What `fn` throws. */
function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

/** The scoring of an agent-as-judge plan with `fields`. */
function scoringOf(fields: Record<string, unknown>): unknown {
  const plan = evalPlanOf(body({ eval_type: 'agent_as_judge', criteria: 'k', ...fields }));
  return plan.evalType === 'agent_as_judge' ? plan.scoring : null;
}

t.test('defaults', async (t) => {
  t.match(body({ eval_type: 'performance' }), {
    num_iterations: 1,
    scoring_strategy: 'binary',
    threshold: 7,
    warmup_runs: 0,
    allow_additional_tool_calls: false,
  });
  t.notOk('extra' in body({ eval_type: 'performance', extra: 1 }), 'unknown fields dropped');
});

t.test('plans, one per eval type', async (t) => {
  t.same(evalPlanOf(body({ eval_type: 'accuracy', expected_output: '4', num_iterations: 2 })), {
    evalType: 'accuracy',
    input: 'q',
    iterations: 2,
    expectedOutput: '4',
  });
  t.same(evalPlanOf(body({ eval_type: 'agent_as_judge', criteria: 'kind' })), {
    evalType: 'agent_as_judge',
    input: 'q',
    iterations: 1,
    criteria: 'kind',
    scoring: { strategy: 'binary', threshold: 7 },
  });
  t.same(scoringOf({ scoring_strategy: 'numeric', threshold: 3 }), {
    strategy: 'numeric',
    threshold: 3,
  });
  t.same(
    scoringOf({ scoring_strategy: null, threshold: null }),
    { strategy: 'binary', threshold: 7 },
    'explicit nulls take the defaults',
  );
  t.same(evalPlanOf(body({ eval_type: 'performance', num_iterations: 3, warmup_runs: 2 })), {
    evalType: 'performance',
    input: 'q',
    iterations: 3,
    warmups: 2,
  });
  t.same(evalPlanOf(body({ eval_type: 'reliability', expected_tool_calls: ['add'] })), {
    evalType: 'reliability',
    input: 'q',
    expectation: { toolCalls: ['add'], allowAdditional: false, arguments: {} },
  });
  t.same(
    evalPlanOf(
      body({
        eval_type: 'reliability',
        expected_tool_calls: ['add'],
        allow_additional_tool_calls: true,
        expected_tool_call_arguments: { add: { a: 1 } },
      }),
    ),
    {
      evalType: 'reliability',
      input: 'q',
      expectation: { toolCalls: ['add'], allowAdditional: true, arguments: { add: { a: 1 } } },
    },
  );
});

t.test('the field each eval type needs: absent, null or empty is a 400', async (t) => {
  const rows: [name: string, fields: Record<string, unknown>, detail: string][] = [
    [
      'accuracy, absent',
      { eval_type: 'accuracy' },
      'expected_output is required for accuracy evaluation',
    ],
    [
      'accuracy, empty',
      { eval_type: 'accuracy', expected_output: '' },
      'expected_output is required for accuracy evaluation',
    ],
    [
      'judge, null',
      { eval_type: 'agent_as_judge', criteria: null },
      'criteria is required for agent-as-judge evaluation',
    ],
    [
      'reliability, absent',
      { eval_type: 'reliability' },
      'expected_tool_calls is required for reliability evaluations',
    ],
    [
      'reliability, null',
      { eval_type: 'reliability', expected_tool_calls: null },
      'expected_tool_calls is required for reliability evaluations',
    ],
    [
      'reliability, empty',
      { eval_type: 'reliability', expected_tool_calls: [] },
      'expected_tool_calls is required for reliability evaluations',
    ],
  ];
  for (const [name, fields, detail] of rows) {
    t.throws(() => evalPlanOf(body(fields)), { name: 'Error', message: detail }, name);
    t.match(
      caught(() => evalPlanOf(body(fields))),
      { status: 400, detail },
      name,
    );
  }
});

t.test('eval_input: the fields the type reads, nulls left out', async (t) => {
  t.same(
    evalInputOf(
      body({
        eval_type: 'accuracy',
        expected_output: '4',
        additional_context: null,
        criteria: 'x',
      }),
    ),
    { input: 'q', expected_output: '4', num_iterations: 1 },
  );
  t.same(
    evalInputOf(body({ eval_type: 'agent_as_judge', criteria: 'k', additional_guidelines: 'g' })),
    {
      input: 'q',
      criteria: 'k',
      scoring_strategy: 'binary',
      threshold: 7,
      additional_guidelines: 'g',
      num_iterations: 1,
    },
  );
  t.same(evalInputOf(body({ eval_type: 'performance', warmup_runs: 1 })), {
    input: 'q',
    num_iterations: 1,
    warmup_runs: 1,
  });
  t.same(evalInputOf(body({ eval_type: 'reliability', expected_tool_calls: ['add'] })), {
    input: 'q',
    expected_tool_calls: ['add'],
    allow_additional_tool_calls: false,
  });
});
