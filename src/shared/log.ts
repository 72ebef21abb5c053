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

/**
 * Stdout lines are held until this many bytes are waiting, then written in one `write(2)`: at
 * low load a write per line costs a thread-pool round trip and two context switches per request.
 */
export const LOG_BATCH_BYTES = 16 * 1024;

/** Held lines are written at least this often (ms), however few they are. */
export const LOG_FLUSH_MS = 1000;

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  readonly level?: LogLevel;
  /**
   * Where lines go (default: stdout, batched: {@link LOG_BATCH_BYTES} or {@link LOG_FLUSH_MS},
   * whichever comes first).
   */
  readonly destination?: DestinationStream;
}

/**
 * Builds a logger: one JSON object per line with `level` as a word, `time` in epoch
 * milliseconds (pino's default: cheaper than formatting a date on every line), `pid` and
 * `hostname`. Stdout is written asynchronously and in batches, so a request never waits for a
 * `write(2)` and a quiet gateway does not pay one per line: a line reaches stdout within
 * {@link LOG_FLUSH_MS}. What is held is written when the process exits, however it exits
 * (except SIGKILL).
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: [...REDACTED_FIELDS], censor: REDACTED },
    },
    options.destination ?? batchedDestination(),
  );
}

/** File descriptor `fd` (stdout by default), written asynchronously in batches (see {@link createLogger}). */
export function batchedDestination(fd = 1): DestinationStream {
  return pino.destination({
    dest: fd,
    sync: false,
    minLength: LOG_BATCH_BYTES,
    // sonic-boom needs each write's bound above the batch size.
    maxWrite: 4 * LOG_BATCH_BYTES,
    periodicFlush: LOG_FLUSH_MS,
  });
}
