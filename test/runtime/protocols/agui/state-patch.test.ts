/**
 * The JSON Patch of a session-state change (AG-UI STATE_DELTA), checked by letting the real
 * @ag-ui/client apply it after a snapshot of the old state.
 */
import { EventType } from '@ag-ui/core';
import t from 'tap';
import { diffState } from '../../../../src/runtime/protocols/agui/state-patch.js';
import { encodeEvents, replayWithClient } from '../../fixtures/agui.js';

const rows: [string, Record<string, unknown>, Record<string, unknown>, unknown[]][] = [
  ['equal states', { a: 1, b: { c: [1] } }, { a: 1, b: { c: [1] } }, []],
  ['a key added', {}, { a: null }, [{ op: 'add', path: '/a', value: null }]],
  ['a key removed', { a: 1, b: 2 }, { b: 2 }, [{ op: 'remove', path: '/a' }]],
  ['a value replaced', { a: 1 }, { a: '1' }, [{ op: 'replace', path: '/a', value: '1' }]],
  [
    'an array replaced whole',
    { a: [1, 2] },
    { a: [1] },
    [{ op: 'replace', path: '/a', value: [1] }],
  ],
  [
    'nested objects compared key by key',
    { o: { keep: 1, drop: 2, inner: { x: 1 } } },
    { o: { keep: 1, inner: { x: 2 }, new: true } },
    [
      { op: 'remove', path: '/o/drop' },
      { op: 'replace', path: '/o/inner/x', value: 2 },
      { op: 'add', path: '/o/new', value: true },
    ],
  ],
  [
    'an object replacing a scalar',
    { a: 1 },
    { a: { b: 1 } },
    [{ op: 'replace', path: '/a', value: { b: 1 } }],
  ],
  [
    'keys with ~ and / escaped (RFC 6901)',
    {},
    { 'a/b': 1, 'c~d': 2 },
    [
      { op: 'add', path: '/a~1b', value: 1 },
      { op: 'add', path: '/c~0d', value: 2 },
    ],
  ],
];

for (const [name, before, after, ops] of rows) {
  t.test(name, async (t) => {
    const delta = diffState(before, after);
    t.same(delta, ops);
    const { agent } = await replayWithClient(
      encodeEvents([
        { type: EventType.RUN_STARTED, threadId: 't', runId: 'r' },
        { type: EventType.STATE_SNAPSHOT, snapshot: before },
        { type: EventType.STATE_DELTA, delta },
        { type: EventType.RUN_FINISHED, threadId: 't', runId: 'r' },
      ]),
    );
    t.same(agent.state, after, 'the client applying it gets the new state');
  });
}
