/**
 * The JSON-lines logger: one object a line with a word level and an ISO time, levels honoured,
 * and `redact` censoring header objects and credential-named fields at two depths.
 */
import t from 'tap';
import { openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  batchedDestination,
  createLogger,
  lineWriterOf,
  LOG_BATCH_BYTES,
  REDACTED,
} from '../../src/shared/log.js';
import { captureLog } from '../fixtures/observability.js';

t.test('one JSON object a line: level as a word, epoch-ms time, pid and hostname', async (t) => {
  const capture = captureLog();
  const log = createLogger({ destination: capture });
  log.info({ route: '/agents/*' }, 'request completed');
  log.error({ status: 502 }, 'request completed');
  log.debug('not written at info');
  const [info, error, ...rest] = capture.lines();
  t.match(info, {
    level: 'info',
    time: Number,
    pid: process.pid,
    hostname: String,
    route: '/agents/*',
    msg: 'request completed',
  });
  t.match(error, { level: 'error', status: 502 });
  t.same(rest, [], 'debug is below info');
  t.ok(capture.text().endsWith('\n'), 'newline-terminated');
});

t.test(
  "a line writer writes pino's line for the same fields, onto the same destination",
  async (t) => {
    const viaPino = captureLog();
    const direct = captureLog();
    const fields = {
      req_id: 'r-1',
      path: '/a"b\\c\n</script>\u2028',
      status: 200,
      latency_ms: 0.125,
      upstream_latency_ms: null,
      aborted: false,
      held_scopes: ['agents:read'],
    };
    createLogger({ destination: viaPino }).info(fields, 'request completed');
    const write = lineWriterOf(createLogger({ destination: direct }).child({}, { level: 'info' }));
    write('info', fields, 'request completed');
    write('error', {}, 'request aborted');
    const [line, bare, ...rest] = direct.lines();
    const [reference] = viaPino.lines();
    t.same(
      { ...line, time: 0 },
      { ...reference, time: 0 },
      'the same object as pino writes (but its time)',
    );
    t.same(Object.keys(line ?? {}), Object.keys(reference ?? {}), 'the same field order');
    t.match(bare, { level: 'error', pid: process.pid, hostname: String, msg: 'request aborted' });
    t.same(rest, []);
    t.equal(direct.text().split('\n').length, 3, 'one line each, newline-terminated');
  },
);

t.test('the level is honoured; silent writes nothing', async (t) => {
  const warn = captureLog();
  const atWarn = createLogger({ level: 'warn', destination: warn });
  atWarn.info('dropped');
  atWarn.warn('kept');
  t.same(
    warn.lines().map((l) => l['msg']),
    ['kept'],
  );
  const silent = captureLog();
  createLogger({ level: 'silent', destination: silent }).fatal('dropped');
  t.equal(silent.text(), '');
});

t.test('header objects and credential-named fields are censored', async (t) => {
  const capture = captureLog();
  const log = createLogger({ destination: capture });
  const secret = 'eyJhbGciOiJIUzI1NiJ9.secret-token-text';
  const headers = { authorization: `Bearer ${secret}`, cookie: `access_token=${secret}` };
  log.info({
    headers,
    req: { headers, method: 'GET' },
    res: { headers: { 'set-cookie': secret }, statusCode: 200 },
    err: { headers, message: 'upstream failed' },
    request: { headers },
    response: { headers },
    authorization: secret,
    cookie: secret,
    'set-cookie': secret,
    token: secret,
    access_token: secret,
    security_key: secret,
    secret,
    keep: 'visible',
  });
  t.notMatch(capture.text(), secret, 'the secret is nowhere in the line');
  t.same(headers.authorization, `Bearer ${secret}`, 'the logged object itself is left intact');
  t.match(capture.lines()[0], {
    headers: REDACTED,
    req: { headers: REDACTED, method: 'GET' },
    res: { headers: REDACTED, statusCode: 200 },
    err: { headers: REDACTED, message: 'upstream failed' },
    request: { headers: REDACTED },
    response: { headers: REDACTED },
    authorization: REDACTED,
    cookie: REDACTED,
    'set-cookie': REDACTED,
    token: REDACTED,
    access_token: REDACTED,
    security_key: REDACTED,
    secret: REDACTED,
    keep: 'visible',
  });
});

t.test('the batched destination holds short lines, then writes them in one go', async (t) => {
  const file = join(t.testdir(), 'out.log');
  const fd = openSync(file, 'w');
  const destination = batchedDestination(fd);
  t.teardown(() => destination.end());
  const log = createLogger({ destination });
  log.info({ n: 1 }, 'held');
  t.equal(readFileSync(file, 'utf8'), '', 'one short line is held, not written');
  // Within LOG_FLUSH_MS the periodic flush writes it, with nothing else happening.
  while (readFileSync(file, 'utf8') === '') await new Promise((r) => setTimeout(r, 50));
  t.match(JSON.parse(readFileSync(file, 'utf8')), { n: 1, msg: 'held' });

  const filler = 'x'.repeat(1024);
  const lines = Math.ceil(LOG_BATCH_BYTES / filler.length) + 1;
  for (let i = 0; i < lines; i++) log.info({ filler }, 'batch');
  // A full batch is handed to write(2) at once, before any timer.
  while (readFileSync(file, 'utf8').split('\n').length < 3) {
    await new Promise((r) => setImmediate(r));
  }
  destination.flushSync();
  t.equal(readFileSync(file, 'utf8').trimEnd().split('\n').length, lines + 1, 'every line');
});
