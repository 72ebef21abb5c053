/**
 * The session and run shapes built from stored records, without HTTP.
 */
import t from 'tap';
import {
  runSchema,
  sessionDetail,
  sessionSchema,
} from '../../../../src/runtime/api/sessions/render.js';
import { runRecord, sessionRecord, TEST_NOW, TEST_NOW_ISO } from '../../fixtures/runtime.js';

t.test('session_summary: Agno’s to_dict, topics left out when null', async (t) => {
  const rows = [
    { name: 'none', summary: null, expected: null },
    {
      name: 'with topics',
      summary: { summary: 'S', topics: ['a'], updated_at: TEST_NOW },
      expected: { summary: 'S', topics: ['a'], updated_at: TEST_NOW_ISO },
    },
    {
      name: 'empty topics are kept',
      summary: { summary: 'S', topics: [], updated_at: TEST_NOW },
      expected: { summary: 'S', topics: [], updated_at: TEST_NOW_ISO },
    },
    {
      name: 'no topics',
      summary: { summary: 'S', topics: null, updated_at: TEST_NOW },
      expected: { summary: 'S', updated_at: TEST_NOW_ISO },
    },
  ];
  for (const row of rows) {
    const session = sessionRecord({ session_summary: row.summary });
    t.strictSame(sessionSchema(session).session_summary, row.expected, row.name);
    t.strictSame(sessionDetail(session, []).session_summary, row.expected, `${row.name}: detail`);
  }
});

t.test('sessionDetail: <type>_session_id and the chat history of the runs given', async (t) => {
  const detail = sessionDetail(sessionRecord({ session_type: 'workflow', component_id: 'w1' }), [
    runRecord({ input: 'q', output: { content: 'a' }, created_at: 1, updated_at: 2 }),
    runRecord({ run_id: 'r-2', input: 'q2', output: { content: { x: 1 } }, created_at: 3 }),
  ]);
  t.match(detail, {
    workflow_id: 'w1',
    workflow_session_id: 's-1',
    chat_history: [
      { role: 'user', content: 'q', created_at: 1 },
      { role: 'assistant', content: 'a', created_at: 2 },
      { role: 'user', content: 'q2', created_at: 3 },
    ],
  });
  t.equal((detail.chat_history as unknown[]).length, 3, 'structured content is not a chat line');
  t.match(runSchema(runRecord({ output: { content: { x: 1 } } })), { run_response_format: 'json' });
});
