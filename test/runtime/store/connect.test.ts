/**
 * Opening the runtime database a `runtime.db` setting names: a bare path or `sqlite:<path>`
 * (relative to the config's folder) opens SQLite, a `postgres://` URL a migrated pool; a server
 * that cannot be reached stops the open naming the database, never its password.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { MIGRATIONS } from '../../../src/runtime/store/migrations.js';
import { connectRuntimeStore } from '../../../src/runtime/store/store.js';
import { testDatabase } from '../../fixtures/postgres.js';

t.test('a bare path and sqlite:<path> open SQLite files relative to the folder', async (t) => {
  const dir = t.testdir();
  for (const [setting, file] of [
    ['bare.db', 'bare.db'],
    ['sqlite:sub/prefixed.db', 'sub/prefixed.db'],
  ] as const) {
    const store = await connectRuntimeStore(setting, { dir, replicaId: 'r' });
    t.equal(store.dialect, 'sqlite');
    t.equal(store.path, join(dir, file));
    t.equal(await store.migrate(), MIGRATIONS.length);
    await store.close();
    t.ok(existsSync(join(dir, file)), setting);
  }
  const memory = await connectRuntimeStore(':memory:', { dir, replicaId: 'r' });
  t.equal(memory.path, ':memory:');
  await memory.close();
});

t.test('a postgres:// URL opens a migrated store on the server', async (t) => {
  const url = await testDatabase(t);
  if (url === null) return;
  const store = await connectRuntimeStore(url, { dir: '.', replicaId: 'r' });
  t.teardown(() => store.close());
  t.equal(store.dialect, 'postgres');
  t.equal(store.path, url.replace(/:[^:@/]+@/, ':***@'));
  t.equal(await store.migrate(), MIGRATIONS.length, 'nothing left to apply');
  await store.memories.put({
    memory_id: 'm1',
    memory: 'remembered',
    topics: ['x'],
    user_id: 'u1',
    agent_id: null,
    team_id: null,
    created_at: 5,
    updated_at: 6,
  });
  t.same(await store.memories.topics(), ['x']);
  // A second replica on the same database reads what the first wrote.
  const other = await connectRuntimeStore(url, { dir: '.', replicaId: 'r2' });
  t.teardown(() => other.close());
  t.equal((await other.memories.get('m1'))?.memory, 'remembered');
  await other.close();
  await other.close();
  t.pass('closing twice is harmless');
});

t.test(
  'a server that cannot be reached stops the open, naming the URL without its password',
  async (t) => {
    await t.rejects(
      connectRuntimeStore('postgres://user:hunter2@127.0.0.1:1/runtime', {
        dir: '.',
        replicaId: 'r',
      }),
      {
        name: 'RuntimeStoreError',
        message:
          /^runtime store 'postgres:\/\/user:\*\*\*@127\.0\.0\.1:1\/runtime': cannot connect: /,
      },
    );
  },
);
