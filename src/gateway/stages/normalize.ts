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

// Encoded '/', '\' and NUL, any case: a segment must never decode into a separator.
const ENCODED_SEPARATOR = /%(?:2f|5c|00)/i;
// '%25' followed by two hex digits decodes to another escape: double encoding.
const DOUBLE_ENCODED = /%25[0-9a-f]{2}/i;
const ESCAPE = /%[0-9a-f]{2}/i;
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

const SLASH = 0x2f;
const PERCENT = 0x25;
// What one pass over the path finds, as bits.
const FORBIDDEN = 1; // a raw backslash, NUL, ';' or '#'
const ENCODED = 2; // a '%'
const EMPTY_SEGMENT = 4; // "//"

/**
 * Normalizes a request target (origin-form, or absolute-form whose authority is ignored: the
 * request still goes only to the configured upstream).
 */
export function normalizePath(target: string): Verdict<NormalizedPath> {
  let rest = target;
  // Origin-form (the usual case) starts with '/': no absolute-form scheme to strip.
  if (rest.charCodeAt(0) !== SLASH) {
    const absolute = ABSOLUTE_FORM.exec(rest);
    if (absolute) {
      rest = rest.slice(absolute[0].length);
      if (!rest.startsWith('/')) rest = '/' + rest;
    }
  }
  const q = rest.indexOf('?');
  const query = q === -1 ? '' : rest.slice(q);
  let path = q === -1 ? rest : rest.slice(0, q);
  if (path.charCodeAt(0) !== SLASH) return reject('SG_ERR_PATH_NOT_ORIGIN_FORM');
  // One pass finds every character-level fault and counts the segments; the faults are then
  // reported in a fixed order, whatever their order in the path.
  let found = 0;
  let slashes = 0;
  for (let i = 0, previous = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c === SLASH) {
      slashes++;
      if (previous === SLASH) found |= EMPTY_SEGMENT;
    } else if (c === PERCENT) found |= ENCODED;
    else if (c === 0x5c || c === 0 || c === 0x3b || c === 0x23) found |= FORBIDDEN;
    previous = c;
  }
  if (found !== 0) {
    if (found & FORBIDDEN) return reject('SG_ERR_PATH_FORBIDDEN_CHARACTER');
    if (found & ENCODED) {
      if (ENCODED_SEPARATOR.test(path)) return reject('SG_ERR_PATH_ENCODED_SEPARATOR');
      if (DOUBLE_ENCODED.test(path)) return reject('SG_ERR_PATH_DOUBLE_ENCODED');
    }
    // Empty segments are refused before the one trailing slash is dropped, so `//` is 400, not `/`.
    if (found & EMPTY_SEGMENT) return reject('SG_ERR_PATH_EMPTY_SEGMENT');
  }
  if (path.length > 1 && path.charCodeAt(path.length - 1) === SLASH) {
    path = path.slice(0, -1);
    slashes--;
  }
  if (path.length === 1) return { ok: true, value: { path, segments: [], query } };
  const encoded = (found & ENCODED) !== 0;
  const segments: string[] = new Array(slashes);
  for (let i = 0, from = 1; i < slashes; i++) {
    const to = i === slashes - 1 ? path.length : path.indexOf('/', from);
    let segment = path.slice(from, to);
    from = to + 1;
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
