/**
 * CORS policy: origins compiled once, compared after lower-casing
 * scheme and host, `null` only when listed; the response headers of an allowed origin; which
 * upstream headers are CORS headers.
 */
import t from 'tap';
import {
  createCorsPolicy,
  isAllowedOrigin,
  isCorsResponseHeader,
  responseHeadersOf,
} from '../../src/gateway/cors.js';

t.test('origins compare exactly after lower-casing scheme and host', async (t) => {
  const policy = createCorsPolicy(['https://App.Example.com:8443', 'null'], 'Authorization');
  const rows: [string, boolean][] = [
    ['https://app.example.com:8443', true],
    ['HTTPS://APP.EXAMPLE.COM:8443', true],
    ['https://app.example.com', false],
    ['https://app.example.com:8443/', false],
    ['http://app.example.com:8443', false],
    ['null', true],
    ['', false],
  ];
  for (const [origin, allowed] of rows) t.equal(isAllowedOrigin(policy, origin), allowed, origin);
  t.equal(isAllowedOrigin(createCorsPolicy(['https://a.example'], 'Authorization'), 'null'), false);
});

t.test('an empty list is no CORS at all', async (t) => {
  const policy = createCorsPolicy([], 'Authorization');
  t.equal(policy.enabled, false);
  t.equal(isAllowedOrigin(policy, 'null'), false);
  t.same(responseHeadersOf(policy, 'https://a.example', 'r-1'), { 'x-request-id': 'r-1' });
});

t.test('the fixed allow-headers list names the token header once', async (t) => {
  t.equal(
    createCorsPolicy(['null'], 'authorization').allowHeaders,
    'Authorization, Content-Type, X-Agent-ID, X-Request-ID',
  );
  t.equal(
    createCorsPolicy(['null'], 'X-Api-Key').allowHeaders,
    'Authorization, Content-Type, X-Agent-ID, X-Request-ID, X-Api-Key',
  );
  const policy = createCorsPolicy(['null'], 'Authorization');
  t.equal(policy.allowMethods, 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
  t.equal(policy.maxAgeSeconds, '600');
  t.ok(Object.isFrozen(policy));
});

t.test('response headers: the origin echoed as sent, only when allowed', async (t) => {
  const policy = createCorsPolicy(['https://app.example.com'], 'Authorization');
  t.same(responseHeadersOf(policy, 'https://APP.example.com', 'r-2'), {
    'x-request-id': 'r-2',
    'access-control-allow-origin': 'https://APP.example.com',
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': 'WWW-Authenticate, X-Request-ID',
    vary: 'Origin',
  });
  t.same(responseHeadersOf(policy, undefined, 'r-3'), { 'x-request-id': 'r-3' });
  t.same(responseHeadersOf(policy, 'https://evil.example.com', 'r-4'), { 'x-request-id': 'r-4' });
});

t.test('isCorsResponseHeader: access-control-* names only', async (t) => {
  t.equal(isCorsResponseHeader('access-control-allow-origin'), true);
  t.equal(isCorsResponseHeader('access-control-max-age'), true);
  t.equal(isCorsResponseHeader('access-control-'), false);
  t.equal(isCorsResponseHeader('vary'), false);
  t.equal(isCorsResponseHeader('x-access-control-allow-origin'), false);
});
