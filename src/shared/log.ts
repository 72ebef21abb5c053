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

/** The levels a {@link LineWriter} writes at. */
export type LineLevel = 'info' | 'error';

/**
 * Writes one line in {@link createLogger}'s format (`level`, `time`, the logger's bindings, the
 * fields, `msg`) straight to the logger's destination. For the access log: a flat object whose
 * fields are fixed by the code and never credentials, so pino's per-field serializer and its
 * redaction pass (most of a line's cost) have nothing to do. The caller checks the level.
 */
export type LineWriter = (level: LineLevel, fields: object, msg: string) => void;

// Each level's line start, as createLogger's level formatter writes it.
const LINE_STARTS: Readonly<Record<LineLevel, string>> = {
  info: '{"level":"info","time":',
  error: '{"level":"error","time":',
};

/** A {@link LineWriter} onto `log`'s destination, with its bindings (`pid`, `hostname`, …). */
export function lineWriterOf(log: Logger): LineWriter {
  const internals = log as unknown as Record<symbol, unknown>;
  const stream = internals[pino.symbols.streamSym] as DestinationStream;
  // The bindings as pino serialized them once: `,"pid":…,"hostname":"…"`.
  const bindings = internals[pino.symbols.chindingsSym] as string;
  return (level, fields, msg) => {
    const body = JSON.stringify(fields);
    stream.write(
      LINE_STARTS[level] +
        Date.now() +
        bindings +
        (body.length > 2 ? ',' + body.slice(1, -1) : '') +
        ',"msg":' +
        JSON.stringify(msg) +
        '}\n',
    );
  };
}

/** A destination that holds lines: {@link batchedDestination}. */
export interface BatchedDestination extends DestinationStream {
  /** Writes what is held, and waits for it and anything in flight to reach the file. */
  flushSync(): void;
  /** Writes what is held, stops the timer and closes the stream. */
  end(): void;
}

/**
 * File descriptor `fd` (stdout by default), written asynchronously in batches (see
 * {@link createLogger}). Lines are held here, as a list, and handed to pino's asynchronous writer
 * as one string per batch: the writer measures the byte length of what it holds on every write,
 * which per line would cost the whole held batch each time.
 */
export function batchedDestination(fd = 1): BatchedDestination {
  const stream = pino.destination({ dest: fd, sync: false });
  let held: string[] = [];
  let heldLength = 0;
  const release = (): void => {
    if (heldLength === 0) return;
    const text = held.join('');
    held = [];
    heldLength = 0;
    stream.write(text);
  };
  const timer = setInterval(release, LOG_FLUSH_MS);
  timer.unref();
  // Whatever way the process exits (but SIGKILL), nothing held is lost.
  const atExit = (): void => {
    release();
    stream.flushSync();
  };
  process.once('exit', atExit);
  return {
    write(line: string): boolean {
      held.push(line);
      heldLength += line.length;
      if (heldLength >= LOG_BATCH_BYTES) release();
      return true;
    },
    flushSync: atExit,
    end() {
      clearInterval(timer);
      process.off('exit', atExit);
      release();
      stream.end();
    },
  };
}
