/**
 * The one rule for an A2A prefix, shared by the gateway's `a2a.prefix` and
 * the runtime's `a2a_prefix`, so both accept exactly the same paths. Pure.
 */

/** The prefix when none is configured. */
export const DEFAULT_A2A_PREFIX = '/a2a';

/**
 * One or more `/segment`s. Characters the path normalizer refuses (`;`, `\`, `#`), the query and
 * percent signs, pattern syntax and `.`/`..` segments could never match a normalized request
 * path, so a prefix holding them would silently route nothing.
 */
export const A2A_PREFIX_PATTERN = /^(?:\/(?!\.\.?(?:\/|$))[^/\s?#%*{};\\]+)+$/;

/** What a refused prefix is told. */
export const A2A_PREFIX_RULE =
  'must be a path of one or more /segments (like /a2a): no trailing slash, no whitespace, ' +
  'no ?#%*{};\\ characters, no . or .. segments';
