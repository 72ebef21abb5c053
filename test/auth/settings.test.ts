import t from 'tap';
import { listOf } from '../../src/auth/settings.js';

t.test('listOf reads a one-or-many setting as a list', async (t) => {
  t.same(listOf(null), []);
  t.same(listOf('a'), ['a']);
  t.same(listOf(['a', 'b']), ['a', 'b']);
});
