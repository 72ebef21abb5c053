/**
 * zod issues as FastAPI's 422 entries: one row per kind of issue.
 */
import t from 'tap';
import { z } from 'zod';
import { Absent, pydanticIssue, validationIssues } from '../../src/shared/validation-issue.js';

const schema = z.strictObject({
  s: z.string().optional(),
  n: z.number().optional(),
  a: z.array(z.string()).optional(),
  o: z.record(z.string(), z.unknown()).optional(),
  one: z.enum(['only']).optional(),
  d: z.date().optional(),
  short: z.string().min(3).optional(),
  pattern: z.string().regex(/^a$/).optional(),
});

function detailsOf(body: unknown) {
  const result = schema.safeParse(body, { reportInput: true });
  if (result.success) throw new Error('expected a failure');
  return validationIssues('query', result.error.issues);
}

t.test('each kind of issue', async (t) => {
  t.same(detailsOf({ n: 'x' }), [
    { type: 'int_type', loc: ['query', 'n'], msg: 'Input should be a valid integer', input: 'x' },
  ]);
  t.same(detailsOf({ a: 'x' }), [
    { type: 'list_type', loc: ['query', 'a'], msg: 'Input should be a valid list', input: 'x' },
  ]);
  t.same(detailsOf({ a: [1] }), [
    {
      type: 'string_type',
      loc: ['query', 'a', 0],
      msg: 'Input should be a valid string',
      input: 1,
    },
  ]);
  t.same(detailsOf({ o: [] }), [
    {
      type: 'dict_type',
      loc: ['query', 'o'],
      msg: 'Input should be a valid dictionary',
      input: [],
    },
  ]);
  t.same(detailsOf({ one: 'x' }), [
    {
      type: 'enum',
      loc: ['query', 'one'],
      msg: "Input should be 'only'",
      input: 'x',
      ctx: { expected: "'only'" },
    },
  ]);
  t.match(detailsOf({ d: 'x' }), [{ type: 'type_error', loc: ['query', 'd'], input: 'x' }]);
  t.same(detailsOf({ short: 'x' }), [
    {
      type: 'string_too_short',
      loc: ['query', 'short'],
      msg: 'String should have at least 3 characters',
      input: 'x',
      ctx: { min_length: 3 },
    },
  ]);
  t.match(detailsOf({ pattern: 'b' }), [
    { type: 'invalid_format', loc: ['query', 'pattern'], input: 'b' },
  ]);
  t.same(detailsOf({ extra: 1, more: 2 }), [
    {
      type: 'extra_forbidden',
      loc: ['query', 'extra'],
      msg: 'Extra inputs are not permitted',
      input: 1,
    },
    {
      type: 'extra_forbidden',
      loc: ['query', 'more'],
      msg: 'Extra inputs are not permitted',
      input: 2,
    },
  ]);
});

const bounds = z.object({
  ge: z.int().min(1).max(100).optional(),
  gt: z.number().positive().lt(5).optional(),
  text: z.string().min(1).max(1).optional(),
  list: z.array(z.string()).min(1).max(2).optional(),
  set: z.set(z.string()).min(1).optional(),
});

/** The 422 entries of `bounds` for `body`. */
function boundsOf(body: unknown) {
  const result = bounds.safeParse(body, { reportInput: true });
  if (result.success) throw new Error('expected a failure');
  return validationIssues('body', result.error.issues);
}

t.test('bounds in pydantic words: numbers, strings, lists (singular and plural)', async (t) => {
  const rows: [name: string, body: Record<string, unknown>, detail: Record<string, unknown>][] = [
    [
      'ge',
      { ge: 0 },
      {
        type: 'greater_than_equal',
        loc: ['body', 'ge'],
        msg: 'Input should be greater than or equal to 1',
        input: 0,
        ctx: { ge: 1 },
      },
    ],
    [
      'le',
      { ge: 101 },
      {
        type: 'less_than_equal',
        loc: ['body', 'ge'],
        msg: 'Input should be less than or equal to 100',
        input: 101,
        ctx: { le: 100 },
      },
    ],
    [
      'gt',
      { gt: 0 },
      {
        type: 'greater_than',
        loc: ['body', 'gt'],
        msg: 'Input should be greater than 0',
        input: 0,
        ctx: { gt: 0 },
      },
    ],
    [
      'lt',
      { gt: 5 },
      {
        type: 'less_than',
        loc: ['body', 'gt'],
        msg: 'Input should be less than 5',
        input: 5,
        ctx: { lt: 5 },
      },
    ],
    [
      'string min, singular',
      { text: '' },
      {
        type: 'string_too_short',
        loc: ['body', 'text'],
        msg: 'String should have at least 1 character',
        input: '',
        ctx: { min_length: 1 },
      },
    ],
    [
      'string max',
      { text: 'ab' },
      {
        type: 'string_too_long',
        loc: ['body', 'text'],
        msg: 'String should have at most 1 character',
        input: 'ab',
        ctx: { max_length: 1 },
      },
    ],
    [
      'list min',
      { list: [] },
      {
        type: 'too_short',
        loc: ['body', 'list'],
        msg: 'List should have at least 1 item after validation, not 0',
        input: [],
        ctx: { field_type: 'List', min_length: 1, actual_length: 0 },
      },
    ],
    [
      'list max, plural',
      { list: ['a', 'b', 'c'] },
      {
        type: 'too_long',
        loc: ['body', 'list'],
        msg: 'List should have at most 2 items after validation, not 3',
        input: ['a', 'b', 'c'],
        ctx: { field_type: 'List', max_length: 2, actual_length: 3 },
      },
    ],
  ];
  for (const [name, body, detail] of rows) t.same(boundsOf(body), [detail], name);
});

t.test('a bound of another kind of value keeps zod words', async (t) => {
  t.match(boundsOf({ set: new Set() }), [{ type: 'too_small', loc: ['body', 'set'] }]);
});

t.test('a required enum that is absent is missing', async (t) => {
  const result = z.object({ kind: z.enum(['a', 'b']) }).safeParse({}, { reportInput: true });
  t.same(validationIssues('body', result.error?.issues ?? []), [
    { type: 'missing', loc: ['body', 'kind'], msg: 'Field required', input: null },
  ]);
});

t.test(
  'a refinement in pydantic’s words is said as given; one without, as zod says it',
  async (t) => {
    const at = z.unknown().superRefine((value, ctx) => {
      if (value === 'words') {
        ctx.addIssue(pydanticIssue(value, { type: 'value_error', msg: 'Value error, no' }));
      } else if (value === 'ctx') {
        const words = { type: 'datetime_parsing', msg: 'Bad', ctx: { error: 'bad' } };
        ctx.addIssue(pydanticIssue(value, words));
      } else {
        ctx.addIssue({ code: 'custom', message: 'Plain' });
      }
    });
    const issues = (value: unknown) =>
      validationIssues('body', at.safeParse(value, { reportInput: true }).error?.issues ?? []);
    t.same(issues('words'), [
      { type: 'value_error', loc: ['body'], msg: 'Value error, no', input: 'words' },
    ]);
    t.same(issues('ctx'), [
      { type: 'datetime_parsing', loc: ['body'], msg: 'Bad', input: 'ctx', ctx: { error: 'bad' } },
    ]);
    t.same(issues(1), [{ type: 'custom', loc: ['body'], msg: 'Plain', input: 1 }]);
  },
);

t.test(
  'a required field read as Absent is missing, naming the object it is missing from',
  async (t) => {
    const parent = { other: 1 };
    const schema = z.object({ list: z.array(z.string()), kind: z.enum(['a', 'b']) });
    const result = schema.safeParse(
      { list: new Absent(parent), kind: new Absent(parent) },
      { reportInput: true },
    );
    t.same(validationIssues('body', result.error?.issues ?? []), [
      { type: 'missing', loc: ['body', 'list'], msg: 'Field required', input: parent },
      { type: 'missing', loc: ['body', 'kind'], msg: 'Field required', input: parent },
    ]);
  },
);

t.test(
  'a model-shaped body is read against its schema, as pydantic names its places',
  async (t) => {
    const Pet = z.object({ kind: z.literal('pet'), name: z.string() }).meta({ id: 'Pet' });
    const Toy = z.object({ kind: z.literal('toy') }).meta({ id: 'Toy' });
    const schema = z
      .object({
        owner: z.object({ name: z.string() }),
        things: z.array(z.discriminatedUnion('kind', [Pet, Toy])),
        label: z.union([z.string(), z.array(z.discriminatedUnion('kind', [Pet, Toy]))]).optional(),
      })
      .meta({ id: 'Home' });
    const issues = (value: unknown) =>
      validationIssues('body', schema.safeParse(value).error?.issues ?? [], { schema, value });
    t.same(issues(1), [
      {
        type: 'model_type',
        loc: ['body'],
        msg: 'Input should be a valid dictionary or instance of Home',
        input: 1,
        ctx: { class_name: 'Home' },
      },
    ]);
    const body = {
      owner: 'x',
      things: [{ kind: 'pet' }, { kind: 'car' }],
      label: 2,
    };
    t.same(issues(body), [
      {
        type: 'model_attributes_type',
        loc: ['body', 'owner'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: 'x',
      },
      {
        type: 'missing',
        loc: ['body', 'things', 0, 'pet', 'name'],
        msg: 'Field required',
        input: { kind: 'pet' },
      },
      {
        type: 'union_tag_invalid',
        loc: ['body', 'things', 1],
        msg: "Input tag 'car' found using 'kind' does not match any of the expected tags: 'pet', 'toy'",
        input: { kind: 'car' },
        ctx: { discriminator: "'kind'", tag: 'car', expected_tags: "'pet', 'toy'" },
      },
      {
        type: 'string_type',
        loc: ['body', 'label', 'str'],
        msg: 'Input should be a valid string',
        input: 2,
      },
      {
        type: 'list_type',
        loc: ['body', 'label', 'list[tagged-union[Pet,Toy]]'],
        msg: 'Input should be a valid list',
        input: 2,
      },
    ]);
  },
);
