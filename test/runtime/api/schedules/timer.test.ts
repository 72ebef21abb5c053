/** The interval timer: calls the tick until stopped. */
import t from 'tap';
import { createIntervalTimer } from '../../../../src/runtime/api/schedules/timer.js';

t.test('ticks until stopped', async (t) => {
  let stop!: () => void;
  // The timer never keeps the process alive on its own (unref), so this test does.
  const alive = setInterval(() => {}, 1000);
  await new Promise<void>((resolve) => {
    let ticks = 0;
    stop = createIntervalTimer(1).start(() => {
      if (++ticks === 2) resolve();
    });
  });
  stop();
  clearInterval(alive);
  t.pass('ticked twice, then stopped');
});

t.test('a stopped timer never ticks', async (t) => {
  const stop = createIntervalTimer(10_000).start(() => t.fail('not within this test'));
  stop();
  t.pass();
});
