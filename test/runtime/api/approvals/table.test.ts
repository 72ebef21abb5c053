/**
 * The approval store on the query layer, on a real SQLite file and on PostgreSQL: resolving is a compare-and-set
 * on the pending state (two stores on one file, two runtimes on one file, two continues of one
 * pause: exactly one wins, the loser is answered as a second attempt is), the list's filters and
 * order, the pending count, a cancelled run's approvals, and a closed store answering the
 * approval routes with a 500, never a 200.
 */
import t from 'tap';
import type { ApprovalRecord } from '../../../../src/runtime/api/approvals/table.js';
import type { RuntimeStore } from '../../../../src/runtime/store/store.js';
import {
  call,
  contextHeader,
  FORM,
  form,
  runtimeApp,
  type TestRuntime,
} from '../../fixtures/runtime.js';
import { eachStore } from '../../fixtures/stores.js';

const SETTINGS = {
  os_id: 'approval-races',
  db: ':memory:',
  agents: [
    {
      id: 'guarded',
      name: 'Guarded',
      tools: [{ name: 'add', description: 'Adds two numbers.', approval_type: 'required' }],
    },
  ],
};

const ADMIN = contextHeader({ user_id: 'root', is_admin: true });

const approval = (id: string, fields: Partial<ApprovalRecord> = {}): ApprovalRecord => ({
  id,
  run_id: 'run-1',
  session_id: 'ses-1',
  status: 'pending',
  source_type: 'agent',
  approval_type: 'required',
  pause_type: 'confirmation',
  tool_name: 'add',
  tool_args: { a: 1 },
  expires_at: null,
  agent_id: 'guarded',
  team_id: null,
  workflow_id: null,
  user_id: 'alice',
  schedule_id: null,
  schedule_run_id: null,
  source_name: 'Guarded',
  requirements: [{ kind: 'confirm' }],
  context: { tool_names: ['add'] },
  resolution_data: null,
  resolved_by: null,
  resolved_at: null,
  run_status: null,
  created_at: 100,
  updated_at: 100,
  ...fields,
});

eachStore(
  t,
  'a resolve is a compare-and-set on pending: one of two stores wins',
  async (t, stores) => {
    const [one, two] = await stores.pair();
    await one.approvals.insert(approval('a1'));
    const won = await Promise.all(
      (['approved', 'rejected'] as const).map((status, i) =>
        [one, two][i]!.approvals.resolve('a1', {
          status,
          resolvedBy: status,
          resolutionData: { by: status },
          at: 200,
        }),
      ),
    );
    t.same(won.filter(Boolean), [true], 'exactly one resolution');
    const winner = won[0] ? 'approved' : 'rejected';
    t.same(
      await two.approvals.get('a1'),
      approval('a1', {
        status: winner,
        resolved_by: winner,
        resolution_data: { by: winner },
        resolved_at: 200,
        updated_at: 200,
      }),
      "the winner's resolution, JSON and all",
    );
    t.equal(
      await one.approvals.resolve('nope', {
        status: 'approved',
        resolvedBy: null,
        resolutionData: null,
        at: 1,
      }),
      false,
      'an unknown id',
    );
  },
);

eachStore(t, 'list, count, pending and a run status mirrored', async (t, stores) => {
  const [store, other] = await stores.pair();
  await store.approvals.insert(approval('b', { created_at: 100 }));
  await store.approvals.insert(approval('a', { created_at: 100, user_id: 'bob' }));
  await store.approvals.insert(approval('c', { created_at: 300, run_id: 'run-2' }));
  await store.approvals.insert(
    approval('d', { created_at: 50, status: 'approved', approval_type: 'audit' }),
  );
  t.equal(await store.approvals.insert(approval('d')), false, 'a taken id');
  const rows: [
    name: string,
    filter: object,
    page: number,
    limit: number,
    ids: string[],
    total: number,
  ][] = [
    ['newest first, ties by ascending id', {}, 1, 10, ['c', 'a', 'b', 'd'], 4],
    ['a page', {}, 2, 2, ['b', 'd'], 4],
    ['by owner', { user_id: 'alice' }, 1, 10, ['c', 'b', 'd'], 3],
    ['by two filters', { user_id: 'alice', status: 'pending' }, 1, 10, ['c', 'b'], 2],
    ['by run and kind', { run_id: 'run-1', approval_type: 'audit' }, 1, 10, ['d'], 1],
    ['nothing matches', { agent_id: 'other' }, 1, 10, [], 0],
  ];
  for (const [name, filter, page, limit, ids, total] of rows) {
    const got = await other.approvals.list(filter, page, limit);
    t.same([got.rows.map((a) => a.id), got.total], [ids, total], name);
  }
  t.equal(await store.approvals.countPending(undefined), 3, 'pending of anyone');
  t.equal(await store.approvals.countPending('alice'), 2, "alice's pending");
  t.equal((await store.approvals.pendingForRun('run-1'))?.id, 'b', "the run's newest pending");
  t.equal(await store.approvals.pendingForRun('run-9'), null);

  await store.approvals.setRunStatus('run-1', 'PAUSED', 400);
  t.match(await store.approvals.get('b'), {
    status: 'pending',
    run_status: 'PAUSED',
    updated_at: 400,
  });
  await store.approvals.setRunStatus('run-1', 'CANCELLED', 500);
  const after = await Promise.all(['a', 'b', 'c', 'd'].map((id) => other.approvals.get(id)));
  t.same(
    after.map((a) => [a?.id, a?.status, a?.run_status]),
    [
      ['a', 'cancelled', 'CANCELLED'],
      ['b', 'cancelled', 'CANCELLED'],
      ['c', 'pending', null],
      ['d', 'approved', 'CANCELLED'],
    ],
    "a cancelled run's pending approvals are cancelled; others keep their status",
  );
  t.equal(await store.approvals.delete('a'), true);
  t.equal(await store.approvals.delete('a'), false);
});

/** Runs the guarded agent until it pauses on `add`; its output. */
async function paused(rt: TestRuntime): Promise<Record<string, unknown>> {
  const res = await rt.app.inject({
    method: 'POST',
    url: '/agents/guarded/runs',
    headers: { ...FORM, ...ADMIN },
    payload: form({ message: '/tool add {"a": 1, "b": 2}', stream: 'false' }),
  });
  const output = res.json() as Record<string, unknown>;
  t.equal(output['status'], 'PAUSED');
  return output;
}

eachStore(
  t,
  'two runtimes on one database resolve one approval at once: one 200, one 409',
  async (t, stores) => {
    const [one, two] = await stores.pair();
    const rts = [
      runtimeApp(t, { settings: SETTINGS, store: one }),
      runtimeApp(t, { settings: SETTINGS, store: two }),
    ];
    const output = await paused(rts[0]!);
    const id = (output['tools'] as Record<string, unknown>[])[0]?.['approval_id'] as string;
    const answers = await Promise.all(
      rts.map((rt) =>
        call(rt, 'POST', `/approvals/${id}/resolve`, {
          json: { status: 'approved' },
          headers: ADMIN,
        }),
      ),
    );
    t.same(answers.map((a) => a.status).sort(), [200, 409], 'exactly one resolution');
    t.same(
      answers.find((a) => a.status === 409)?.body,
      { detail: "Approval is already 'approved' and cannot be resolved" },
      'the loser is answered as a second resolve',
    );
    t.match((await call(rts[1]!, 'GET', `/approvals/${id}`)).body, {
      status: 'approved',
      resolved_by: 'root',
      run_status: 'COMPLETED',
    });
  },
);

eachStore(
  t,
  'two continues of one pause at once: one runs, the other is a 409',
  async (t, stores) => {
    const rt = runtimeApp(t, { settings: SETTINGS, store: await stores.open() });
    const output = await paused(rt);
    const tools = (output['tools'] as Record<string, unknown>[]).map((tool) => ({
      ...tool,
      confirmed: true,
    }));
    const continueOnce = () =>
      rt.app.inject({
        method: 'POST',
        url: `/agents/guarded/runs/${output['run_id'] as string}/continue`,
        headers: { ...FORM, ...ADMIN },
        payload: form({
          tools: JSON.stringify(tools),
          session_id: output['session_id'] as string,
          stream: 'false',
        }),
      });
    const answers = await Promise.all([continueOnce(), continueOnce()]);
    t.same(answers.map((a) => a.statusCode).sort(), [200, 409]);
    t.match(answers.find((a) => a.statusCode === 409)?.json(), {
      // Refused while the winner runs, or once it has completed: which depends on timing.
      detail: new RegExp(
        `^Cannot continue run ${output['run_id'] as string}: run is (running|completed), not paused$`,
      ),
    });
    t.equal(answers.find((a) => a.statusCode === 200)?.json().content, 'Tool add returned: 3');
  },
);

/**
 * `store` with a writer of another process slipped in right after the first read of `method`:
 * the read sees the state before that write, the route's own write comes after it.
 */
function racedAfterFirst<K extends 'get' | 'pendingForRun'>(
  store: RuntimeStore,
  method: K,
  write: () => Promise<unknown> | unknown,
): RuntimeStore {
  let raced = false;
  const read = store.approvals[method] as (id: string) => Promise<ApprovalRecord | null>;
  const racing = async (id: string): Promise<ApprovalRecord | null> => {
    const seen = await read(id);
    if (!raced) {
      raced = true;
      await write();
    }
    return seen;
  };
  return { ...store, approvals: { ...store.approvals, [method]: racing } };
}

eachStore(
  t,
  'resolved by another process between read and write: the 409 of a second resolve',
  async (t, stores) => {
    const [one, two] = await stores.pair();
    await one.approvals.insert(approval('a1', { run_id: 'gone' }));
    const rt = runtimeApp(t, {
      store: racedAfterFirst(one, 'get', () =>
        two.approvals.resolve('a1', {
          status: 'rejected',
          resolvedBy: 'other',
          resolutionData: null,
          at: 7,
        }),
      ),
    });
    t.same(
      await call(rt, 'POST', '/approvals/a1/resolve', {
        json: { status: 'approved' },
        headers: ADMIN,
      }),
      { status: 409, body: { detail: "Approval is already 'rejected' and cannot be resolved" } },
    );
    t.match(await one.approvals.get('a1'), { status: 'rejected', resolved_by: 'other' }, 'kept');
  },
);

eachStore(
  t,
  'continued or deleted by another request between read and write',
  async (t, stores) => {
    const rows: [
      name: string,
      write: (store: RuntimeStore, runId: string) => Promise<unknown>,
      status: number,
      detail: (runId: string) => string,
    ][] = [
      [
        'continued: the 409 of a second continue',
        async (store, runId) =>
          store.putRun({ ...(await store.getRun(runId))!, status: 'RUNNING' }),
        409,
        (runId) => `Cannot continue run ${runId}: run is running, not paused`,
      ],
      [
        'deleted with its session: the 404 of an unknown run',
        async (store, runId) => store.deleteSession((await store.getRun(runId))!.session_id),
        404,
        (runId) => `No runs found for run ID ${runId}`,
      ],
    ];
    for (const [name, write, status, detail] of rows) {
      const store = await stores.open();
      let runId = '';
      const rt = runtimeApp(t, {
        settings: SETTINGS,
        store: racedAfterFirst(store, 'pendingForRun', () => write(store, runId)),
      });
      const output = await paused(rt);
      runId = output['run_id'] as string;
      const tools = (output['tools'] as Record<string, unknown>[]).map((tool) => ({
        ...tool,
        confirmed: true,
      }));
      const res = await rt.app.inject({
        method: 'POST',
        url: `/agents/guarded/runs/${runId}/continue`,
        headers: { ...FORM, ...ADMIN },
        payload: form({
          tools: JSON.stringify(tools),
          session_id: output['session_id'] as string,
          stream: 'false',
        }),
      });
      t.same([res.statusCode, res.json()], [status, { detail: detail(runId) }], name);
    }
  },
);

eachStore(t, 'a closed store: the approval routes answer 500, never a 200', async (t, stores) => {
  const rt = runtimeApp(t, { store: await stores.open() });
  await rt.store.close();
  const rows: [name: string, url: string][] = [
    ['GET /approvals', '/approvals'],
    ['GET /approvals?status=pending', '/approvals?status=pending'],
    ['GET /approvals/count', '/approvals/count'],
    ['GET /approvals/{id}', '/approvals/a1'],
    ['GET /approvals/{id}/status', '/approvals/a1/status'],
  ];
  for (const [name, url] of rows) {
    t.same(
      await call(rt, 'GET', url),
      { status: 500, body: { detail: 'Internal runtime error' } },
      name,
    );
  }
});
