/**
 * The bench's processes: a bench/child.ts server started, measured over IPC and stopped; a
 * foreground program started, measured from /proc and stopped; pinning with taskset; the
 * failures each start reports.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import {
  affinityOf,
  clockTicks,
  freePort,
  onPath,
  pinnedArgv,
  procCpuMicros,
  setAffinity,
  startNodeChild,
  startProgram,
} from '../../bench/processes.js';
import { httpCall } from '../fixtures/child.js';

const TASKSET = onPath('taskset');

t.test('onPath: the first folder holding the program, or null', async (t) => {
  const dir = t.testdir({ a: {}, b: {} });
  writeFileSync(join(dir, 'b', 'tool'), '#!/bin/sh\n', { mode: 0o755 });
  const path = [join(dir, 'a'), join(dir, 'b')].join(':');
  t.equal(onPath('tool', path), join(dir, 'b', 'tool'));
  t.equal(onPath('other-tool', path), null);
  t.equal(
    onPath('node'),
    process.execPath.endsWith('/node') ? onPath('node') : null,
    'PATH by default',
  );
});

t.test('pinnedArgv: under taskset -c <cpu>, or unchanged', async (t) => {
  t.same(pinnedArgv(null, ['node', 'x.js']), ['node', 'x.js']);
  t.same(pinnedArgv({ taskset: '/usr/bin/taskset', cpu: 1 }, ['node', 'x.js']), [
    '/usr/bin/taskset',
    '-c',
    '1',
    'node',
    'x.js',
  ]);
});

t.test('a bench child: listens, reports its CPU over IPC, stops on close', async (t) => {
  const dir = t.testdir();
  const pin = TASKSET === null ? null : { taskset: TASKSET, cpu: 0 };
  const upstream = await startNodeChild('upstream', {
    args: ['upstream'],
    pin,
    flags: [],
    stdout: join(dir, 'upstream.stdout'),
  });
  if (TASKSET !== null) t.equal(affinityOf(TASKSET, upstream.pid), '0', 'pinned to CPU 0');
  await upstream.start();
  const answer = await httpCall(`http://127.0.0.1:${upstream.port}/agents/a1`);
  t.equal(answer.status, 200);
  t.same(JSON.parse(answer.body), { id: 'a1', name: 'Agent One', description: 'benchmark agent' });
  const sse = await httpCall(`http://127.0.0.1:${upstream.port}/agui`, {
    method: 'POST',
    body: '{}',
  });
  t.equal(sse.headers['content-type'], 'text/event-stream');
  t.equal(sse.body.match(/^data: /gm)?.length, 10, 'ten events');
  t.ok((await upstream.stop()) > 0, 'some CPU time used');
  await upstream.close();
  await upstream.close();
  t.pass('closing twice is harmless');
});

t.test('bench children that cannot start: the role and its exit code', async (t) => {
  const dir = t.testdir({ 'bad.yaml': 'listen: { port: "no" }\n' });
  for (const [name, args] of [
    ['an unknown role', ['nope']],
    ['a gateway whose config does not load', ['gateway', join(dir, 'bad.yaml')]],
  ] as const) {
    await t.rejects(
      startNodeChild('x', { args, pin: null, flags: [], stdout: join(dir, 'x.stdout') }),
      { message: 'bench child x exited 1' },
      name,
    );
  }
});

t.test('a foreground program: waits for its port, CPU from /proc/<pid>/stat', async (t) => {
  const port = await freePort();
  const program = [
    process.execPath,
    '-e',
    `setTimeout(() => { require('node:http').createServer((q, s) => s.end('up')).listen(${port}, '127.0.0.1'); }, 200);`,
  ];
  const server = await startProgram('server', program, port, null);
  t.equal(server.port, port);
  await server.start();
  t.equal((await httpCall(`http://127.0.0.1:${port}/`)).body, 'up');
  const ticks = clockTicks();
  t.ok(ticks > 0, 'getconf CLK_TCK');
  t.ok(procCpuMicros(server.pid, ticks) > 0, 'the program has used some CPU since it started');
  t.ok((await server.stop()) >= 0);
  await server.close();
});

t.test('a foreground program that cannot start: its error and stderr', async (t) => {
  const port = await freePort();
  await t.rejects(startProgram('gone', ['/nonexistent/program'], port, null), {
    message: 'gone: spawn /nonexistent/program ENOENT',
  });
  await t.rejects(
    startProgram(
      'quits',
      [process.execPath, '-e', 'console.error("bad config"); process.exit(3)'],
      port,
      null,
    ),
    { message: 'quits: exited before it listened bad config' },
  );
});

t.test(
  'setAffinity: every thread of a process, and back',
  { skip: TASKSET === null && 'taskset not installed' },
  async (t) => {
    const before = affinityOf(TASKSET as string, process.pid);
    setAffinity(TASKSET as string, process.pid, '0');
    t.equal(affinityOf(TASKSET as string, process.pid), '0');
    setAffinity(TASKSET as string, process.pid, before);
    t.equal(affinityOf(TASKSET as string, process.pid), before);
  },
);
