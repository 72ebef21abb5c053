import t from 'tap';
import { ConfigError, formatKeyPath, formatProblem } from '../../src/shared/problem.js';

t.test('formatProblem names file, line, key and code', async (t) => {
  t.equal(
    formatProblem({ file: 'g.yaml', key: 'auth.x', line: 3, message: 'bad' }),
    'g.yaml:3 auth.x: bad',
  );
  t.equal(formatProblem({ file: 'g.yaml', key: '', message: 'bad' }), 'g.yaml: bad');
  t.equal(
    formatProblem({
      file: 'g.yaml',
      key: 'auth.secret_key',
      message: 'deprecated',
      code: 'SGDEP001',
    }),
    'g.yaml auth.secret_key: deprecated [SGDEP001]',
  );
});

t.test('formatKeyPath quotes keys that are not identifiers', async (t) => {
  t.equal(formatKeyPath(['auth', 'scope_mappings', 'GET /x']), 'auth.scope_mappings."GET /x"');
  t.equal(formatKeyPath(['policies', 2]), 'policies[2]');
  t.equal(formatKeyPath(['GET /x']), '"GET /x"');
  t.equal(formatKeyPath([]), '');
});

t.test('ConfigError lists every problem and carries a code', async (t) => {
  const one = new ConfigError([{ file: 'a', key: 'k', message: 'm' }]);
  t.equal(one.code, 'SG_ERR_CONFIG_INVALID');
  t.match(one.message, /1 problem\)/);
  const two = new ConfigError([
    { file: 'a', key: 'k', message: 'm' },
    { file: 'b', key: 'j', message: 'n' },
  ]);
  t.match(two.message, /2 problems\)[\s\S]*a k: m[\s\S]*b j: n/);
  t.equal(two.problems.length, 2);
});
