/**
 * Shared start of every command that reads a config: load it and assemble the policy, printing
 * every problem by file and key. Argv handling only; the work is in config/ and gateway/.
 */
import { hasJwtSource } from '../shared/jwt-source.js';
import {
  loadConfig,
  type ConfigOverrides,
  type GatewayConfig,
  type LoadedConfig,
} from '../config/load.js';
import { assemblePolicy, draftPolicyProblems, type AssembleResult } from '../gateway/assemble.js';
import { ConfigError, formatProblem, type Problem } from '../shared/problem.js';
import { plural } from '../shared/text.js';
import type { CommandIo } from './io.js';

/** The config file used when `--config` is not given. */
export const DEFAULT_CONFIG = 'gateway.yaml';

/**
 * Loads a config, or returns every problem (the config's, and a best-effort look at its
 * policies) without printing anything.
 */
export function loadOrProblems(
  file: string,
  env: CommandIo['env'],
  overrides?: ConfigOverrides,
): { loaded: LoadedConfig; problems?: undefined } | { loaded: null; problems: readonly Problem[] } {
  try {
    return { loaded: loadConfig(file, { env, overrides }) };
  } catch (err) {
    /* c8 ignore next - loadConfig throws only ConfigError; anything else is a bug and must crash */
    if (!(err instanceof ConfigError)) throw err;
    return {
      loaded: null,
      problems: [
        ...err.problems,
        ...(err.draft === undefined ? [] : draftPolicyProblems(err.draft)),
      ],
    };
  }
}

/** Loads a config, or prints every problem (config and best-effort policy) and returns null. */
export function loadOrReport(
  file: string,
  io: CommandIo,
  overrides?: ConfigOverrides,
): LoadedConfig | null {
  const result = loadOrProblems(file, io.env, overrides);
  if (result.loaded === null) reportProblems(file, result.problems, io);
  return result.loaded;
}

/** Prints problems as `error:` lines and a closing count. */
export function reportProblems(file: string, problems: readonly Problem[], io: CommandIo): void {
  for (const problem of problems) io.err(`error: ${formatProblem(problem)}`);
  io.err(`${file}: invalid (${plural(problems.length, 'problem')})`);
}

/** Loads and assembles the decision state, or prints every problem to stderr and returns null. */
export function loadAndAssemble(
  file: string,
  io: CommandIo,
): { loaded: LoadedConfig; assembled: AssembleResult } | null {
  const loaded = loadOrReport(file, io);
  if (loaded === null) return null;
  const assembled = assemblePolicy(loaded);
  if (assembled.state === null) {
    reportProblems(file, assembled.problems, io);
    return null;
  }
  return { loaded, assembled };
}

/**
 * The bundled runtime's settings: the config's `runtime:` section, plus, unless the section sets
 * its own, the gateway's `a2a.prefix` as `a2a_prefix` (so the runtime serves A2A where the
 * gateway guards it) and the gateway's authentication as `auth_mode` (for `GET /info`).
 */
export function runtimeSettingsOf(config: GatewayConfig): Readonly<Record<string, unknown>> {
  const { runtime, auth } = config;
  // What GET /info reports: how callers authenticate at the gateway.
  const authMode = hasJwtSource(auth)
    ? 'jwt'
    : (auth.security_key ?? '') !== ''
      ? 'security_key'
      : 'none';
  return {
    a2a_prefix: config.a2a.prefix,
    auth_mode: authMode,
    ...runtime,
  };
}
