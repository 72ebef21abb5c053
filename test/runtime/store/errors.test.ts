import t from 'tap';
import { RuntimeStoreError } from '../../../src/runtime/store/errors.js';

t.test('RuntimeStoreError names the path first and keeps the cause', async (t) => {
  const cause = new Error('disk on fire');
  const rows: [name: string, error: RuntimeStoreError, message: string, cause: unknown][] = [
    [
      'with a cause',
      new RuntimeStoreError('/data/runtime.db', 'cannot open: disk on fire', cause),
      "runtime store '/data/runtime.db': cannot open: disk on fire",
      cause,
    ],
    [
      'without a cause',
      new RuntimeStoreError(':memory:', 'schema version 2 is newer'),
      "runtime store ':memory:': schema version 2 is newer",
      undefined,
    ],
  ];
  for (const [name, error, message, expectedCause] of rows) {
    t.type(error, Error, name);
    t.equal(error.name, 'RuntimeStoreError', name);
    t.equal(error.message, message, name);
    t.equal(error.cause, expectedCause, name);
  }
  t.equal(rows[0]?.[1].path, '/data/runtime.db');
});
