/**
 * Background runs: `background=true, stream=false` answers 202 with where
 * to poll, the run goes on server-side and is stored; GET …/runs/{run_id} shows it RUNNING, then
 * COMPLETED. background with stream is refused (400). Closing the app stops and stores a run
 * still going.
 */
import t from 'tap';
import { deferred, FORM, form, runtimeApp } from '../../fixtures/runtime.js';

t.test('background=true, stream=false: 202, then the stored run progresses', async (t) => {
  const sleeping = deferred();
  const wake = deferred();
  const { app, store } = runtimeApp(t, {
    sleep: async () => {
      sleeping.resolve();
      await wake.promise;
    },
  });
  const res = await app.inject({
    method: 'POST',
    url: '/agents/a1/runs',
    headers: FORM,
    payload: form({ message: '/slow 2 5', stream: 'false', background: 'true' }),
  });
  t.equal(res.statusCode, 202);
  t.same(res.json(), { run_id: 'id-1', session_id: 'id-2', status: 'RUNNING' });
  await sleeping.promise;
  const running = await app.inject({ url: '/agents/a1/runs/id-1?session_id=id-2' });
  t.match(running.json(), { run_id: 'id-1', status: 'RUNNING' });
  wake.resolve();
  // Wait for the stored run to finish (the drain writes it once the engine is done).
  while ((await store.getRun('id-1'))?.status === 'RUNNING')
    await new Promise((r) => setImmediate(r));
  const done = await app.inject({ url: '/agents/a1/runs/id-1?session_id=id-2' });
  t.match(done.json(), { run_id: 'id-1', status: 'COMPLETED', content: '1 2' });
});

t.test('background with stream is refused', async (t) => {
  const { app } = runtimeApp(t);
  const res = await app.inject({
    method: 'POST',
    url: '/agents/a1/runs',
    headers: FORM,
    payload: form({ message: 'hi', background: 'true' }),
  });
  t.equal(res.statusCode, 400);
  t.match(res.json(), {
    detail: /^Background runs are not streamed: send background=true with stream=false/,
  });
});

t.test('closing the app stops a background run and stores it', async (t) => {
  const sleeping = deferred();
  const { app, store } = runtimeApp(t, {
    sleep: async () => {
      sleeping.resolve();
      await new Promise((r) => setImmediate(r));
    },
  });
  const res = await app.inject({
    method: 'POST',
    url: '/agents/a1/runs',
    headers: FORM,
    payload: form({ message: '/slow 50 5', stream: 'false', background: 'true' }),
  });
  t.equal(res.statusCode, 202);
  await sleeping.promise;
  await app.close();
  t.equal((await store.getRun('id-1'))?.status, 'CANCELLED');
});
