/**
 * Reads the bearer token from the configured header and/or cookie.
 * Never checks a token, and never logs or returns anything but the token itself.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { TokenSource } from './settings.js';

/** Where a credential was expected, for the missing-credential answer. */
export type ExpectedSource = 'header' | 'cookie' | 'header_or_cookie';

/** The token and where it came from, or where one was expected. */
export type Extracted =
  | { readonly ok: true; readonly token: string; readonly from: 'header' | 'cookie' }
  | { readonly ok: false; readonly expected: ExpectedSource };

/** The settings token extraction reads. */
export interface ExtractSettings {
  readonly token_source: TokenSource;
  readonly token_header_key: string;
  readonly cookie_name: string;
}

// `Bearer` then at least one space or tab, then the token; the scheme is case-insensitive
// (RFC 9110 §11.1). A value that does not start with the scheme is taken as the bare token.
const BEARER = /^bearer(?:[ \t]+|$)/i;

const EXPECTED: Readonly<Record<TokenSource, ExpectedSource>> = {
  HEADER: 'header',
  COOKIE: 'cookie',
  BOTH: 'header_or_cookie',
};

/**
 * The token in a header value: `Bearer <token>` or the bare token, trimmed. `Bearer` with
 * nothing after it, and an empty value, hold no token: undefined.
 */
export function tokenFromHeaderValue(
  value: string | readonly string[] | undefined,
): string | undefined {
  // Node joins repeated custom headers with ", " and keeps one Authorization; a list only
  // reaches here through a hand-built headers object, and its first entry is the one sent first.
  const raw = typeof value === 'string' ? value : value?.[0];
  if (raw === undefined) return undefined;
  const trimmed = raw.trim();
  const match = BEARER.exec(trimmed);
  const token = match === null ? trimmed : trimmed.slice(match[0].length).trim();
  return token === '' ? undefined : token;
}

/**
 * The value of the first cookie called `name` in a `Cookie` header (RFC 6265 §5.4: pairs split
 * on `;`, names compared exactly). Surrounding whitespace and one pair of enclosing double
 * quotes are removed; nothing is URL-decoded, since RFC 6265 defines no decoding. An empty value
 * is no cookie: undefined.
 */
export function cookieValue(
  header: string | readonly string[] | undefined,
  name: string,
): string | undefined {
  if (header === undefined) return undefined;
  const text = typeof header === 'string' ? header : header.join('; ');
  for (const pair of text.split(';')) {
    const eq = pair.indexOf('=');
    if (eq === -1 || pair.slice(0, eq).trim() !== name) continue;
    let value = pair.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"'))
      value = value.slice(1, -1);
    return value === '' ? undefined : value;
  }
  return undefined;
}

/**
 * Builds the token extractor for `token_source`. Everything that depends on the settings is
 * fixed here; the returned function is the per-request hot path. With `BOTH`, the first source
 * present is the one used (header first), so an invalid header token is never rescued by a
 * cookie; an empty header, or `Bearer` alone, counts as absent.
 */
export function createTokenExtractor(
  settings: ExtractSettings,
): (headers: IncomingHttpHeaders) => Extracted {
  // Node lower-cases incoming header names, so one lower-cased lookup is case-insensitive.
  const headerName = settings.token_header_key.toLowerCase();
  const cookieName = settings.cookie_name;
  const missing: Extracted = Object.freeze({
    ok: false,
    expected: EXPECTED[settings.token_source],
  });
  const fromHeader = (headers: IncomingHttpHeaders): Extracted | undefined => {
    const token = tokenFromHeaderValue(headers[headerName]);
    return token === undefined ? undefined : { ok: true, token, from: 'header' };
  };
  const fromCookie = (headers: IncomingHttpHeaders): Extracted | undefined => {
    const token = cookieValue(headers.cookie, cookieName);
    return token === undefined ? undefined : { ok: true, token, from: 'cookie' };
  };
  switch (settings.token_source) {
    case 'HEADER':
      return (headers) => fromHeader(headers) ?? missing;
    case 'COOKIE':
      return (headers) => fromCookie(headers) ?? missing;
    case 'BOTH':
      return (headers) => fromHeader(headers) ?? fromCookie(headers) ?? missing;
  }
}
