/**
 * The preflight stage: what is a preflight, the 204 answer for an allowed origin (echoing a
 * well-formed Access-Control-Request-Headers, else the fixed list) and the 403 for any other.
 */
import t from 'tap';
import { createCorsPolicy } from '../../../src/gateway/cors.js';
import { answerPreflight, isPreflight } from '../../../src/gateway/stages/preflight.js';

const POLICY = createCorsPolicy(['https://app.example.com'], 'Authorization');
const FIXED = 'Authorization, Content-Type, X-Agent-ID, X-Request-ID';

t.test('a preflight is OPTIONS with Origin and Access-Control-Request-Method', async (t) => {
  const full = { origin: 'https://a.example', 'access-control-request-method': 'POST' };
  t.equal(isPreflight('OPTIONS', full), true);
  t.equal(isPreflight('GET', full), false);
  t.equal(isPreflight('OPTIONS', { origin: 'https://a.example' }), false);
  t.equal(isPreflight('OPTIONS', { 'access-control-request-method': 'POST' }), false);
});

t.test('an allowed origin gets 204 with the preflight headers', async (t) => {
  const rows: [string | undefined, string][] = [
    [undefined, FIXED],
    ['x-agent-id', 'x-agent-id'],
    [' Authorization , X-Agent-ID ', 'Authorization , X-Agent-ID'],
    ['authorization,\tcontent-type', 'authorization,\tcontent-type'],
    ['', FIXED],
    ['a,,b', FIXED],
    ['x-a, x-b:', FIXED],
  ];
  for (const [requested, allowed] of rows) {
    const verdict = answerPreflight(POLICY, {
      origin: 'https://app.example.com',
      'access-control-request-method': 'PUT',
      ...(requested === undefined ? {} : { 'access-control-request-headers': requested }),
    });
    t.same(
      verdict,
      {
        ok: true,
        value: {
          status: 204,
          headers: {
            'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
            'access-control-allow-headers': allowed,
            'access-control-max-age': '600',
            vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
          },
        },
      },
      JSON.stringify(requested),
    );
  }
});

t.test('any other origin is SG_ERR_CORS_ORIGIN_NOT_ALLOWED', async (t) => {
  t.same(
    answerPreflight(POLICY, {
      origin: 'https://evil.example.com',
      'access-control-request-method': 'GET',
    }),
    { ok: false, code: 'SG_ERR_CORS_ORIGIN_NOT_ALLOWED' },
  );
  t.same(
    answerPreflight(createCorsPolicy([], 'Authorization'), {
      origin: 'https://app.example.com',
      'access-control-request-method': 'GET',
    }),
    { ok: false, code: 'SG_ERR_CORS_ORIGIN_NOT_ALLOWED' },
    'an empty list allows nobody',
  );
});
