import t from 'tap';
import { plural } from '../../src/shared/text.js';

t.test('plural appends s except for one', async (t) => {
  t.equal(plural(0, 'problem'), '0 problems');
  t.equal(plural(1, 'problem'), '1 problem');
  t.equal(plural(2, 'warning'), '2 warnings');
});
