/**
 * Event building: name first, parts merged (later wins), null and undefined fields dropped.
 */
import t from 'tap';
import { createEvent, omitNulls } from '../../../src/runtime/engine/events.js';

t.test('createEvent puts the name first, merges parts and drops nulls', async (t) => {
  const event = createEvent('RunStarted', { a: 1, b: null }, { b: 2, c: undefined, d: 0, e: '' });
  t.same(event, { event: 'RunStarted', a: 1, b: 2, d: 0, e: '' });
  t.same(Object.keys(event)[0], 'event');
  t.same(createEvent('RunContentCompleted'), { event: 'RunContentCompleted' });
});

t.test('omitNulls keeps false, 0 and empty strings', async (t) => {
  t.same(omitNulls({ a: null, b: undefined, c: false, d: 0, e: '', f: [] }), {
    c: false,
    d: 0,
    e: '',
    f: [],
  });
});
