/**
 * Metrics routes: daily aggregates recomputed from runs made through the real
 * run routes on two days (the clock is moved), read back between dates; failures are 500.
 */
import t, { type Test } from 'tap';
import { contextHeader, form, FORM, runtimeApp, type TestRuntime } from '../../fixtures/runtime.js';

type Json = Record<string, unknown>;
const DAY_MS = 24 * 60 * 60 * 1000;

async function run(
  t: Test,
  rt: TestRuntime,
  path: string,
  fields: Record<string, string>,
  user: string | null,
): Promise<Json> {
  const res = await rt.app.inject({
    method: 'POST',
    url: path,
    headers: { ...FORM, ...(user === null ? {} : contextHeader({ user_id: user })) },
    payload: form({ stream: 'false', ...fields }),
  });
  t.equal(res.statusCode, 200, path);
  return res.json() as Json;
}

const tokens = (...outputs: Json[]) =>
  outputs.reduce(
    (sum: number, o) => sum + (((o.metrics as Json | undefined)?.input_tokens as number) ?? 0),
    0,
  );

t.test(
  'POST /metrics/refresh aggregates runs and sessions per day; GET /metrics reads them',
  async (t) => {
    const rt = runtimeApp(t);
    // Day 1 (2030-01-01): alice runs a1 twice in one session, bob runs team t1, an anonymous a2.
    const first = await run(t, rt, '/agents/a1/runs', { message: 'one two' }, 'alice');
    const second = await run(
      t,
      rt,
      '/agents/a1/runs',
      { message: 'three', session_id: first.session_id as string },
      'alice',
    );
    const team = await run(t, rt, '/teams/t1/runs', { message: 'hi' }, 'bob');
    const anon = await run(t, rt, '/agents/a2/runs', { message: 'x' }, null);
    // Day 2 (2030-01-02): alice runs workflow w2.
    rt.clock.advance(DAY_MS);
    await run(t, rt, '/workflows/w2/runs', { message: 'go' }, 'alice');

    const empty = await rt.app.inject({ url: '/metrics' });
    t.same(empty.json(), { metrics: [], updated_at: null }, 'nothing before the first refresh');

    rt.clock.advance(1000);
    const refreshed = await rt.app.inject({ method: 'POST', url: '/metrics/refresh' });
    t.equal(refreshed.statusCode, 200);
    const days = refreshed.json() as Json[];
    t.equal(days.length, 2);
    const [day1, day2] = days as [Json, Json];
    t.match(day1, {
      date: '2030-01-01',
      agent_runs_count: 3,
      agent_sessions_count: 2,
      team_runs_count: 1,
      team_sessions_count: 1,
      workflow_runs_count: 0,
      workflow_sessions_count: 0,
      users_count: 2,
      created_at: '2030-01-02T00:00:01.000Z',
      updated_at: '2030-01-02T00:00:01.000Z',
    });
    t.match(day1.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const tm = day1.token_metrics as Json;
    t.same(Object.keys(tm), [
      'input_tokens',
      'output_tokens',
      'total_tokens',
      'audio_tokens',
      'input_audio_tokens',
      'output_audio_tokens',
      'cached_tokens',
      'cache_write_tokens',
      'reasoning_tokens',
    ]);
    t.equal(tm.input_tokens, tokens(first, second, team, anon));
    t.ok((tm.input_tokens as number) > 0);
    t.equal(tm.cached_tokens, 0);
    t.same(day1.model_metrics, [{ model_id: 'offline-echo', model_provider: 'offline', count: 4 }]);
    t.match(day2, {
      date: '2030-01-02',
      agent_runs_count: 0,
      workflow_runs_count: 1,
      workflow_sessions_count: 1,
      users_count: 1,
      model_metrics: [],
    });

    const read = (await rt.app.inject({ url: '/metrics' })).json() as {
      metrics: Json[];
      updated_at: string;
    };
    t.same(read, { metrics: days, updated_at: '2030-01-02T00:00:01.000Z' });
    const only2 = (
      await rt.app.inject({ url: '/metrics?starting_date=2030-01-02' })
    ).json() as Json;
    t.same(
      (only2.metrics as Json[]).map((d) => d.date),
      ['2030-01-02'],
    );
    const only1 = (
      await rt.app.inject({
        url: '/metrics?starting_date=2029-12-01&ending_date=2030-01-01&db_id=runtime-db',
      })
    ).json() as Json;
    t.same(
      (only1.metrics as Json[]).map((d) => d.date),
      ['2030-01-01'],
    );

    // A later refresh keeps created_at and id, moves updated_at, and drops a day left empty.
    rt.clock.advance(60_000);
    await rt.app.inject({
      method: 'DELETE',
      url: '/sessions',
      payload: {
        session_ids: [anon.session_id, team.session_id, first.session_id],
        session_types: ['agent', 'team', 'agent'],
      },
    });
    const [again] = (
      await rt.app.inject({ method: 'POST', url: '/metrics/refresh' })
    ).json() as Json[];
    t.match(again, { date: '2030-01-02', id: day2.id, created_at: day2.created_at });
    t.equal(again?.updated_at, '2030-01-02T00:01:01.000Z');
    t.same(
      ((await rt.app.inject({ url: '/metrics' })).json() as { metrics: Json[] }).metrics.map(
        (d) => d.date,
      ),
      ['2030-01-02'],
    );
  },
);

t.test('metrics failures are 500 Error getting metrics', async (t) => {
  const rt = runtimeApp(t);
  const cases: [string, string, string][] = [
    [
      'GET',
      '/metrics?starting_date=2030-1-1',
      "starting_date must be a date as YYYY-MM-DD, got '2030-1-1'",
    ],
    [
      'GET',
      '/metrics?ending_date=2030-02-30',
      "ending_date must be a date as YYYY-MM-DD, got '2030-02-30'",
    ],
    ['GET', '/metrics?db_id=other', "No database found with id 'other'"],
    ['POST', '/metrics/refresh?db_id=other', "No database found with id 'other'"],
  ];
  for (const [method, url, message] of cases) {
    const res = await rt.app.inject({ method: method as 'GET', url });
    t.same(
      [res.statusCode, res.json()],
      [500, { detail: `Error getting metrics: ${message}` }],
      url,
    );
  }
  const none = await rt.app.inject({ method: 'POST', url: '/metrics/refresh' });
  t.same(none.json(), [], 'no data, no days');
});
