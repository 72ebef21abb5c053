/**
 * The upstream's catalogue of agents, teams and workflows, read over HTTP (`GET /agents`,
 * `/teams`, `/workflows`) to resolve a dynamic-dispatch target's family.
 * Cached for `a2a.catalogue_ttl_seconds`; a miss refreshes it at most once, and concurrent
 * refreshes are one. Depends only on HTTP, never on the bundled runtime's internals; reads as the
 * internal identity the gateway signs for them (`catalogueContext`).
 */
import type { Dispatcher } from 'undici';
import { RESOURCE_FAMILIES, type ResourceFamily } from '../policy/scopes.js';
import type { Clock } from '../shared/clock.js';
import type { EncodedIdentity } from './identity.js';
import type { IdentityTokenSigner } from './identity-token/sign.js';

/** What a look-up found: the id's family, or why there is none. */
export type CatalogueAnswer = ResourceFamily | 'unknown' | 'unavailable';

/** The catalogue of one gateway state. */
export interface Catalogue {
  /**
   * The family of `id`: first of agents, teams, workflows. `unknown` when the upstream
   * does not list it even after a refresh; `unavailable` when the catalogue could not be read.
   */
  familyOf(id: string): Promise<CatalogueAnswer>;
}

/** Where and how the catalogue is read. */
export interface CatalogueOptions {
  /** The upstream's connection pool (shared with forwarding). */
  readonly dispatcher: Dispatcher;
  /** Path prefix of `upstream.url`, no trailing slash. */
  readonly basePath: string;
  /** `auth.internal_service_token`, sent as a Bearer token; null sends no credential. */
  readonly token: string | null;
  /**
   * The identity sent with every read (`x-auth-context`, and `x-auth-signature` when signed), as
   * on a forwarded request: an upstream that verifies contexts answers nothing without one.
   */
  readonly identity: EncodedIdentity;
  /**
   * `upstream.identity_token`: each refresh also carries the signer's assertion of `identity`
   * (signed afresh when due), so an upstream that verifies the token answers. Absent: none.
   */
  readonly identityToken?: IdentityTokenSigner | null | undefined;
  readonly ttlSeconds: number;
  /** Bound on each catalogue request (headers and body). */
  readonly timeoutMs: number;
  readonly clock: Clock;
}

interface Snapshot {
  readonly fetchedAt: number;
  readonly families: ReadonlyMap<string, ResourceFamily>;
}

/** Builds a catalogue; nothing is fetched until the first look-up. */
export function createCatalogue(options: CatalogueOptions): Catalogue {
  const ttlMs = options.ttlSeconds * 1000;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.token !== null) headers['authorization'] = `Bearer ${options.token}`;
  headers['x-auth-context'] = options.identity.value;
  if (options.identity.signature !== null) headers['x-auth-signature'] = options.identity.signature;
  if (options.identity.scopesHeader !== null)
    headers['x-auth-scopes'] = options.identity.scopesHeader;
  let snapshot: Snapshot | null = null;
  let refreshing: Promise<Snapshot | null> | null = null;

  // One refresh at a time: every look-up that needs one while it runs waits for the same one.
  const signer = options.identityToken ?? null;
  const refresh = (): Promise<Snapshot | null> => {
    const sent =
      signer === null
        ? headers
        : {
            ...headers,
            [signer.header]: signer.tokenFor(options.identity.context, options.identity.value),
          };
    refreshing ??= fetchSnapshot(options, sent).then(
      (fresh) => {
        refreshing = null;
        snapshot = fresh;
        return fresh;
      },
      () => {
        refreshing = null;
        return null;
      },
    );
    return refreshing;
  };

  return {
    async familyOf(id) {
      const current = snapshot;
      if (current !== null && options.clock.now() - current.fetchedAt < ttlMs) {
        const family = current.families.get(id);
        if (family !== undefined) return family;
      }
      // Expired, never read, or a miss (the entity may be new): read once more, then answer.
      const fresh = await refresh();
      if (fresh === null) return 'unavailable';
      return fresh.families.get(id) ?? 'unknown';
    },
  };
}

/** Reads the three listings; throws when any cannot be read. */
async function fetchSnapshot(
  options: CatalogueOptions,
  headers: Readonly<Record<string, string>>,
): Promise<Snapshot> {
  const fetchedAt = options.clock.now();
  const lists = await Promise.all(
    RESOURCE_FAMILIES.map((family) => fetchIds(options, headers, family)),
  );
  const families = new Map<string, ResourceFamily>();
  RESOURCE_FAMILIES.forEach((family, i) => {
    // The first family that lists an id wins (agents, teams, workflows: the reference's order).
    for (const id of lists[i] as readonly string[]) if (!families.has(id)) families.set(id, family);
  });
  return { fetchedAt, families };
}

/**
 * The ids one listing names. A 404 means the upstream hosts no such family; any other non-200,
 * or a body that is not a JSON array of objects (or `{"data": [...]}`), is a failure.
 */
async function fetchIds(
  options: CatalogueOptions,
  headers: Readonly<Record<string, string>>,
  family: ResourceFamily,
): Promise<readonly string[]> {
  const { statusCode, body } = await options.dispatcher.request({
    path: `${options.basePath}/${family}`,
    method: 'GET',
    headers,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
  if (statusCode !== 200) {
    await body.dump();
    if (statusCode === 404) return [];
    throw new Error(`GET /${family} answered ${statusCode}`);
  }
  const parsed: unknown = await body.json();
  const items = Array.isArray(parsed) ? parsed : dataOf(parsed);
  if (items === null) throw new Error(`GET /${family} is not a list`);
  const ids: string[] = [];
  for (const item of items) {
    const id = (item as { id?: unknown } | null)?.id;
    if (typeof id === 'string') ids.push(id);
  }
  return ids;
}

function dataOf(value: unknown): readonly unknown[] | null {
  const data = (value as { data?: unknown } | null)?.data;
  return Array.isArray(data) ? data : null;
}
