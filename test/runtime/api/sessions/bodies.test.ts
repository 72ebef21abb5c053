/**
 * The session write bodies, checked without HTTP: which content types count as JSON, and the
 * `updated_at` of a summary (pydantic `datetime`: epoch seconds or ISO-8601, UTC when no
 * offset). The route tests (session-writes.test.ts) hold the tables of bad bodies.
 */
import t from 'tap';
import {
  parseBulkDeleteBody,
  parseCreateBody,
  parseRenameBody,
  parseUpdateBody,
} from '../../../../src/runtime/api/sessions/bodies.js';
import { HttpError } from '../../../../src/runtime/http/errors.js';

const JSON_TYPE = 'application/json';

/** The 422 details `fn` throws. */
function detailsOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    if (err instanceof HttpError && err.status === 422) return err.detail;
    throw err;
  }
  throw new Error('did not throw');
}

t.test('JSON content types: application/json and application/*+json, any parameters', async (t) => {
  const body = { agent_id: 'a1' };
  for (const type of [
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON',
    'application/vnd.api+json',
    'application/merge-patch+json ; charset=utf-8',
  ]) {
    t.match(parseCreateBody(body, type, 'agent'), { componentId: 'a1' }, type);
    t.equal(parseRenameBody({ session_name: 'n' }, type), 'n', `${type}: rename`);
  }
  for (const type of ['text/json', 'application/jsonp', 'application/json-seq', undefined]) {
    t.match(
      detailsOf(() => parseCreateBody(body, type, 'agent')),
      [{ type: 'model_attributes_type', loc: ['body'], input: null }],
      `${String(type)}: not JSON`,
    );
    t.match(
      detailsOf(() => parseRenameBody({ session_name: 'n' }, type)),
      [{ type: 'missing', loc: ['body', 'session_name'] }],
      `${String(type)}: rename finds no session_name`,
    );
  }
});

t.test('what each parser returns', async (t) => {
  t.same(
    parseCreateBody(
      {
        session_id: 's',
        session_name: 'n',
        session_state: { a: 1 },
        metadata: { m: 2 },
        user_id: 'u',
        team_id: 't1',
      },
      JSON_TYPE,
      'team',
    ),
    {
      sessionId: 's',
      sessionName: 'n',
      sessionState: { a: 1 },
      metadata: { m: 2 },
      userId: 'u',
      componentId: 't1',
    },
  );
  t.same(
    parseCreateBody({ workflow_id: 'w1' }, JSON_TYPE, 'workflow'),
    {
      sessionId: null,
      sessionName: null,
      sessionState: null,
      metadata: null,
      userId: null,
      componentId: 'w1',
    },
    'absent fields are null',
  );
  t.same(parseUpdateBody({}, JSON_TYPE), {}, 'nothing given: nothing changes');
  t.same(
    parseUpdateBody(
      {
        session_name: null,
        session_state: null,
        metadata: null,
        summary: null,
      },
      JSON_TYPE,
    ),
    {},
    'null: nothing changes',
  );
  t.same(
    parseUpdateBody(
      { session_name: '', session_state: {}, metadata: {}, summary: { summary: 'x', topics: [] } },
      JSON_TYPE,
    ),
    {
      sessionName: '',
      sessionState: {},
      metadata: {},
      summary: { summary: 'x', topics: [], updatedAt: undefined },
    },
  );
  t.same(
    parseBulkDeleteBody({ session_ids: ['a', 'b'], session_types: ['team'] }, JSON_TYPE),
    { sessionIds: ['a', 'b'], sessionTypes: ['team'] },
    'lengths are the route’s to compare',
  );
});

t.test('summary.updated_at: accepted forms, as epoch seconds', async (t) => {
  const at = (value: unknown) =>
    parseUpdateBody({ summary: { summary: 's', updated_at: value } }, JSON_TYPE).summary?.updatedAt;
  const T = Date.UTC(2025, 9, 21, 14, 30) / 1000; // 2025-10-21T14:30:00Z
  const rows: [unknown, number][] = [
    ['2025-10-21T14:30:00Z', T],
    ['2025-10-21T14:30:00z', T],
    ['2025-10-21T14:30:00', T],
    ['2025-10-21 14:30', T],
    ['2025-10-21T14:30:00.999999Z', T],
    ['2025-10-21T16:30:00+02:00', T],
    ['2025-10-21T16:30+0200', T],
    ['2025-10-21T12:30:00-02:00', T],
    ['2025-10-21', Date.UTC(2025, 9, 21) / 1000],
    ['2024-02-29', Date.UTC(2024, 1, 29) / 1000],
    [T, T],
    [T + 0.75, T],
    [String(T), T],
    ['-1.5', -2],
    [0, 0],
  ];
  for (const [input, seconds] of rows) t.equal(at(input), seconds, JSON.stringify(input));
});

t.test('summary.updated_at: refused forms', async (t) => {
  const rows: unknown[] = [
    'yesterday',
    '',
    '2025-02-30',
    '2025-02-29',
    '2025-13-01',
    '2025-10-21T24:00',
    '2025-10-21T14:60',
    '2025-10-21T14',
    '21/10/2025',
    '2025-10-21T14:30:00+2',
    '1e3',
    '9'.repeat(400),
    8.7e12,
  ];
  for (const input of rows) {
    t.same(
      detailsOf(() => parseUpdateBody({ summary: { summary: 's', updated_at: input } }, JSON_TYPE)),
      [
        {
          type: 'datetime_parsing',
          loc: ['body', 'summary', 'updated_at'],
          msg: 'Input should be a valid datetime, invalid datetime format',
          input,
          ctx: { error: 'invalid datetime format' },
        },
      ],
      JSON.stringify(input).slice(0, 40),
    );
  }
  for (const input of [true, [], {}]) {
    t.same(
      detailsOf(() => parseUpdateBody({ summary: { summary: 's', updated_at: input } }, JSON_TYPE)),
      [
        {
          type: 'datetime_type',
          loc: ['body', 'summary', 'updated_at'],
          msg: 'Input should be a valid datetime',
          input,
        },
      ],
      JSON.stringify(input),
    );
  }
});
