/**
 * Reads `auth.service_accounts.store`: `sqlite:<path>` (relative to the config's folder) or a
 * `postgres://` / `postgresql://` URL. Answers where the store is and how to print it: a URL's
 * password is never printed, in a log line or an error.
 */

/** A parsed store setting. */
export type StoreLocation =
  | {
      readonly kind: 'sqlite';
      /** The database file, resolved. */
      readonly path: string;
      /** What messages print: the path. */
      readonly printable: string;
    }
  | {
      readonly kind: 'postgres';
      /** The connection URL as configured (credentials included: never print it). */
      readonly url: string;
      /** What messages print: the URL with its password shown as `***`. */
      readonly printable: string;
    };

const SQLITE_PREFIX = 'sqlite:';
const POSTGRES_SCHEMES = new Set(['postgres:', 'postgresql:']);

/** The URL with any password replaced by `***`; a value that is not a URL is not printed at all. */
export function printableUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return '(unparsable URL)';
  }
  if (url.password !== '') url.password = '***';
  return url.href;
}

/**
 * Why `value` is not a store setting, or null when it is one. Checks the form only: the URL names
 * a host and a database, and carries no fragment.
 */
export function storeSettingProblem(value: string): string | null {
  if (value.startsWith(SQLITE_PREFIX)) {
    return value.length > SQLITE_PREFIX.length ? null : 'sqlite: needs a path, as in sqlite:data/gateway.db';
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be sqlite:<path> or a postgres://user:password@host:port/database URL';
  }
  if (!POSTGRES_SCHEMES.has(url.protocol)) {
    return `unknown scheme '${url.protocol}': must be sqlite:<path>, postgres:// or postgresql://`;
  }
  if (url.hostname === '') return `${printableUrl(value)}: the URL names no host`;
  if (url.pathname.length <= 1) return `${printableUrl(value)}: the URL names no database`;
  if (url.hash !== '') return `${printableUrl(value)}: a store URL takes no #fragment`;
  return null;
}

/**
 * Parses a setting {@link storeSettingProblem} accepts.
 *
 * @param resolvePath resolves a SQLite path against the config's folder
 */
export function parseStoreLocation(
  value: string,
  resolvePath: (path: string) => string,
): StoreLocation {
  if (value.startsWith(SQLITE_PREFIX)) {
    const path = resolvePath(value.slice(SQLITE_PREFIX.length));
    return { kind: 'sqlite', path, printable: path };
  }
  return { kind: 'postgres', url: value, printable: printableUrl(value) };
}
