/**
 * The daily metrics store on the query layer, on a real SQLite file and on PostgreSQL: refreshes by
 * this and another connection to the same database leave one row per day (an upsert on the day,
 * keeping its id and first creation), a day left without sessions or runs is dropped, and a closed
 * store answers the metrics routes with a 500, never a 200 with nothing.
 */
import t from 'tap';
import { call, runRecord, runtimeApp, sessionRecord } from '../../fixtures/runtime.js';
import { eachStore } from '../../fixtures/stores.js';

const DAY = 24 * 60 * 60;

eachStore(t, 'refreshes here and elsewhere at once leave one row per day', async (t, stores) => {
  const [here, elsewhere] = await stores.pair();
  await here.putSession(sessionRecord({ created_at: 0 }));
  await here.putRun(
    runRecord({ created_at: 0, output: { model: 'm', metrics: { input_tokens: 2 } } }),
  );
  await here.putSession(sessionRecord({ session_id: 's-2', created_at: DAY }));

  const first = await here.dailyMetrics.refresh(1000);
  t.same(
    first.map((day) => [day.date, day.created_at, day.updated_at]),
    [
      ['1970-01-01', 1000, 1000],
      ['1970-01-02', 1000, 1000],
    ],
  );
  await Promise.all([here.dailyMetrics.refresh(2000), here.dailyMetrics.refresh(3000)]);
  const again = await elsewhere.dailyMetrics.refresh(4000);
  t.same(
    again.map((day) => [day.id, day.date, day.created_at, day.updated_at]),
    first.map((day) => [day.id, day.date, 1000, 4000]),
    'the same ids and first creation; the last refresh',
  );
  t.same(
    await here.dailyMetrics.list(null, null),
    again,
    'what the other connection stored is read here',
  );
  t.match(again[0], {
    agent_runs_count: 1,
    agent_sessions_count: 1,
    token_metrics: { input_tokens: 2, output_tokens: 0 },
    model_metrics: [{ model_id: 'm', model_provider: null, count: 1 }],
  });

  await here.deleteSession('s-2');
  t.same(
    (await elsewhere.dailyMetrics.refresh(5000)).map((day) => day.date),
    ['1970-01-01'],
    'a day left without sessions or runs is dropped',
  );
  await here.deleteSession('s-1');
  t.same(await here.dailyMetrics.refresh(6000), [], 'no sessions, no days');
  t.same(await elsewhere.dailyMetrics.list(null, null), [], 'and none stored');
});

eachStore(t, 'list keeps to the dates given, inclusive', async (t, stores) => {
  const store = await stores.open();
  for (const day of [0, 1, 2]) {
    await store.putSession(sessionRecord({ session_id: `s-${day}`, created_at: day * DAY }));
  }
  await store.dailyMetrics.refresh(1);
  const dates = async (from: string | null, to: string | null) =>
    (await store.dailyMetrics.list(from, to)).map((day) => day.date);
  t.same(await dates('1970-01-02', null), ['1970-01-02', '1970-01-03']);
  t.same(await dates(null, '1970-01-02'), ['1970-01-01', '1970-01-02']);
  t.same(await dates('1970-01-02', '1970-01-02'), ['1970-01-02']);
});

eachStore(
  t,
  'a closed store: the metrics routes answer 500, never a 200',
  async (t, stores, kind) => {
    const rt = runtimeApp(t, { store: await stores.open() });
    // The stored components load with the first request; the store closes after it, so the
    // metrics routes' own failure is what answers.
    t.equal((await call(rt, 'GET', '/health')).status, 200);
    await rt.store.close();
    // The driver's own words for a closed database.
    const closed =
      kind === 'sqlite'
        ? 'The database connection is not open'
        : 'driver has already been destroyed';
    for (const [method, url] of [
      ['GET', '/metrics'],
      ['POST', '/metrics/refresh'],
    ] as const) {
      t.same(
        await call(rt, method, url),
        {
          status: 500,
          body: { detail: `Error getting metrics: ${closed}` },
        },
        `${method} ${url}`,
      );
    }
  },
);
