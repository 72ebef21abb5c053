/**
 * Builds the frozen state a gateway serves from: loads the policy files a config names, compiles
 * them with its overrides, and fixes the authorization settings. Used by `serve`, `check`,
 * `explain` and `test-policies` alike. Never serves a request.
 */
import type { KeyObject } from 'node:crypto';
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { authorizationEnabled, unmappedRoutesOf } from '../config/schema.js';
import {
  compilePolicy,
  DEFAULT_EXCLUDED_ROUTE_PATHS,
  type CompileResult,
  type Origin,
  type PolicyLayer,
} from '../policy/compile.js';
import {
  overridesLayer,
  readPolicyFile,
  shippedPolicyFiles,
  type PolicyFileRef,
} from '../policy/loader.js';
import { DEFAULT_ADMIN_SCOPE } from '../policy/scopes.js';
import { parseCidr, type Cidr } from '../shared/cidr.js';
import { packageRoot } from '../shared/package-root.js';
import type { ConfigDraft, Problem } from '../shared/problem.js';
import { createAuthChain, type RemoteJwks, type RemoteJwksHooks } from '../auth/chain.js';
import { loadOrCreateDevKeys } from '../auth/jwt/dev-keys.js';
import { startChangeFeed, type ChangeFeed } from '../auth/service-accounts/change-feed.js';
import { openServiceAccountStore } from '../auth/service-accounts/open-store.js';
import { inspectServiceAccountStore } from '../auth/service-accounts/sqlite-store.js';
import type { ServiceAccountStore } from '../auth/service-accounts/store.js';
import { parseStoreLocation } from '../shared/store-location.js';
import {
  createServiceAccountVerifier,
  type ServiceAccountTokenVerifier,
} from '../auth/service-accounts/verifier.js';
import { createScopeCatalogue } from '../policy/grantable.js';
import type { Clock } from '../shared/clock.js';
import { createCatalogue } from './catalogue.js';
import { createCorsPolicy } from './cors.js';
import { catalogueContext, createIdentityCache, encodeIdentity } from './identity.js';
import type { DecisionState, GatewayState } from './pipeline.js';
import { createServiceAccountsApi } from './service-accounts/accounts.js';
import { createUpstream, type Upstream } from './stages/forward.js';
import { createGrantsCache } from './stages/authorize.js';
import { accessLogOf, createRequestRecorder, type Telemetry } from './stages/record.js';
import { createTrustedProxies } from './trusted-proxies.js';
import { createGatewayMetrics, type GatewayMetrics } from '../admin/metrics.js';
import { isTlsProblem, readTlsOptions, tlsFilesOf, type TlsServerOptions } from './tls.js';
import type { IdentityKeyRing } from './identity-token/keys.js';
import { identityTokenOf, readIdentityTokenKeys } from './identity-token/settings.js';

/** The longest a dynamic-dispatch catalogue read may take (bounded further by `timeout_ms`). */
const CATALOGUE_TIMEOUT_MS = 10_000;

/** The result of assembling: the state, or the problems that prevent it. */
export interface AssembleResult {
  readonly state: DecisionState | null;
  readonly compiled: CompileResult;
  readonly problems: readonly Problem[];
  readonly warnings: readonly Problem[];
  readonly notes: readonly Problem[];
  /** The policy files used, in merge order. */
  readonly policyFiles: readonly PolicyFileRef[];
}

/** The policy-relevant part of a config, as plain values. */
interface PolicySettings {
  readonly file: string;
  readonly dir: string;
  readonly lineOf: (keyPath: readonly (string | number)[]) => number | undefined;
  /** `policies:` as written, or null for the shipped files. */
  readonly policies: readonly string[] | null;
  readonly scopeMappings: Readonly<Record<string, unknown>> | undefined;
  readonly excludedRoutePaths: readonly string[] | null;
  readonly adminScope: string;
  readonly a2aPrefix: string;
  readonly unmappedRoutes: 'allow' | 'deny';
  /** `upstream.api` is `agent_os`: the agent-family rules, shipped policies and exemptions. */
  readonly agentFamilies: boolean;
}

/**
 * The routes of the one API the gateway serves itself, for a generic upstream (in front of an
 * agent runtime the shipped policies map them): service accounts keep working with no policy
 * file, and a policy or `scope_mappings` entry for the same pattern still replaces them.
 */
const GATEWAY_ROUTES: PolicyLayer = Object.freeze({
  file: 'built-in service-account routes',
  mappings: Object.freeze(
    (
      [
        ['GET /service-accounts', 'service_accounts:read'],
        ['POST /service-accounts', 'service_accounts:write'],
        ['DELETE /service-accounts/*', 'service_accounts:delete'],
      ] as const
    ).map(([pattern, scope]) => ({
      pattern,
      scopes: [scope],
      origin: { file: 'built-in service-account routes', key: pattern },
    })),
  ),
});

/**
 * The policy files a config names (config-relative); when it names none, the shipped ones in
 * front of an agent runtime, and none in front of a generic upstream (they map the agent API).
 */
function policyFilesOf(settings: PolicySettings): PolicyFileRef[] {
  if (settings.policies === null) {
    return settings.agentFamilies ? shippedPolicyFiles(packageRoot()) : [];
  }
  return settings.policies.map((file) => ({ file, path: resolve(settings.dir, file) }));
}

function compileSettings(settings: PolicySettings): {
  compiled: CompileResult;
  problems: Problem[];
  policyFiles: PolicyFileRef[];
} {
  const policyFiles = policyFilesOf(settings);
  const problems: Problem[] = [];
  const layers: PolicyLayer[] = settings.agentFamilies ? [] : [GATEWAY_ROUTES];
  policyFiles.forEach((ref, i) => {
    const read = readPolicyFile(ref);
    if (read.layer) layers.push(read.layer);
    // A file the config names that cannot be read is the config's problem: named by the key
    // that points at it, with the absolute path it was looked for at.
    if (read.layer === null && settings.policies !== null) {
      problems.push(
        ...read.problems.map((p) => ({
          file: settings.file,
          key: `policies[${i}]`,
          line: settings.lineOf(['policies', i]),
          message: `${p.message}; "${ref.file}" is resolved against the config's folder ${settings.dir}`,
        })),
      );
    } else problems.push(...read.problems);
  });
  if (settings.scopeMappings !== undefined) {
    layers.push(overridesLayer(settings.file, settings.scopeMappings, settings.lineOf));
  }
  // The built-in exemptions are the agent runtime's public pages; a generic upstream gets none.
  const defaultExcluded = settings.agentFamilies ? DEFAULT_EXCLUDED_ROUTE_PATHS : [];
  const excluded: { path: string; origin: Origin }[] =
    settings.excludedRoutePaths === null
      ? defaultExcluded.map((path) => ({
          path,
          origin: { file: 'built-in excluded routes', key: '' },
        }))
      : settings.excludedRoutePaths.map((path, i) => ({
          path,
          origin: {
            file: settings.file,
            key: `auth.excluded_route_paths[${i}]`,
            line: settings.lineOf(['auth', 'excluded_route_paths', i]),
          },
        }));
  const compiled = compilePolicy({
    layers,
    adminScope: settings.adminScope,
    a2aPrefix: settings.a2aPrefix,
    unmappedRoutes: settings.unmappedRoutes,
    agentFamilies: settings.agentFamilies,
    excluded,
  });
  problems.push(...compiled.problems);
  return { compiled, problems, policyFiles };
}

/** Reads and compiles the policy of a loaded config, collecting every problem. */
export function assemblePolicy(loaded: LoadedConfig): AssembleResult {
  const { config } = loaded;
  const { compiled, problems, policyFiles } = compileSettings({
    file: loaded.file,
    dir: loaded.dir,
    lineOf: (path) => loaded.lineOf(path),
    policies: config.policies ?? null,
    scopeMappings: config.auth.scope_mappings,
    excludedRoutePaths: config.auth.excluded_route_paths,
    adminScope: config.auth.admin_scope,
    a2aPrefix: config.a2a.prefix,
    unmappedRoutes: unmappedRoutesOf(config),
    agentFamilies: config.upstream.api === 'agent_os',
  });
  const state: DecisionState | null =
    problems.length === 0 && compiled.policy !== null
      ? Object.freeze({
          policy: compiled.policy,
          rbacEnabled: authorizationEnabled(config),
          grantsOf: createGrantsCache(config.auth.admin_scope),
        })
      : null;
  return {
    state,
    compiled,
    problems,
    warnings: compiled.warnings,
    notes: compiled.notes,
    policyFiles,
  };
}

/**
 * Best-effort policy problems of a config that failed validation: every policy-related value
 * that has the right shape is used, anything else falls back to its default. Lets `check` list
 * a malformed pattern in the same run as an unknown key.
 */
export function draftPolicyProblems(draft: ConfigDraft): readonly Problem[] {
  const tree = asRecord(draft.tree);
  const auth = asRecord(tree.auth);
  const a2a = asRecord(tree.a2a);
  const strings = (v: unknown): string[] | null =>
    Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : null;
  const prefix = typeof a2a.prefix === 'string' ? a2a.prefix : '/a2a';
  const mappings = auth.scope_mappings;
  return compileSettings({
    file: draft.file,
    dir: draft.dir,
    lineOf: (path) => draft.lineOf(path),
    policies: strings(tree.policies),
    scopeMappings:
      typeof mappings === 'object' && mappings !== null && !Array.isArray(mappings)
        ? (mappings as Record<string, unknown>)
        : undefined,
    excludedRoutePaths: strings(auth.excluded_route_paths),
    adminScope: typeof auth.admin_scope === 'string' ? auth.admin_scope : DEFAULT_ADMIN_SCOPE,
    // A malformed prefix is the config's own problem; patterns are then checked under the default.
    a2aPrefix: /^(\/[^/\s]+)+$/.test(prefix) ? prefix : '/a2a',
    unmappedRoutes: 'allow',
    agentFamilies: asRecord(tree.upstream).api !== 'generic',
  }).problems;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** Development signing key material, when `auth.dev_keys` is configured. */
export interface DevKeyInfo {
  readonly path: string;
  readonly kid: string;
  readonly created: boolean;
  readonly privateKey: KeyObject;
}

/** A complete gateway state, or every problem that prevents one. */
export interface GatewayAssembly {
  readonly state: GatewayState | null;
  /** The policy half, also when the whole could not be assembled. */
  readonly policy: AssembleResult;
  readonly problems: readonly Problem[];
  readonly warnings: readonly Problem[];
  readonly devKeys: DevKeyInfo | null;
  /** The open service-account store and verifier the state uses (null when disabled or none). */
  readonly accounts: OpenServiceAccounts | null;
  /** The options of the TLS listener (`listen.tls`), read and checked; null for plain HTTP. */
  readonly tls?: TlsServerOptions | null;
}

/**
 * An open service-account store, its change feed, the verifier (subscribed to the feed), and the
 * cache TTL the verifier was built with.
 */
export interface OpenServiceAccounts {
  readonly store: ServiceAccountStore;
  readonly feed: ChangeFeed;
  readonly verifier: ServiceAccountTokenVerifier;
  /** The verifier's subscription to the feed. */
  readonly subscription: { close(): void };
  readonly cacheTtlSeconds: number;
}

/** Injected dependencies of assembly (time; a pool and a store to reuse across reloads). */
export interface AssembleDeps {
  readonly clock: Clock;
  /** An upstream pool to keep when the URL and time-out did not change (reload). */
  readonly previousUpstream?: Upstream | undefined;
  /**
   * An open store to keep when it is the same file (reload: SQLite is never reopened), with its
   * verifier when the cache TTL did not change either (its cache and throttle carry over).
   */
  readonly previousAccounts?: OpenServiceAccounts | null | undefined;
  /**
   * Check only (`scopegate check`): never write a file — a development key that does not exist
   * yet is not created — and build no upstream pool; `state` is then always null.
   */
  readonly checkOnly?: boolean;
  /**
   * `auth.jwks_url`: a fetch listener (metrics, logs), a set to keep across a reload
   * (`previous: old.chain.remoteJwks`), and, in tests, the fetcher and timers.
   */
  readonly jwks?: RemoteJwksHooks | undefined;
  /**
   * The gateway instance's metrics and logger. A reload passes the serving state's `telemetry`,
   * so counters keep counting and the admin listener keeps seeing them. Default: fresh metrics
   * (no process metrics) and no log.
   */
  readonly telemetry?: Telemetry | undefined;
  /**
   * The key to sign `x-auth-context` with, in place of `upstream.identity_secret`: `serve` passes
   * the one it handed its embedded runtime (the configured one, or one made for the process), so
   * every generation signs with the key the runtime verifies. Default: the configured one.
   */
  readonly identitySecret?: string | undefined;
  /** The running state's identity-token key ring, kept across a reload. */
  readonly previousIdentityKeys?: IdentityKeyRing | null | undefined;
}

/**
 * Builds the full state a gateway serves from: compiled policy, key sets and auth chain,
 * identity and header settings, the upstream pool. Reads key files; opens no listener.
 */
export async function assembleGateway(
  loaded: LoadedConfig,
  deps: AssembleDeps,
): Promise<GatewayAssembly> {
  const { config } = loaded;
  const policy = assemblePolicy(loaded);
  const problems: Problem[] = [...policy.problems];
  let devKeys: DevKeyInfo | null = null;
  let extraKeys: { key: KeyObject; kid: string }[] = [];
  if (config.auth.dev_keys !== null) {
    const path = loaded.resolvePath(config.auth.dev_keys);
    // `check` reads an existing key but never creates one: it must not write files.
    const notYetCreated = deps.checkOnly === true && !existsSync(path);
    try {
      if (!notYetCreated) {
        const keys = await loadOrCreateDevKeys(path);
        devKeys = { path, kid: keys.kid, created: keys.created, privateKey: keys.privateKey };
        extraKeys = [{ key: keys.publicKey, kid: keys.kid }];
      }
    } catch (err) {
      problems.push({
        file: loaded.file,
        key: 'auth.dev_keys',
        line: loaded.lineOf(['auth', 'dev_keys']),
        message: (err as Error).message,
      });
    }
  }
  // listen.tls: a missing or broken PEM file is a problem naming the key and the file, at
  // startup, in `check`, and on a reload (which then keeps the running config and certificate).
  let tls: TlsServerOptions | null = null;
  const tlsFiles = tlsFilesOf(config, loaded.dir);
  if (tlsFiles !== null) {
    const read = readTlsOptions(tlsFiles);
    if (isTlsProblem(read)) {
      problems.push({
        file: loaded.file,
        key: read.key,
        line: loaded.lineOf(keyPathOf(read.key)),
        message: read.message,
      });
    } else tls = read;
  }
  const tokenKeys = readIdentityTokenKeys(loaded);
  if (tokenKeys.problem !== null) {
    problems.push({
      file: loaded.file,
      key: 'upstream.identity_token.key_file',
      line: loaded.lineOf(['upstream', 'identity_token', 'key_file']),
      message: tokenKeys.problem,
    });
  }
  const storeWarnings: Problem[] = [];
  const accounts = await openAccounts(loaded, deps, problems, storeWarnings);
  const telemetry = deps.telemetry ?? { metrics: createGatewayMetrics(), log: null };
  const {
    chain,
    problems: authProblems,
    warnings: authWarnings,
  } = await createAuthChain(config.auth, {
    clock: deps.clock,
    serviceId: config.service_id,
    configFile: loaded.file,
    resolvePath: (p) => loaded.resolvePath(p),
    serviceAccounts: accounts?.verifier ?? null,
    extraKeys,
    jwks: jwksHooksOf(deps.jwks, telemetry.metrics),
    tokenCacheObserver: telemetry.metrics.tokenCache,
  });
  const withLine = (p: Problem): Problem => ({
    ...p,
    line: p.line ?? loaded.lineOf(keyPathOf(p.key)),
  });
  problems.push(...authProblems.map(withLine));
  const warnings = [
    ...loaded.warnings,
    ...policy.warnings,
    ...authWarnings.map(withLine),
    ...modeWarnings(loaded),
    ...storeWarnings,
  ];
  const remote = chain.remoteJwks ?? null;
  let assembledPolicy = policy;
  if (deps.checkOnly === true && problems.length === 0 && remote?.options.issuer !== undefined) {
    // `check` fetches no jwks_url, but with discovery where the keys are is not in the config:
    // it runs one attempt (bounded like any fetch) and shows where it led, or why it failed.
    const discovered = await discoverForCheck(loaded, remote as RemoteJwks);
    if (discovered.code === undefined) {
      assembledPolicy = { ...policy, notes: [...policy.notes, discovered] };
    } else warnings.push(discovered);
  }
  // The key ring is pointed at the new keys only when the state will be built (a rejected
  // reload must leave the running ring alone); at start, a jwks_file that cannot be written
  // stops it like any unreadable file.
  const identityToken =
    problems.length === 0 && policy.state !== null && deps.checkOnly !== true
      ? identityTokenOf(loaded, tokenKeys.keys, deps.previousIdentityKeys, deps.clock, (message) =>
          telemetry.log?.error({ key: 'upstream.identity_token.jwks_file' }, message),
        )
      : NO_IDENTITY_TOKEN;
  if (identityToken.problem !== null) {
    problems.push({
      file: loaded.file,
      key: 'upstream.identity_token.jwks_file',
      line: loaded.lineOf(['upstream', 'identity_token', 'jwks_file']),
      message: identityToken.problem,
    });
  }
  if (problems.length > 0 || policy.state === null || deps.checkOnly === true) {
    // A store kept from the running state is still in use there: only a fresh one is closed.
    if (accounts !== null && accounts.store !== deps.previousAccounts?.store) {
      await accounts.feed.close();
      await accounts.store.close();
    } else if (accounts !== null && accounts.verifier !== deps.previousAccounts?.verifier) {
      accounts.subscription.close();
    }
    return { state: null, policy: assembledPolicy, problems, warnings, devKeys, accounts: null };
  }
  const fresh = createUpstreamIfChanged(
    config.upstream.url,
    config.upstream.timeout_ms,
    config.upstream.max_connections,
    deps.previousUpstream,
  );
  const identitySecret = deps.identitySecret ?? config.upstream.identity_secret;
  const identitySettings = {
    rbacEnabled: policy.state.rbacEnabled,
    userIsolation: config.auth.user_isolation,
  };
  if (remote !== null) {
    // The first fetch is awaited (bounded by its time-out) so a healthy IdP means keys from the
    // first request on. A failure does not stop the start: other credentials keep working, the
    // JWKS is retried every cool-down, and readiness says not ready until it arrives.
    await remote.start();
    if (!remote.ready()) warnings.push(jwksUnavailable(loaded, remote));
  }
  const state: GatewayState = Object.freeze({
    ...policy.state,
    chain,
    credentialNames: { header: config.auth.token_header_key, cookie: config.auth.cookie_name },
    identity: identitySettings,
    identities: createIdentityCache(identitySettings, identitySecret),
    forwardHeaders: {
      forwardAuthorization: config.upstream.forward_authorization,
      tokenHeader: config.auth.token_header_key.toLowerCase(),
      tokenCookie: config.auth.cookie_name,
      identitySecret,
      identityToken: identityToken.signer,
    },
    identityKeys: identityToken.ring,
    trustedProxies: createTrustedProxies(config.listen.trusted_proxies),
    upstream: fresh,
    serviceAccounts:
      accounts === null
        ? null
        : createServiceAccountsApi({
            store: accounts.store,
            verifier: accounts.verifier,
            feed: accounts.feed,
            feedSubscription: accounts.subscription,
            clock: deps.clock,
            catalogue: createScopeCatalogue(policy.state.policy),
          }),
    cors: createCorsPolicy(config.cors.allowed_origins, config.auth.token_header_key),
    dispatch: {
      prefix: policy.state.policy.a2aPrefix,
      maxBodyBytes: config.a2a.max_dispatch_body_bytes,
      catalogue: createCatalogue({
        dispatcher: fresh.pool,
        basePath: fresh.basePath,
        token: config.auth.internal_service_token,
        identity: encodeIdentity(catalogueContext(identitySettings), identitySecret),
        identityToken: identityToken.signer,
        ttlSeconds: config.a2a.catalogue_ttl_seconds,
        // A catalogue read is a few small listings: it never needs a run's long time-out.
        timeoutMs: Math.min(config.upstream.timeout_ms, CATALOGUE_TIMEOUT_MS),
        clock: deps.clock,
      }),
    },
    telemetry,
    recorder: createRequestRecorder(
      policy.state.policy,
      telemetry.metrics,
      accessLogOf(telemetry.log, config.log),
      telemetry.tracer ?? null,
    ),
    limits: {
      body: {
        idleMs: config.listen.body_idle_timeout_ms,
        totalMs: config.listen.body_timeout_ms,
      },
      admission: {
        maxInFlightPerCaller: config.upstream.max_in_flight_per_principal,
        queueTimeoutMs: config.upstream.queue_timeout_ms,
      },
    },
  });
  return { state, policy, problems, warnings, devKeys, accounts, tls };
}

/**
 * Releases what a state holds: the upstream pool and the service-account store. For a single
 * state that is shutting down; a reloading gateway closes through its `StateSlot` instead
 * (config/reload.ts), since generations share the pool and the store.
 */
export async function closeGatewayState(state: GatewayState): Promise<void> {
  state.chain.remoteJwks?.close();
  await state.serviceAccounts?.close();
  await state.upstream.pool.close();
}

/**
 * Opens the service-account store, starts its change feed and builds the verifier when
 * `auth.service_accounts.enabled`. A store that cannot be opened (or a Postgres one refused for
 * its credentials, database or schema) is a start-up problem naming the key; a Postgres server
 * that cannot be reached yet is a warning: the store opens unavailable and keeps trying. `check`
 * only inspects an existing SQLite file read-only, and never opens anything.
 */
async function openAccounts(
  loaded: LoadedConfig,
  deps: AssembleDeps,
  problems: Problem[],
  warnings: Problem[],
): Promise<OpenServiceAccounts | null> {
  const settings = loaded.config.auth.service_accounts;
  if (!settings.enabled) return null;
  const { cluster } = loaded.config;
  const location = parseStoreLocation(settings.store, (p) => loaded.resolvePath(p));
  const problemOf = (message: string, key = 'auth.service_accounts.store'): Problem => ({
    file: loaded.file,
    key,
    line: loaded.lineOf(key.split('.')),
    message,
  });
  if (cluster.feed_poll_ms >= cluster.max_staleness_ms) {
    problems.push(
      problemOf(
        `${cluster.feed_poll_ms} must be below cluster.max_staleness_ms (${cluster.max_staleness_ms}): ` +
          'otherwise the feed is never confirmed often enough for a cached verification to be used',
        'cluster.feed_poll_ms',
      ),
    );
    return null;
  }
  if (deps.checkOnly === true) {
    const problem = location.kind === 'sqlite' ? inspectServiceAccountStore(location.path) : null;
    if (problem !== null) problems.push(problemOf(problem));
    return null;
  }
  const cacheTtlSeconds = settings.cache_ttl_seconds;
  const previous = deps.previousAccounts;
  // A store that lost its file (removed, replaced, unreadable) or keeps failing is reopened: a
  // reload is how an operator puts a restored file back in service.
  if (
    previous != null &&
    previous.store.location === location.printable &&
    previous.store.check()
  ) {
    if (previous.cacheTtlSeconds === cacheTtlSeconds) return previous;
    return withVerifier(previous.store, previous.feed, deps.clock, cacheTtlSeconds);
  }
  let store: ServiceAccountStore;
  try {
    store = await openServiceAccountStore({
      location,
      replicaId: cluster.replica_id ?? `${hostname()}-${process.pid}`,
      poolMax: cluster.pool_max,
      mode: 'serve',
    });
  } catch (err) {
    problems.push(problemOf((err as Error).message));
    return null;
  }
  const log = deps.telemetry?.log ?? null;
  const feed = await startChangeFeed({
    store,
    clock: deps.clock,
    pollMs: cluster.feed_poll_ms,
    maxStalenessMs: cluster.max_staleness_ms,
    onConnection(up) {
      if (up) log?.info({ store: location.printable }, 'service-account change feed listening');
      else
        log?.warn(
          { store: location.printable },
          'service-account change feed lost its connection; reconnecting (the poll goes on)',
        );
    },
  });
  if (!store.available) {
    warnings.push({
      ...problemOf(
        `service-account store '${location.printable}' cannot be reached yet; service-account ` +
          'tokens get 503 until it can (it is tried again with backoff)',
      ),
      code: 'SGWRN011',
    });
  }
  return withVerifier(store, feed, deps.clock, cacheTtlSeconds);
}

/** A verifier over `store`, subscribed to its feed. */
function withVerifier(
  store: ServiceAccountStore,
  feed: ChangeFeed,
  clock: Clock,
  cacheTtlSeconds: number,
): OpenServiceAccounts {
  const verifier = createServiceAccountVerifier({ store, feed, clock, cacheTtlSeconds });
  return { store, feed, verifier, subscription: feed.subscribe(verifier), cacheTtlSeconds };
}

/** Warnings about settings that weaken or limit authentication, each with its code. */
function modeWarnings(loaded: LoadedConfig): Problem[] {
  const { auth, listen } = loaded.config;
  const at = (key: string, message: string, code: string): Problem => ({
    file: loaded.file,
    key: `auth.${key}`,
    line: loaded.lineOf(['auth', key]),
    message,
    code,
  });
  const out: Problem[] = [];
  if (!auth.validate) {
    out.push(
      at(
        'validate',
        'JWT signatures and expiry are NOT checked: anyone can forge a token (development only)',
        'SGWRN007',
      ),
    );
  }
  listen.trusted_proxies.forEach((entry, i) => {
    // A /0 range trusts every peer: any client can then state its own address and host.
    if ((parseCidr(entry) as Cidr).prefix !== 0) return;
    out.push({
      file: loaded.file,
      key: `listen.trusted_proxies[${i}]`,
      line: loaded.lineOf(['listen', 'trusted_proxies', i]),
      message:
        'trusts every peer: any client can set its own address (the throttle key, client_ip) ' +
        'and the X-Forwarded-Host and -Proto the upstream sees; list only your load balancers',
      code: 'SGWRN009',
    });
  });
  return out;
}

/**
 * `check` with `auth.jwks_url: discover`: one fetch of the configuration and the set it names.
 * A note with the set's URL, or the start-up warning `serve` would print.
 */
async function discoverForCheck(loaded: LoadedConfig, remote: RemoteJwks): Promise<Problem> {
  await remote.start();
  remote.close();
  if (!remote.ready()) return jwksUnavailable(loaded, remote);
  return {
    file: loaded.file,
    key: 'auth.jwks_url',
    line: loaded.lineOf(['auth', 'jwks_url']),
    message: `discovered: the JWK set is at ${String(remote.keysUrl())} (from ${remote.url})`,
  };
}

/** No identity token (none configured, or a state that will not be built). */
const NO_IDENTITY_TOKEN = Object.freeze({ ring: null, signer: null, problem: null });

/**
 * The `auth.jwks_url` hooks with the document listener set to the fetch counter: every document
 * fetched is counted in `scopegate_jwks_fetches_total`.
 */
function jwksHooksOf(hooks: RemoteJwksHooks | undefined, metrics: GatewayMetrics): RemoteJwksHooks {
  return { ...hooks, onDocument: (document, result) => metrics.countJwksFetch(document, result) };
}

/** SGWRN008: the JWKS of `auth.jwks_url` could not be fetched at start. */
function jwksUnavailable(loaded: LoadedConfig, remote: RemoteJwks): Problem {
  const retry = remote.options.cooldownMs / 1000;
  return {
    file: loaded.file,
    key: 'auth.jwks_url',
    line: loaded.lineOf(['auth', 'jwks_url']),
    message:
      `the JWK set cannot be fetched (${String(remote.lastError())}): tokens that need its keys ` +
      `are refused (401) and readiness says not ready until a fetch succeeds; retried every ${retry} s`,
    code: 'SGWRN008',
  };
}

/**
 * Keeps the previous pool (and its warm connections) when the upstream did not change. A new pool
 * keeps the previous callers' counts: requests in flight on the old pool still count.
 */
function createUpstreamIfChanged(
  url: string,
  timeoutMs: number,
  maxConnections: number,
  previous: Upstream | undefined,
): Upstream {
  const next = new URL(url);
  const samePlace =
    previous !== undefined &&
    previous.origin === next.origin &&
    previous.basePath === next.pathname.replace(/\/+$/, '') &&
    previous.timeoutMs === timeoutMs &&
    previous.maxConnections === maxConnections;
  return samePlace ? previous : createUpstream(url, timeoutMs, maxConnections, previous?.callers);
}

/** `auth.verification_keys[2]` → `['auth', 'verification_keys', 2]`, for line look-ups. */
function keyPathOf(key: string): (string | number)[] {
  return key
    .split(/\.|\[(\d+)\]/)
    .filter((p) => p !== undefined && p !== '')
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
}
