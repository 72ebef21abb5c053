/**
 * The knowledge instance: its id is the SHA-256 of `db_id:table:name` written as a uuid, and
 * `knowledge_id` / `db_id` select it or are 404.
 */
import { createHash } from 'node:crypto';
import t from 'tap';
import { HttpError } from '../../../../src/runtime/http/errors.js';
import {
  knowledgeInstanceOf,
  selectInstance,
} from '../../../../src/runtime/api/knowledge/instance.js';

const SETTINGS = {
  name: 'knowledge',
  max_fetch_bytes: 1,
  fetch_timeout_ms: 1,
  fetch: { allow_hosts: [] },
  sources: [],
};

t.test('the id is sha256("runtime-db:agno_knowledge:knowledge") as a uuid', async (t) => {
  const hex = createHash('sha256').update('runtime-db:agno_knowledge:knowledge').digest('hex');
  const instance = knowledgeInstanceOf(SETTINGS, 'runtime-db');
  t.same(instance, {
    id: '115f3f91-a264-ff03-f3cd-d86bd6212895',
    name: 'knowledge',
    description: null,
    db_id: 'runtime-db',
    table: 'agno_knowledge',
  });
  t.equal(instance.id.replaceAll('-', ''), hex.slice(0, 32));
  t.equal(knowledgeInstanceOf({ ...SETTINGS, description: 'd' }, 'x').description, 'd');
});

t.test('knowledge_id (id or name) and db_id select it; anything else is 404', async (t) => {
  const instance = knowledgeInstanceOf(SETTINGS, 'runtime-db');
  for (const given of [
    {},
    { knowledgeId: null, dbId: null },
    { knowledgeId: instance.id },
    { knowledgeId: 'knowledge', dbId: 'runtime-db' },
  ]) {
    t.equal(selectInstance(instance, given), instance, JSON.stringify(given));
  }
  t.throws(
    () => selectInstance(instance, { knowledgeId: 'kb' }),
    new HttpError(404, "Knowledge base 'kb' not found"),
  );
  t.throws(
    () => selectInstance(instance, { dbId: 'db2' }),
    new HttpError(404, "Knowledge base 'db2' not found"),
  );
});
