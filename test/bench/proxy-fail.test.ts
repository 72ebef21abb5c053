/**
 * The proxy benchmark when HAProxy is asked for but cannot start: the run fails with its error,
 * after stopping what it started and giving this process its CPUs back.
 */
import t from 'tap';
import { affinityOf, onPath } from '../../bench/processes.js';
import { runProxyBench } from '../../bench/proxy.js';
import { TINY } from './sizes.js';

const TASKSET = onPath('taskset');

t.test('a HAProxy that cannot start fails the run', async (t) => {
  const affinity = TASKSET === null ? null : affinityOf(TASKSET, process.pid);
  await t.rejects(
    runProxyBench(() => {}, {
      sizes: TINY,
      haproxy: '/nonexistent/haproxy',
      taskset: TASKSET,
      profileDir: null,
      traceGcDir: null,
      baseline: null,
    }),
    // Unpinned, the spawn fails; pinned, taskset starts and then cannot run the program.
    {
      message:
        /^HAProxy: (spawn \/nonexistent\/haproxy ENOENT|exited before it listened .*\/nonexistent\/haproxy: No such file or directory)$/,
    },
  );
  if (TASKSET !== null) t.equal(affinityOf(TASKSET, process.pid), affinity, 'CPUs given back');
});
