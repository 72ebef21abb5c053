/**
 * The process's JSON-lines logger (pino), written to stdout unless a destination is injected
 * (tests). Callers never log header objects, tokens, keys or cookie values; `redact` is the
 * second line of defence should a header object or a credential field reach a log call anyway.
 */
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger } from 'pino';

/** The levels `log.level` may name, most severe first; `silent` writes nothing. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** One of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Censored wherever they appear: header objects at the top level and under the usual request,
 * response and error keys, and every top-level field named like a credential. Exact paths only:
 * a wildcard (`*.token`) makes pino walk every field of every line, several times the cost of
 * writing the line itself, and the access log never carries such objects in the first place.
 */
export const REDACTED_FIELDS: readonly string[] = [
  'headers',
  'req.headers',
  'res.headers',
  'err.headers',
  'request.headers',
  'response.headers',
  'authorization',
  'cookie',
  'set-cookie',
  'token',
  'access_token',
  'security_key',
  'secret',
];

/** What replaces a redacted value. */
export const REDACTED = '[redacted]';

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  readonly level?: LogLevel;
  /** Where lines go (default: stdout, written asynchronously in batches). */
  readonly destination?: DestinationStream;
}

/**
 * Builds a logger: one JSON object per line with `level` as a word, `time` in epoch
 * milliseconds (pino's default: cheaper than formatting a date on every line), `pid` and
 * `hostname`. Stdout is written asynchronously, so a request never waits for a `write(2)` (lines
 * written while one is in flight go out together); pino flushes what is left when the process
 * exits, however it exits.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: [...REDACTED_FIELDS], censor: REDACTED },
    },
    options.destination ?? pino.destination({ dest: 1, sync: false }),
  );
}
