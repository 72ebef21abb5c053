import t from 'tap';
import {
  A2A_PREFIX_PATTERN,
  A2A_PREFIX_RULE,
  DEFAULT_A2A_PREFIX,
} from '../../src/shared/a2a-prefix.js';

t.test('the default prefix follows the rule', async (t) => {
  t.equal(DEFAULT_A2A_PREFIX, '/a2a');
  t.ok(A2A_PREFIX_PATTERN.test(DEFAULT_A2A_PREFIX));
});

t.test('prefixes that could match a normalized path pass; the rest are refused', async (t) => {
  const accepted = ['/a2a', '/api/a2a', '/a2a.v1', '/.well', '/...', '/a-b_c~1'];
  const refused = [
    '',
    '/',
    'a2a',
    '/a2a/',
    '//a2a',
    '/a b',
    '/a?b',
    '/a#b',
    '/a%2F',
    '/a*',
    '/{id}',
    '/a;b',
    '/a\\b',
    '/.',
    '/..',
    '/a/../b',
  ];
  for (const prefix of accepted) t.ok(A2A_PREFIX_PATTERN.test(prefix), `accepted: ${prefix}`);
  for (const prefix of refused) t.notOk(A2A_PREFIX_PATTERN.test(prefix), `refused: ${prefix}`);
  t.match(A2A_PREFIX_RULE, /^must be a path of one or more \/segments/);
});
