/**
 * Stage 1: the request target → decoded path segments, the path to forward, and the query.
 * Runs before any credential is looked at, so a malformed path is 400 for every caller.
 * Never rewrites the path beyond dropping one trailing slash.
 */
import { reject, type Verdict } from '../rejections.js';

/** A normalized request target. */
export interface NormalizedPath {
  /** The path to forward: as received, minus one trailing slash; decodes to exactly `segments`. */
  readonly path: string;
  /** Decoded segments, matched case-sensitively against the policy. `/` is `[]`. */
  readonly segments: readonly string[];
  /** The query string including its `?`, forwarded untouched; `''` when there is none. */
  readonly query: string;
}

// Raw characters refused anywhere in the path: backslash, NUL, ';' and '#'.
const FORBIDDEN_RAW = /[\\\u0000;#]/;
// Encoded '/', '\' and NUL, any case: a segment must never decode into a separator.
const ENCODED_SEPARATOR = /%(?:2f|5c|00)/i;
// '%25' followed by two hex digits decodes to another escape: double encoding.
const DOUBLE_ENCODED = /%25[0-9a-f]{2}/i;
const ESCAPE = /%[0-9a-f]{2}/i;
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/**
 * Normalizes a request target (origin-form, or absolute-form whose authority is ignored: the
 * request still goes only to the configured upstream).
 */
export function normalizePath(target: string): Verdict<NormalizedPath> {
  let rest = target;
  const absolute = ABSOLUTE_FORM.exec(rest);
  if (absolute) {
    rest = rest.slice(absolute[0].length);
    if (!rest.startsWith('/')) rest = '/' + rest;
  }
  const q = rest.indexOf('?');
  const query = q === -1 ? '' : rest.slice(q);
  let path = q === -1 ? rest : rest.slice(0, q);
  if (!path.startsWith('/')) return reject('SG_ERR_PATH_NOT_ORIGIN_FORM');
  if (FORBIDDEN_RAW.test(path)) return reject('SG_ERR_PATH_FORBIDDEN_CHARACTER');
  const encoded = path.includes('%');
  if (encoded) {
    if (ENCODED_SEPARATOR.test(path)) return reject('SG_ERR_PATH_ENCODED_SEPARATOR');
    if (DOUBLE_ENCODED.test(path)) return reject('SG_ERR_PATH_DOUBLE_ENCODED');
  }
  // Empty segments are refused before the one trailing slash is dropped, so `//` is 400, not `/`.
  if (path.includes('//')) return reject('SG_ERR_PATH_EMPTY_SEGMENT');
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  if (path === '/') return { ok: true, value: { path, segments: [], query } };
  const raw = path.slice(1).split('/');
  const segments: string[] = new Array(raw.length);
  for (let i = 0; i < raw.length; i++) {
    let segment = raw[i] as string;
    if (encoded && segment.includes('%')) {
      try {
        segment = decodeURIComponent(segment);
      } catch {
        return reject('SG_ERR_PATH_INVALID_ENCODING');
      }
      // A segment that still holds an escape after one decoding was encoded twice (`%25%32%46`
      // → `%2F`): an upstream that decodes again would see a different path than we authorized.
      if (ESCAPE.test(segment)) return reject('SG_ERR_PATH_DOUBLE_ENCODED');
    }
    if (segment === '.' || segment === '..') return reject('SG_ERR_PATH_DOT_SEGMENT');
    segments[i] = segment;
  }
  return { ok: true, value: { path, segments, query } };
}
