/**
 * `scopegate runtime [--config F] [--port N] [--host H] [--gateway-url URL]
 * [--insecure-unsigned-identity]`: start the bundled runtime alone. It binds to loopback unless
 * told otherwise, and says so. It believes only identities the gateway signed, with
 * `upstream.identity_secret` or SCOPEGATE_IDENTITY_SECRET, and refuses to start without one unless
 * the development switch says otherwise. With `--gateway-url`, scheduled runs go through that
 * gateway with the internal service token (`auth.internal_service_token` or
 * SCOPEGATE_INTERNAL_TOKEN). Never prints a secret or a token.
 */
import { parseArgs } from 'node:util';
import type { startRuntime } from '../runtime/start.js';
import { systemClock } from '../shared/clock.js';
import { formatProblem } from '../shared/problem.js';
import type { Command, CommandIo } from './io.js';
import { DEFAULT_CONFIG, loadOrReport, runtimeSettingsOf } from './load.js';
import { startTracer } from './tracer.js';
import { untilSignal } from './signals.js';
import { CONFIG_HELP, defineCommand, helpRequested, usageOf } from './usage.js';

/** The environment variable read when the config sets no `upstream.identity_secret`. */
export const IDENTITY_SECRET_ENV = 'SCOPEGATE_IDENTITY_SECRET';

/** The environment variable read when the config sets no `auth.internal_service_token`. */
export const INTERNAL_TOKEN_ENV = 'SCOPEGATE_INTERNAL_TOKEN';

/** The development switch: believe unsigned contexts, and none at all as anonymous. */
export const INSECURE_UNSIGNED_FLAG = 'insecure-unsigned-identity';

/** Shortest secret accepted, as for `upstream.identity_secret`. */
const MIN_SECRET_LENGTH = 16;

/**
 * The identity secret the runtime verifies with: `upstream.identity_secret`, else
 * SCOPEGATE_IDENTITY_SECRET; `{secret: null}` when `runtime.identity_token` is set without either
 * (the token alone then proves each context), or under the development switch without any (after
 * the SGWRN010 warning); null when the runtime must not start (the reason printed).
 */
function identitySecretOf(
  configured: string | null,
  file: string,
  insecure: boolean,
  tokenCheck: boolean,
  io: CommandIo,
): { readonly secret: string | null } | null {
  const fromEnv = io.env[IDENTITY_SECRET_ENV];
  const secret = configured ?? (fromEnv === undefined || fromEnv === '' ? null : fromEnv);
  if (secret !== null && secret.length < MIN_SECRET_LENGTH) {
    io.err(
      `error: scopegate runtime: ${IDENTITY_SECRET_ENV} must be at least ${MIN_SECRET_LENGTH} characters`,
    );
    return null;
  }
  if (secret === null && tokenCheck) {
    // The identity token alone proves each context: nothing is believed unsigned.
    if (insecure) {
      io.err(
        `scopegate runtime: --${INSECURE_UNSIGNED_FLAG} ignored: runtime.identity_token is set, ` +
          'so every context must carry a valid identity token',
      );
    }
    return { secret: null };
  }
  if (secret !== null) {
    if (insecure) {
      io.err(
        `scopegate runtime: --${INSECURE_UNSIGNED_FLAG} ignored: an identity secret is set, ` +
          'so every context must carry a valid signature',
      );
    }
    return { secret };
  }
  if (!insecure) {
    io.err(
      `error: scopegate runtime: no identity secret: set upstream.identity_secret in ${file} ` +
        `or the ${IDENTITY_SECRET_ENV} environment variable to the gateway's, or ` +
        `runtime.identity_token to verify the gateway's identity token ` +
        `(or pass --${INSECURE_UNSIGNED_FLAG}, development only)`,
    );
    return null;
  }
  const warning = {
    file: 'scopegate runtime',
    key: `--${INSECURE_UNSIGNED_FLAG}`,
    message:
      'x-auth-context is believed WITHOUT a signature and a request without one is an ' +
      'unconfined anonymous caller: anyone who can reach this port can act as any user, ' +
      'admin included (development only)',
    code: 'SGWRN010',
  };
  io.err(`warning: ${formatProblem(warning)}`);
  return { secret: null };
}

/** `scopegate runtime`'s options. */
export const RUNTIME = defineCommand({
  usage: 'runtime [options]',
  summary:
    'Start the bundled agent runtime alone (its `runtime:` settings), believing only identity\n' +
    `contexts signed with upstream.identity_secret or ${IDENTITY_SECRET_ENV}.`,
  options: {
    config: { type: 'string', short: 'c', default: DEFAULT_CONFIG },
    port: { type: 'string', default: '8081' },
    host: { type: 'string', default: '127.0.0.1' },
    'gateway-url': { type: 'string' },
    [INSECURE_UNSIGNED_FLAG]: { type: 'boolean', default: false },
  },
  help: {
    config: CONFIG_HELP,
    port: { value: 'N', text: 'port to listen on, 0..65535' },
    host: { value: 'H', text: 'address to listen on' },
    'gateway-url': {
      value: 'URL',
      text:
        'the gateway in front of this runtime: scheduled runs go through it with ' +
        `auth.internal_service_token (or ${INTERNAL_TOKEN_ENV}); without it schedules cannot run`,
    },
    [INSECURE_UNSIGNED_FLAG]: {
      text: 'development only: believe unsigned identity contexts, and none as anonymous',
    },
  },
});

export const runtime: Command = async (args, io) => {
  if (helpRequested(args)) {
    io.out(usageOf(RUNTIME));
    return 0;
  }
  const { values } = parseArgs({ args: [...args], options: RUNTIME.options, strict: true });
  const port = /^\d{1,5}$/.test(values.port) ? Number(values.port) : -1;
  if (port < 0 || port > 65535) {
    io.err(`scopegate runtime: --port must be 0..65535 (got "${values.port}")`);
    return 2;
  }
  const gatewayUrl = values['gateway-url'];
  if (gatewayUrl !== undefined && !/^https?:\/\/[^/?#\s]+/.test(gatewayUrl)) {
    io.err(
      `scopegate runtime: --gateway-url must be an http:// or https:// URL (got "${gatewayUrl}")`,
    );
    return 2;
  }
  const loaded = loadOrReport(values.config, io);
  if (loaded === null) return 1;
  const fromEnv = io.env[INTERNAL_TOKEN_ENV];
  const internalToken =
    loaded.config.auth.internal_service_token ??
    (fromEnv === undefined || fromEnv === '' ? null : fromEnv);
  if (gatewayUrl !== undefined && internalToken === null) {
    io.err(
      `error: scopegate runtime: --gateway-url needs the gateway's internal service token: set ` +
        `auth.internal_service_token in ${loaded.file} or the ${INTERNAL_TOKEN_ENV} environment variable`,
    );
    return 1;
  }
  // Validated with the rest of `runtime:` when the runtime starts; here only whether it is set.
  const tokenSetting = loaded.config.runtime['identity_token'];
  const identity = identitySecretOf(
    loaded.config.upstream.identity_secret,
    loaded.file,
    values[INSECURE_UNSIGNED_FLAG],
    typeof tokenSetting === 'object' && tokenSetting !== null,
    io,
  );
  if (identity === null) return 1;
  const tracer = await startTracer(loaded.config, io, 'scopegate-runtime');
  let running: Awaited<ReturnType<typeof startRuntime>>;
  try {
    // Loaded on use, so `scopegate` and its other commands start without the runtime's modules.
    const { startRuntime } = await import('../runtime/start.js');
    running = await startRuntime({
      settings: runtimeSettingsOf(loaded.config),
      dir: loaded.dir,
      host: values.host,
      port,
      clock: systemClock,
      identitySecret: identity.secret,
    });
  } catch (err) {
    io.err(`error: ${loaded.file} runtime: ${(err as Error).message}`);
    return 1;
  }
  if (gatewayUrl !== undefined) {
    const { systemGatewayExecutor } = await import('../runtime/api/schedules/gateway-executor.js');
    running.scheduler.attach(systemGatewayExecutor(gatewayUrl, internalToken as string));
  }
  const loopback =
    values.host === '127.0.0.1' || values.host === '::1' || values.host === 'localhost';
  io.out(
    `scopegate runtime listening on ${running.url}` +
      (loopback ? ' (loopback only)' : ' — NOT loopback: put the gateway in front of it'),
  );
  if (gatewayUrl === undefined) {
    io.out(
      'scopegate runtime: schedules cannot run: no --gateway-url (the gateway in front of this ' +
        'runtime, with its internal service token); due runs are recorded as failed and ' +
        'POST /schedules/{id}/trigger answers 503',
    );
  }
  const signal = await untilSignal(['SIGTERM', 'SIGINT']);
  io.out(`scopegate runtime: ${signal}, closing`);
  await running.close();
  await tracer?.shutdown();
  return 0;
};
