/**
 * Parses route patterns (`METHOD /a/*\/b/{id}/**`) and method-less path patterns into segments.
 * Pure: no I/O. Never accepts a pattern it cannot match exactly as documented in docs/policy.md.
 */

/** Methods a pattern may name. HEAD is authorized as GET, so it is never mapped itself. */
export const PATTERN_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export type PatternMethod = (typeof PATTERN_METHODS)[number];

/** One compiled segment: a literal, a one-segment wildcard, or the trailing `**`. */
export type Segment =
  | { readonly kind: 'literal'; readonly value: string }
  | { readonly kind: 'param'; readonly name: string | null }
  | { readonly kind: 'glob' };

/** A parsed path pattern. `canonical` spells every one-segment wildcard as `*`. */
export interface PathPattern {
  readonly segments: readonly Segment[];
  readonly canonical: string;
}

/** A parsed route pattern: method plus path. */
export interface RoutePattern extends PathPattern {
  readonly method: PatternMethod;
  /** The pattern as written (after `{prefix}` substitution). */
  readonly text: string;
  /** `METHOD canonical-path`: the identity used for merging and duplicate detection. */
  readonly key: string;
}

export type ParseResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

/** The placeholder a2a.yaml patterns start with; replaced by `a2a.prefix`. */
export const PREFIX_PLACEHOLDER = '{prefix}';

const PARAM = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/;
// Characters a literal segment may not hold: either they have a meaning in patterns, or a request
// path containing them is refused before matching (so the literal could never match).
const FORBIDDEN_IN_LITERAL = /[\s*{}%?#\\;\u0000]/;

function fail<T>(message: string): ParseResult<T> {
  return { ok: false, message };
}

/**
 * Parses a method-less path pattern such as `/public/**` (used for `excluded_route_paths` and as
 * the path half of a route pattern). `prefix` replaces a leading `{prefix}`.
 */
export function parsePathPattern(path: string, prefix = '/a2a'): ParseResult<PathPattern> {
  const text = substitutePrefix(path, prefix);
  if (!text.startsWith('/')) return fail(`path must start with "/" (got ${JSON.stringify(path)})`);
  if (text === '/') return { ok: true, value: { segments: [], canonical: '/' } };
  if (text.endsWith('/'))
    return fail('trailing "/" is not allowed (request paths drop it before matching)');
  const raw = text.slice(1).split('/');
  const segments: Segment[] = [];
  for (let i = 0; i < raw.length; i++) {
    const part = raw[i] as string;
    if (part === '') return fail('empty segment ("//") is not allowed');
    if (part === '**') {
      if (i !== raw.length - 1) return fail('"**" is only allowed as the last segment');
      segments.push({ kind: 'glob' });
      continue;
    }
    if (part === '*') {
      segments.push({ kind: 'param', name: null });
      continue;
    }
    if (part === PREFIX_PLACEHOLDER)
      return fail('"{prefix}" is only allowed at the start of a path');
    const param = PARAM.exec(part);
    if (param) {
      segments.push({ kind: 'param', name: param[1] as string });
      continue;
    }
    if (part === '.' || part === '..') return fail(`dot segment "${part}" is not allowed`);
    const bad = FORBIDDEN_IN_LITERAL.exec(part);
    if (bad) {
      return fail(
        `segment ${JSON.stringify(part)} contains ${JSON.stringify(bad[0])}: ` +
          'a segment is a literal, "*", "{name}" or a final "**"',
      );
    }
    segments.push({ kind: 'literal', value: part });
  }
  return { ok: true, value: { segments, canonical: canonicalPath(segments) } };
}

/** Parses `METHOD /path` (one or more spaces between). */
export function parseRoutePattern(pattern: string, prefix = '/a2a'): ParseResult<RoutePattern> {
  const match = /^([A-Za-z]+)\s+(\S+)$/.exec(pattern.trim());
  if (!match) return fail('expected "METHOD /path", e.g. "GET /agents/*"');
  const method = match[1] as string;
  const upper = method.toUpperCase();
  if (upper === 'HEAD') return fail('HEAD is authorized as GET: map "GET" instead');
  if (method !== upper || !(PATTERN_METHODS as readonly string[]).includes(upper)) {
    return fail(
      `method must be one of ${PATTERN_METHODS.join(', ')} in upper case (got "${method}")`,
    );
  }
  const written = substitutePrefix(match[2] as string, prefix);
  const path = parsePathPattern(written, prefix);
  if (!path.ok) return path;
  const m = upper as PatternMethod;
  return {
    ok: true,
    value: {
      ...path.value,
      method: m,
      text: `${m} ${written}`,
      key: `${m} ${path.value.canonical}`,
    },
  };
}

/** Replaces a leading `{prefix}` with the configured A2A prefix. */
export function substitutePrefix(path: string, prefix: string): string {
  return path.startsWith(PREFIX_PLACEHOLDER)
    ? prefix + path.slice(PREFIX_PLACEHOLDER.length)
    : path;
}

/** Spells segments back as a path, every one-segment wildcard as `*`. */
export function canonicalPath(segments: readonly Segment[]): string {
  if (segments.length === 0) return '/';
  let out = '';
  for (const s of segments)
    out += '/' + (s.kind === 'literal' ? s.value : s.kind === 'param' ? '*' : '**');
  return out;
}
