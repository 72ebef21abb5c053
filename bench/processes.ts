/**
 * The processes of the proxy benchmark and how their CPU time is read: Node children (bench/
 * child.ts) report theirs over IPC (process.cpuUsage); any other server (HAProxy) is read from
 * /proc/<pid>/stat (utime + stime, in clock ticks). With `taskset`, each process is pinned to
 * one CPU when it starts.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { accessSync, closeSync, constants, openSync, readFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./child.ts', import.meta.url));

/** The path of program `name` in a folder of `path` (default: PATH), or null. */
export function onPath(name: string, path = process.env.PATH as string): string | null {
  for (const folder of path.split(delimiter)) {
    try {
      accessSync(join(folder, name), constants.X_OK);
      return join(folder, name);
    } catch {
      // not in this folder
    }
  }
  return null;
}

/** A server under test whose CPU time can be measured over a window. */
export interface Target {
  readonly name: string;
  readonly port: number;
  /** The admin listener (/metrics), for scopegate. */
  readonly adminPort?: number;
  readonly pid: number;
  /** Opens a CPU window. */
  start(): Promise<void>;
  /** Closes it: CPU microseconds (user + system) the process used since start(). */
  stop(): Promise<number>;
  /** Stops the process and waits for it to exit. */
  close(): Promise<void>;
}

/** How a process is placed: the `taskset` program and the CPU, or null for no pinning. */
export type Pin = { readonly taskset: string; readonly cpu: number } | null;

/** `argv` run under `taskset -c <cpu>` when pinned. */
export function pinnedArgv(pin: Pin, argv: readonly string[]): string[] {
  return pin === null ? [...argv] : [pin.taskset, '-c', String(pin.cpu), ...argv];
}

/** The CPU list a running process (all its threads) may use, as `taskset -c -p` prints it. */
export function affinityOf(taskset: string, pid: number): string {
  const line = execFileSync(taskset, ['-c', '-p', String(pid)], { encoding: 'utf8' });
  return (/: *(\S+)\s*$/.exec(line) as RegExpExecArray)[1] as string;
}

/** Restricts a running process, all its threads, to `cpus` (e.g. "1" or "0,1"). */
export function setAffinity(taskset: string, pid: number, cpus: string): void {
  execFileSync(taskset, ['-a', '-c', '-p', cpus, String(pid)], { stdio: 'ignore' });
}

/** Resolves with the child's exit code when it exits. */
function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Sends SIGINT, then SIGKILL if the process is still there after 10 s; waits for the exit. */
async function stopProcess(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
  /* c8 ignore next: only a process that ignores SIGINT for 10 s gets here */
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Options of {@link startNodeChild}. */
export interface NodeChildOptions {
  /** bench/child.ts's arguments: its role, then the role's argument. */
  readonly args: readonly string[];
  readonly pin: Pin;
  /** Extra Node flags (--cpu-prof, --trace-gc). */
  readonly flags: readonly string[];
  /** The file the child's stdout goes to (for scopegate: its access log). */
  readonly stdout: string;
}

/** Starts a bench/child.ts process and waits until it listens. */
export async function startNodeChild(name: string, options: NodeChildOptions): Promise<Target> {
  const argv = pinnedArgv(options.pin, [
    process.execPath,
    ...process.execArgv,
    ...options.flags,
    CHILD,
    ...options.args,
  ]);
  const out = openSync(options.stdout, 'w');
  const child = spawn(argv[0] as string, argv.slice(1), {
    stdio: ['ignore', out, 'inherit', 'ipc'],
  });
  closeSync(out);
  const exited = exitOf(child);
  const ready = await new Promise<{ port: number; adminPort?: number }>((resolve, reject) => {
    void exited.then((code) => reject(new Error(`bench child ${name} exited ${code}`)));
    child.once('message', resolve);
  });
  const reply = <T>(message: { type: string }): Promise<T> =>
    new Promise((resolve) => {
      child.once('message', resolve);
      child.send(message);
    });
  return {
    name,
    pid: child.pid as number,
    ...ready,
    start: async () => {
      await reply({ type: 'start' });
    },
    stop: async () => (await reply<{ micros: number }>({ type: 'stop' })).micros,
    close: () => stopProcess(child, exited),
  };
}

/** Clock ticks per second of /proc's CPU times (`getconf CLK_TCK`). */
export function clockTicks(): number {
  return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
}

/** CPU microseconds (user + system, all threads) process `pid` has used, from /proc/<pid>/stat. */
export function procCpuMicros(pid: number, ticksPerSecond: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1e6) / ticksPerSecond;
}

/** A TCP port free on loopback a moment ago. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

/** Resolves once `port` accepts a connection; rejects when `exited` settles first. */
async function untilListening(port: number, exited: Promise<unknown>): Promise<void> {
  let gone = false;
  void exited.then(() => (gone = true));
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 20));
    if (gone) throw new Error('exited before it listened');
  }
}

/**
 * Starts a server program in the foreground (`argv`, listening on `port`), its CPU read from
 * /proc. Rejects with the program's stderr when it exits before it listens.
 */
export async function startProgram(
  name: string,
  argv: readonly string[],
  port: number,
  pin: Pin,
): Promise<Target> {
  const command = pinnedArgv(pin, argv);
  const child = spawn(command[0] as string, command.slice(1), {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  const exited = exitOf(child);
  try {
    await spawned;
    await untilListening(port, exited);
  } catch (err) {
    // A program that could not be spawned (ENOENT) has no pid and never exits.
    if (child.pid !== undefined) await stopProcess(child, exited);
    throw new Error(`${name}: ${(err as Error).message} ${stderr.trim()}`.trim());
  }
  const ticks = clockTicks();
  const pid = child.pid as number;
  let startedAt = 0;
  return {
    name,
    pid,
    port,
    start: async () => {
      startedAt = procCpuMicros(pid, ticks);
    },
    stop: async () => procCpuMicros(pid, ticks) - startedAt,
    close: () => stopProcess(child, exited),
  };
}
