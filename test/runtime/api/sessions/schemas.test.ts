/**
 * The session write bodies as their schemas read them, without HTTP: which content types count
 * as JSON, what each schema gives its route, the kind's id field (`componentIdOf`), and the
 * `updated_at` of a summary (pydantic `datetime`: epoch seconds or ISO-8601, UTC when no
 * offset). The route tests (writes.test.ts) hold the tables of bad bodies.
 */
import t from 'tap';
import type { z } from 'zod';
import {
  createSessionBody,
  deleteSessionsBody,
  JSON_TYPE,
  listSessionsQuery,
  NOT_JSON,
  renameSessionBody,
  updateSessionBody,
} from '../../../../src/runtime/api/sessions/schemas.js';
import { componentIdOf } from '../../../../src/runtime/api/sessions/writes.js';
import { HttpError } from '../../../../src/runtime/http/errors.js';
import { validationIssues } from '../../../../src/shared/validation-issue.js';

/** What `schema` gives a route for `body`. */
function parsed<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body, { reportInput: true });
  if (!result.success) throw new Error(JSON.stringify(result.error.issues));
  return result.data;
}

/** The 422 entries of `body`. */
function detailsOf(schema: z.ZodType, body: unknown): unknown {
  const result = schema.safeParse(body, { reportInput: true });
  if (result.success) throw new Error('did not fail');
  return validationIssues('body', result.error.issues);
}

/** The 422 details `fn` throws. */
function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    if (err instanceof HttpError && err.status === 422) return err.detail;
    throw err;
  }
  throw new Error('did not throw');
}

t.test('JSON content types: application/json and application/*+json, any parameters', async (t) => {
  for (const type of [
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON',
    'application/vnd.api+json',
    'application/merge-patch+json ; charset=utf-8',
  ]) {
    t.ok(JSON_TYPE.test(type), type);
  }
  for (const type of ['text/json', 'application/jsonp', 'application/json-seq', '']) {
    t.notOk(JSON_TYPE.test(type), `${type}: not JSON`);
  }
  t.match(
    detailsOf(createSessionBody, NOT_JSON),
    [{ type: 'model_attributes_type', loc: ['body'], input: null }],
    'a body that is not JSON: no input named',
  );
  t.match(
    detailsOf(renameSessionBody, NOT_JSON),
    [{ type: 'missing', loc: ['body', 'session_name'] }],
    'rename finds no session_name',
  );
});

t.test('what each schema gives its route', async (t) => {
  const full = parsed(createSessionBody, {
    session_id: 's',
    session_name: 'n',
    session_state: { a: 1 },
    metadata: { m: 2 },
    user_id: 'u',
    team_id: 't1',
  });
  t.same(full, {
    session_id: 's',
    session_name: 'n',
    session_state: { a: 1 },
    metadata: { m: 2 },
    user_id: 'u',
    team_id: 't1',
  });
  t.equal(componentIdOf(full, 'team', {}), 't1');
  const nulls = parsed(createSessionBody, {
    workflow_id: 'w1',
    session_name: null,
    metadata: null,
  });
  t.same(nulls, { workflow_id: 'w1' }, 'null fields are left out');
  t.equal(componentIdOf(nulls, 'workflow', {}), 'w1');
  t.equal(parsed(createSessionBody, undefined), undefined, 'no body');
  t.same(parsed(updateSessionBody, {}), {}, 'nothing given: nothing changes');
  t.same(
    parsed(updateSessionBody, {
      session_name: null,
      session_state: null,
      metadata: null,
      summary: null,
    }),
    {},
    'null: nothing changes',
  );
  t.same(
    parsed(updateSessionBody, {
      session_name: '',
      session_state: {},
      metadata: {},
      summary: { summary: 'x', topics: [] },
    }),
    { session_name: '', session_state: {}, metadata: {}, summary: { summary: 'x', topics: [] } },
  );
  t.same(
    parsed(deleteSessionsBody, { session_ids: ['a', 'b'], session_types: ['team'] }),
    { session_ids: ['a', 'b'], session_types: ['team'] },
    'lengths are the route’s to compare',
  );
  t.same(parsed(renameSessionBody, { session_name: '' }), { session_name: '' });
});

t.test('componentIdOf: the id field of the kind, and only it', async (t) => {
  const missing = (loc: string, input: unknown) => ({
    type: 'missing',
    loc: ['body', loc],
    msg: 'Field required',
    input,
  });
  const rows: { name: string; body: unknown; sent: unknown; detail: unknown[] }[] = [
    { name: 'no body', body: undefined, sent: undefined, detail: [missing('agent_id', null)] },
    {
      name: 'the body as sent is named',
      body: {},
      sent: { agent_id: null },
      detail: [missing('agent_id', { agent_id: null })],
    },
    {
      name: 'empty',
      body: { agent_id: '' },
      sent: {},
      detail: [
        {
          type: 'string_too_short',
          loc: ['body', 'agent_id'],
          msg: 'String should have at least 1 character',
          input: '',
          ctx: { min_length: 1 },
        },
      ],
    },
    {
      name: 'another kind’s id, empty ones ignored',
      body: { agent_id: 'a1', team_id: '', workflow_id: 'w1' },
      sent: {},
      detail: [
        {
          type: 'value_error',
          loc: ['body', 'workflow_id'],
          msg: 'Value error, workflow_id does not apply to a session of type agent',
          input: 'w1',
          ctx: { error: 'workflow_id does not apply to a session of type agent' },
        },
      ],
    },
  ];
  for (const row of rows) {
    const body = row.body as Parameters<typeof componentIdOf>[0];
    t.same(
      thrownBy(() => componentIdOf(body, 'agent', row.sent)),
      row.detail,
      row.name,
    );
  }
});

t.test('the listing’s page: 0 reads as 1 later; below it, the words of ge 1', async (t) => {
  t.equal(parsed(listSessionsQuery, { page: 0 }).page, 0);
  t.same(detailsOf(listSessionsQuery, { page: -1 }), [
    {
      type: 'greater_than_equal',
      loc: ['body', 'page'],
      msg: 'Input should be greater than or equal to 1',
      input: -1,
      ctx: { ge: 1 },
    },
  ]);
});

t.test('summary.updated_at: accepted forms, as epoch seconds', async (t) => {
  const at = (value: unknown) =>
    parsed(updateSessionBody, { summary: { summary: 's', updated_at: value } }).summary?.updated_at;
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
      detailsOf(updateSessionBody, { summary: { summary: 's', updated_at: input } }),
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
      detailsOf(updateSessionBody, { summary: { summary: 's', updated_at: input } }),
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
