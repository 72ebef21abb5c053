/**
 * `scopegate runtime [--config F] [--port N] [--host H]`: start the bundled runtime alone. It
 * binds to loopback unless told otherwise, and says so: without the gateway in front of it,
 * nothing authenticates its callers.
 */
import { parseArgs } from 'node:util';
import { startRuntime } from '../runtime/server.js';
import { systemClock } from '../shared/clock.js';
import type { Command } from './io.js';
import { DEFAULT_CONFIG, loadOrReport, runtimeSettingsOf } from './load.js';
import { untilSignal } from './signals.js';

export const runtime: Command = async (args, io) => {
  const { values } = parseArgs({
    args: [...args],
    options: {
      config: { type: 'string', short: 'c', default: DEFAULT_CONFIG },
      port: { type: 'string', default: '8081' },
      host: { type: 'string', default: '127.0.0.1' },
    },
    strict: true,
  });
  const port = /^\d{1,5}$/.test(values.port) ? Number(values.port) : -1;
  if (port < 0 || port > 65535) {
    io.err(`scopegate runtime: --port must be 0..65535 (got "${values.port}")`);
    return 2;
  }
  const loaded = loadOrReport(values.config, io);
  if (loaded === null) return 1;
  let running: Awaited<ReturnType<typeof startRuntime>>;
  try {
    running = await startRuntime({
      settings: runtimeSettingsOf(loaded.config),
      dir: loaded.dir,
      host: values.host,
      port,
      clock: systemClock,
    });
  } catch (err) {
    io.err(`error: ${loaded.file} runtime: ${(err as Error).message}`);
    return 1;
  }
  const loopback =
    values.host === '127.0.0.1' || values.host === '::1' || values.host === 'localhost';
  io.out(
    `scopegate runtime listening on ${running.url}` +
      (loopback ? ' (loopback only)' : ' — NOT loopback: put the gateway in front of it'),
  );
  const signal = await untilSignal(['SIGTERM', 'SIGINT']);
  io.out(`scopegate runtime: ${signal}, closing`);
  await running.close();
  return 0;
};
