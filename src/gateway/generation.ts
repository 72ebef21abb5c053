/**
 * A generation of the running gateway: the state built from one version of the config files,
 * with what a reload needs to build the next one (the loaded config, the open service-account
 * store, the files it was read from). Builds, compares and wires; never serves a request, and
 * never applies part of a config: what only a restart can change rejects the whole reload.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Env } from '../config/env.js';
import { loadConfig, type ConfigOverrides, type LoadedConfig } from '../config/load.js';
import {
  startReloader,
  type BuildOutcome,
  type Closable,
  type FolderWatcher,
  type ReloadHook,
  type Reloader,
  type ReloadLog,
  type StateSlot,
} from '../config/reload.js';
import type { RemoteJwksHooks } from '../auth/chain.js';
import type { Clock } from '../shared/clock.js';
import { parseStoreLocation } from '../shared/store-location.js';
import { ConfigError, type Problem } from '../shared/problem.js';
import {
  assembleGateway,
  draftPolicyProblems,
  type GatewayAssembly,
  type OpenServiceAccounts,
} from './assemble.js';
import type { GatewayState } from './pipeline.js';
import { tlsFilesOf } from './tls.js';

/** One version of the running gateway. */
export interface Generation {
  readonly state: GatewayState;
  readonly loaded: LoadedConfig;
  /** The open store and verifier, kept by the next generation when the store did not change. */
  readonly accounts: OpenServiceAccounts | null;
  /** Absolute paths of the files read to build it: config, policies, JWKS, key files, dev keys. */
  readonly files: readonly string[];
}

/** The generation a freshly assembled state makes (`assembly.state` is `state`). */
export function generationOf(
  loaded: LoadedConfig,
  assembly: GatewayAssembly,
  state: GatewayState,
): Generation {
  return Object.freeze({
    state,
    loaded,
    accounts: assembly.accounts,
    files: filesOf(loaded, assembly),
  });
}

/**
 * The files a reload must notice: the config itself, every policy file in merge order,
 * `auth.jwks_file`, every `file:` key (`verification_keys`, the deprecated `secret_key`) and the
 * development key file, the `listen.tls` files. Never the service-account store: it is data, written while serving.
 */
export function filesOf(loaded: LoadedConfig, assembly: GatewayAssembly): string[] {
  const { auth } = loaded.config;
  const files = [loaded.path, ...assembly.policy.policyFiles.map((ref) => ref.path)];
  if (auth.jwks_file !== null && auth.jwks_file !== '')
    files.push(loaded.resolvePath(auth.jwks_file));
  for (const key of [...auth.verification_keys, auth.secret_key ?? null]) {
    if (key?.startsWith('file:') === true)
      files.push(loaded.resolvePath(key.slice('file:'.length)));
  }
  if (auth.dev_keys !== null) files.push(loaded.resolvePath(auth.dev_keys));
  // The listener's certificate files: a replaced certificate is served to new connections.
  const tls = tlsFilesOf(loaded.config, loaded.dir);
  if (tls !== null)
    files.push(...[tls.cert, tls.key, tls.clientCa].filter((file) => file !== null));
  return [...new Set(files)];
}

/** What a state holds that must be closed once no generation uses it. */
export function resourcesOf(state: GatewayState): readonly (Closable | null | undefined)[] {
  // The remote key set (auth.jwks_url) is kept by the next generation when nothing about it
  // changed; it is closed (its refresh timer stopped) only when no live state uses it.
  // The feed is listed before the store it reads, so it stops first.
  const accounts = state.serviceAccounts;
  return [
    state.upstream.pool,
    accounts?.feedSubscription,
    accounts?.feed,
    accounts?.store,
    state.chain.remoteJwks,
  ];
}

/**
 * The keys of `next` that differ from the running config and that only a restart can apply:
 * the listeners are bound, the bundled runtime was started with its settings on the loopback
 * port `upstream.url` names (and serves A2A under the prefix it was given, verifying contexts with
 * the identity secret it was given), and the store is
 * one open database (a SQLite file or a Postgres pool) read by a change feed with the cluster
 * settings. One problem per key; values are never printed (the runtime section may
 * hold credentials).
 */
export function restartOnlyChanges(running: LoadedConfig, next: LoadedConfig): Problem[] {
  const before = running.config;
  const after = next.config;
  const keys: (readonly string[])[] = [];
  const compare = (path: readonly string[], a: unknown, b: unknown): void => {
    if (!isDeepStrictEqual(a, b)) keys.push(path);
  };
  // The listener is bound; the body time-outs and the proxies it believes are read per request,
  // so a reload applies them to the requests after it.
  compare(['listen'], boundListen(before.listen), boundListen(after.listen));
  compare(['admin'], before.admin, after.admin);
  // One tracer per process, registered for the bundled runtime too.
  compare(['telemetry'], before.telemetry, after.telemetry);
  compare(['upstream', 'embedded'], before.upstream.embedded, after.upstream.embedded);
  if (before.upstream.embedded && after.upstream.embedded) {
    compare(['upstream', 'url'], before.upstream.url, after.upstream.url);
    // The running runtime verifies with the key it was started with (the configured one, or one
    // made for the process when none is): a new key would have every request refused.
    compare(
      ['upstream', 'identity_secret'],
      before.upstream.identity_secret,
      after.upstream.identity_secret,
    );
    compare(['runtime'], before.runtime, after.runtime);
    compare(['a2a', 'prefix'], before.a2a.prefix, after.a2a.prefix);
  }
  const storeOf = (loaded: LoadedConfig): string | null => {
    const accounts = loaded.config.auth.service_accounts;
    if (!accounts.enabled) return null;
    const location = parseStoreLocation(accounts.store, (p) => loaded.resolvePath(p));
    return location.kind === 'sqlite' ? location.path : location.url;
  };
  const [storeBefore, storeAfter] = [storeOf(running), storeOf(next)];
  if (storeBefore !== null && storeAfter !== null) {
    compare(['auth', 'service_accounts', 'store'], storeBefore, storeAfter);
  }
  // The change feed and the store's connections were started with these.
  compare(['cluster'], before.cluster, after.cluster);
  return keys.map((path) => ({
    file: next.file,
    key: path.join('.'),
    line: next.lineOf(path) ?? next.lineOf(path.slice(0, 1)),
    message: 'changed, but only a restart applies it: restore the running value, or restart',
  }));
}

/** The `listen` keys a bound listener fixed: all but the per-request body time-outs and proxies. */
function boundListen(listen: LoadedConfig['config']['listen']): Record<string, unknown> {
  const {
    body_idle_timeout_ms: _idle,
    body_timeout_ms: _total,
    trusted_proxies: _trusted,
    ...bound
  } = listen;
  return bound;
}

/** What building a generation needs besides the running one. */
export interface GenerationDeps {
  readonly clock: Clock;
  /** The environment `${NAME}` reads (the process's, as at start-up). */
  readonly env: Env;
  /** `auth.jwks_url` hooks (the fetch listener) every generation's key set gets. */
  readonly jwks?: Omit<RemoteJwksHooks, 'previous'> | undefined;
  /** The identity secret every generation signs with (see `AssembleDeps.identitySecret`). */
  readonly identitySecret?: string | undefined;
  /** Command-line values over the file's (`serve --port`): applied to every reload as at start. */
  readonly overrides?: ConfigOverrides | undefined;
}

/**
 * Builds the next generation from the files on disk: load and validate the config, refuse keys
 * only a restart applies, then assemble a complete new state that keeps the running upstream
 * pool and service-account store when their settings did not change. The verified-token cache
 * is always new (see {@link startGatewayReloader}). Never throws for a bad config: every problem
 * is returned, and nothing of the running generation is touched.
 */
export async function buildNextGeneration(
  running: Generation,
  deps: GenerationDeps,
): Promise<BuildOutcome<Generation>> {
  let loaded: LoadedConfig;
  try {
    loaded = loadConfig(running.loaded.file, { env: deps.env, overrides: deps.overrides });
  } catch (err) {
    /* c8 ignore next - loadConfig throws only ConfigError; anything else is a bug */
    if (!(err instanceof ConfigError)) throw err;
    const draft = err.draft === undefined ? [] : draftPolicyProblems(err.draft);
    return { ok: false, problems: [...err.problems, ...draft], warnings: [] };
  }
  const restart = restartOnlyChanges(running.loaded, loaded);
  if (restart.length > 0) {
    // Check-only: list every other problem too, opening and writing nothing.
    const checked = await assembleGateway(loaded, { clock: deps.clock, checkOnly: true });
    return { ok: false, problems: [...restart, ...checked.problems], warnings: checked.warnings };
  }
  const assembly = await assembleGateway(loaded, {
    clock: deps.clock,
    previousUpstream: running.state.upstream,
    previousAccounts: running.accounts,
    jwks: { ...deps.jwks, previous: running.state.chain.remoteJwks },
    // The same metrics and log in every generation: counters keep counting across reloads.
    telemetry: running.state.telemetry,
    identitySecret: deps.identitySecret,
    previousIdentityKeys: running.state.identityKeys,
  });
  if (assembly.state === null) {
    return { ok: false, problems: assembly.problems, warnings: assembly.warnings };
  }
  return {
    ok: true,
    next: generationOf(loaded, assembly, assembly.state),
    warnings: assembly.warnings,
  };
}

/** What {@link startGatewayReloader} wires together. */
export interface GatewayReloaderOptions extends GenerationDeps {
  /** The slot the server acquires states from; the reloader swaps into it. */
  readonly slot: StateSlot<GatewayState>;
  /** The generation serving now (its state is the slot's current one). */
  readonly initial: Generation;
  readonly log: ReloadLog;
  readonly onReload?: ReloadHook | undefined;
  /** Signals that force a reload (serve: SIGHUP). */
  readonly signals?: readonly NodeJS.Signals[] | undefined;
  readonly debounceMs?: number | undefined;
  readonly watch?: ((folder: string, onEvent: () => void) => FolderWatcher) | undefined;
}

/**
 * Starts reloading the gateway: each successful build is swapped into `slot` in one step.
 *
 * Key rotation: every generation has its own auth chain, hence its own verified-token cache,
 * so no principal verified under the old key set is ever looked up after the swap — a key
 * removed from the JWKS file stops validating for every request that arrives after the reload,
 * cached token or not. Carrying entries over would have to prove, per entry, that the key,
 * algorithms, issuer, audience and claim settings it was verified under are all unchanged;
 * a reload is rare and a re-verification costs one signature check, so the cache starts empty.
 */
export function startGatewayReloader(
  options: GatewayReloaderOptions,
): Promise<Reloader<Generation>> {
  const { slot } = options;
  return startReloader<Generation>({
    initial: options.initial,
    file: options.initial.loaded.file,
    build: (running) => buildNextGeneration(running, options),
    install: (next) => slot.swap(next.state),
    filesOf: (generation) => generation.files,
    log: options.log,
    onReload: options.onReload,
    signals: options.signals,
    debounceMs: options.debounceMs,
    watch: options.watch,
  });
}
