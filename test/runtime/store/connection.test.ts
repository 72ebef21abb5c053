// SQLite-only: the SQLite connection itself (its PRAGMAs, the file it opens).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import {
  BUSY_TIMEOUT_MS,
  MEMORY_PATH,
  openConnection,
} from '../../../src/runtime/store/connection.js';
import { RuntimeStoreError } from '../../../src/runtime/store/errors.js';

t.test('every connection gets the busy timeout and foreign keys', async (t) => {
  const dir = t.testdir();
  const rows: [name: string, path: string][] = [
    ['a file in folders that do not exist yet', join(dir, 'a', 'b', 'runtime.db')],
    ['memory', MEMORY_PATH],
  ];
  for (const [name, path] of rows) {
    const db = openConnection(path);
    t.teardown(() => db.close());
    t.equal(db.pragma('busy_timeout', { simple: true }), BUSY_TIMEOUT_MS, `${name}: busy_timeout`);
    t.equal(db.pragma('foreign_keys', { simple: true }), 1, `${name}: foreign_keys`);
  }
  t.ok(existsSync(join(dir, 'a', 'b', 'runtime.db')), 'the parent folders were created');
});

t.test('opening writes nothing: journal mode is left to the store', async (t) => {
  const db = openConnection(join(t.testdir(), 'runtime.db'));
  t.teardown(() => db.close());
  t.equal(db.pragma('journal_mode', { simple: true }), 'delete');
});

t.test('a path that cannot be opened: RuntimeStoreError naming it', async (t) => {
  const dir = t.testdir({ 'plain-file': 'x', 'a-folder': {} });
  const rows: [name: string, path: string, problem: RegExp][] = [
    [
      'a parent that is a file',
      join(dir, 'plain-file', 'x.db'),
      /^cannot open: Error: EEXIST: file already exists, mkdir/,
    ],
    ['a folder', join(dir, 'a-folder'), /^cannot open: .*unable to open database file$/],
  ];
  for (const [name, path, problem] of rows) {
    const error = t.throws(() => openConnection(path), name) as RuntimeStoreError;
    t.type(error, RuntimeStoreError, name);
    t.equal(error.path, path, name);
    t.ok(error.message.startsWith(`runtime store '${path}': `), `${name}: names the path`);
    t.match(error.message.slice(`runtime store '${path}': `.length), problem, name);
    t.type(error.cause, Error, `${name}: keeps the cause`);
  }
});
