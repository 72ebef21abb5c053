/**
 * The eval-run store on a real SQLite file and on PostgreSQL: round trips with JSON intact,
 * filters, sorts and pages, rename, and bulk delete in one transaction.
 */
import t from 'tap';
import type { EvalQuery, EvalRunRecord } from '../../../../src/runtime/api/evals/table.js';
import type { RuntimeStore } from '../../../../src/runtime/store/store.js';
import { call, runtimeApp } from '../../fixtures/runtime.js';
import { eachStore } from '../../fixtures/stores.js';

/** An eval run; `overrides` replace fields. */
function evalRun(overrides: Partial<EvalRunRecord> = {}): EvalRunRecord {
  return {
    run_id: 'e-1',
    eval_type: 'accuracy',
    name: null,
    agent_id: 'a1',
    team_id: null,
    workflow_id: null,
    model_id: 'offline-echo',
    model_provider: 'offline',
    evaluated_component_name: 'Agent One',
    eval_data: { results: [{ score: 10 }], avg_score: 10 },
    eval_input: { input: 'q', expected_output: '4' },
    created_at: 100,
    updated_at: 100,
    ...overrides,
  };
}

const query = (overrides: Partial<EvalQuery> = {}): EvalQuery => ({
  page: 1,
  limit: 20,
  sortBy: 'created_at',
  sortOrder: 'desc',
  ...overrides,
});

const ids = async (store: RuntimeStore, q: Partial<EvalQuery> = {}): Promise<string[]> =>
  (await store.evals.list(query(q))).rows.map((r) => r.run_id);

eachStore(t, 'round trip keeps JSON and nulls; put replaces by id', async (t, stores) => {
  const store = await stores.open();
  const record = evalRun({ eval_input: null, model_id: null, name: 'ünïcode' });
  await store.evals.put(record);
  t.same(await store.evals.get('e-1'), record);
  t.equal(await store.evals.get('nope'), null);
  await store.evals.put({ ...record, eval_data: { eval_status: 'PASSED' }, updated_at: 200 });
  t.same(await store.evals.get('e-1'), {
    ...record,
    eval_data: { eval_status: 'PASSED' },
    updated_at: 200,
  });
});

eachStore(t, 'filters: each alone and together', async (t, stores) => {
  const store = await stores.open();
  await store.evals.put(evalRun({ run_id: 'acc', created_at: 1 }));
  await store.evals.put(
    evalRun({ run_id: 'perf', eval_type: 'performance', model_id: 'm2', created_at: 2 }),
  );
  await store.evals.put(
    evalRun({
      run_id: 'team',
      agent_id: null,
      team_id: 't1',
      eval_type: 'reliability',
      created_at: 3,
    }),
  );
  await store.evals.put(
    evalRun({
      run_id: 'flow',
      agent_id: null,
      workflow_id: 'w1',
      eval_type: 'agent_as_judge',
      created_at: 4,
    }),
  );
  const rows: [name: string, q: Partial<EvalQuery>, expected: string[]][] = [
    ['none: all, newest first', {}, ['flow', 'team', 'perf', 'acc']],
    ['agent id', { agentId: 'a1' }, ['perf', 'acc']],
    ['team id', { teamId: 't1' }, ['team']],
    ['workflow id', { workflowId: 'w1' }, ['flow']],
    ['model id', { modelId: 'm2' }, ['perf']],
    ['kind agent', { componentType: 'agent' }, ['perf', 'acc']],
    ['kind team', { componentType: 'team' }, ['team']],
    ['kind workflow', { componentType: 'workflow' }, ['flow']],
    ['eval types', { evalTypes: ['accuracy', 'reliability'] }, ['team', 'acc']],
    ['no eval types listed: nothing', { evalTypes: [] }, []],
    ['together', { agentId: 'a1', evalTypes: ['performance'], modelId: 'm2' }, ['perf']],
    ['a filter that matches nothing', { agentId: 'a9' }, []],
  ];
  for (const [name, q, expected] of rows) t.same(await ids(store, q), expected, name);
});

eachStore(t, 'sorts, with run_id breaking ties; pages with a matching total', async (t, stores) => {
  const store = await stores.open();
  await store.evals.put(
    evalRun({
      run_id: 'b',
      name: 'zeta',
      eval_type: 'reliability',
      created_at: 5,
      updated_at: 9,
    }),
  );
  await store.evals.put(
    evalRun({ run_id: 'a', name: 'alpha', eval_type: 'accuracy', created_at: 5, updated_at: 7 }),
  );
  await store.evals.put(
    evalRun({ run_id: 'c', name: 'mid', eval_type: 'performance', created_at: 6, updated_at: 8 }),
  );
  t.same(await ids(store, { sortOrder: 'asc' }), ['a', 'b', 'c'], 'created_at asc, ties by id');
  t.same(await ids(store), ['c', 'b', 'a'], 'created_at desc');
  t.same(await ids(store, { sortBy: 'updated_at', sortOrder: 'asc' }), ['a', 'c', 'b']);
  t.same(await ids(store, { sortBy: 'name', sortOrder: 'asc' }), ['a', 'c', 'b']);
  t.same(await ids(store, { sortBy: 'eval_type', sortOrder: 'desc' }), ['b', 'c', 'a']);

  t.same((await store.evals.list(query({ limit: 2, page: 1 }))).total, 3);
  t.same(await ids(store, { limit: 2, page: 2 }), ['a']);
  t.same(await ids(store, { limit: 2, page: 0 }), ['c', 'b'], 'page 0 is the first page');
  t.same(await ids(store, { limit: 2, page: 3 }), [], 'past the end');
  t.same(
    await ids(store, { limit: 1, page: Number.MAX_SAFE_INTEGER }),
    [],
    'an absurd page is past the end',
  );
  t.throws(() => store.evals.list(query({ sortBy: 'run_id' as 'name' })), {
    name: 'RangeError',
    message: 'unsupported sort: run_id desc',
  });
});

eachStore(t, 'rename stamps updated_at; unknown ids are null', async (t, stores) => {
  const store = await stores.open();
  await store.evals.put(evalRun());
  t.same(
    await store.evals.rename('e-1', 'Renamed', 500),
    evalRun({ name: 'Renamed', updated_at: 500 }),
  );
  t.equal(await store.evals.rename('nope', 'x', 500), null);
});

eachStore(
  t,
  'delete removes the named runs, skips unknown ids, counts what went',
  async (t, stores) => {
    const store = await stores.open();
    for (const id of ['x', 'y', 'z']) await store.evals.put(evalRun({ run_id: id }));
    t.equal(await store.evals.delete(['x', 'nope', 'z', 'x']), 2);
    t.same(await ids(store), ['y']);
    t.equal(await store.evals.delete([]), 0);
  },
);

eachStore(t, 'the table refuses an unknown eval type (CHECK)', async (t, stores, kind) => {
  const store = await stores.open();
  await t.rejects(store.evals.put(evalRun({ eval_type: 'vibes' as 'accuracy' })), {
    code: kind === 'sqlite' ? 'SQLITE_CONSTRAINT_CHECK' : '23514',
  });
});

eachStore(t, 'a bulk delete of 1,201 ids is one count', async (t, stores) => {
  const store = await stores.open();
  const many = Array.from({ length: 1201 }, (_, i) => `e${i}`);
  for (const id of many) await store.evals.put(evalRun({ run_id: id }));
  t.equal(await store.evals.delete([...many, 'nope']), 1201);
  t.same(await ids(store), []);
});

eachStore(t, 'a closed store: the eval routes answer 500, never a 200', async (t, stores) => {
  const rt = runtimeApp(t, { store: await stores.open() });
  await rt.store.close();
  const rows: [name: string, url: string][] = [
    ['GET /eval-runs', '/eval-runs'],
    ['GET /eval-runs/{id}', '/eval-runs/e-1'],
  ];
  for (const [name, url] of rows) {
    t.same(
      await call(rt, 'GET', url),
      { status: 500, body: { detail: 'Internal runtime error' } },
      name,
    );
  }
});
