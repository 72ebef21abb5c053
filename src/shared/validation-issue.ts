/**
 * A 422 entry in FastAPI's words, `{type, loc, msg, input, ctx?}`, as both halves answer them
 * (the runtime's routes and the gateway's `/service-accounts`), and the translation of a zod
 * schema's issues into such entries, `loc` starting with where the value came from.
 */
import type { z } from 'zod';

/** One problem with a request: what kind, where, in words naming the field, and the value. */
export interface ValidationIssue {
  /** Machine-readable kind (`missing`, `string_type`, `int_type`, `extra_forbidden`, …). */
  readonly type: string;
  /** Where: `body`, `query`, `path` or `header`, then keys and indexes. */
  readonly loc: readonly (string | number)[];
  /** What is wrong. */
  readonly msg: string;
  /** The value at fault (`null` when it is missing). */
  readonly input: unknown;
  /** The bound or the values expected, when the kind has one (`{ge: 1}`, `{expected: …}`). */
  readonly ctx?: Readonly<Record<string, string | number>>;
}

/**
 * pydantic's words for a rule zod cannot state itself: a schema's refinement or transform
 * reports a zod `custom` issue whose `params` are these words ({@link pydanticIssue}), and the
 * entry says them as given.
 */
export interface PydanticWords {
  readonly type: string;
  readonly msg: string;
  readonly ctx?: Readonly<Record<string, string | number>>;
}

/** The zod issue a refinement reports for `input`, said in pydantic's `words`. */
export function pydanticIssue(input: unknown, words: PydanticWords): z.core.$ZodRawIssue {
  return { code: 'custom', input, message: words.msg, params: { ...words } };
}

/**
 * What a schema reads in place of a required field left out of `parent`: pydantic's `missing`
 * entry names the object the field is missing from as its input, where zod has none.
 */
export class Absent {
  readonly parent: unknown;

  constructor(parent: unknown) {
    this.parent = parent;
  }
}

/** pydantic's type and message for a value of the wrong type, by the type zod expected. */
const WRONG_TYPE: Readonly<Record<string, readonly [string, string]>> = {
  string: ['string_type', 'Input should be a valid string'],
  boolean: ['bool_type', 'Input should be a valid boolean'],
  number: ['int_type', 'Input should be a valid integer'],
  int: ['int_type', 'Input should be a valid integer'],
  object: ['dict_type', 'Input should be a valid dictionary'],
  record: ['dict_type', 'Input should be a valid dictionary'],
  array: ['list_type', 'Input should be a valid list'],
};

/** The 422 entries of a failed zod parse (parsed with `reportInput: true`). */
export function validationIssues(
  where: 'body' | 'query' | 'path' | 'header',
  issues: readonly z.core.$ZodIssue[],
): ValidationIssue[] {
  return issues.flatMap((issue): ValidationIssue[] => {
    const loc = [where, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))];
    if (issue.input instanceof Absent) {
      return [{ type: 'missing', loc, msg: 'Field required', input: issue.input.parent }];
    }
    const input = issue.input === undefined ? null : issue.input;
    switch (issue.code) {
      case 'invalid_type': {
        if (issue.input === undefined) {
          return [{ type: 'missing', loc, msg: 'Field required', input: null }];
        }
        const [type, msg] = WRONG_TYPE[issue.expected] ?? ['type_error', issue.message];
        return [{ type, loc, msg, input }];
      }
      case 'invalid_value': {
        // A required enum that is absent: pydantic says missing, not which values it takes.
        if (issue.input === undefined) {
          return [{ type: 'missing', loc, msg: 'Field required', input: null }];
        }
        const options = issue.values.map((v) => `'${String(v)}'`);
        const expected =
          options.length > 1
            ? `${options.slice(0, -1).join(', ')} or ${options.at(-1) as string}`
            : (options[0] as string);
        return [
          { type: 'enum', loc, msg: `Input should be ${expected}`, input, ctx: { expected } },
        ];
      }
      case 'too_small':
      case 'too_big':
        return [
          boundDetail(issue, loc, input) ?? { type: issue.code, loc, msg: issue.message, input },
        ];
      case 'unrecognized_keys':
        return issue.keys.map((key) => ({
          type: 'extra_forbidden',
          loc: [...loc, key],
          msg: 'Extra inputs are not permitted',
          input: (issue.input as Record<string, unknown>)[key],
        }));
      case 'custom': {
        const words = issue.params as Partial<PydanticWords> | undefined;
        if (words?.type === undefined || words.msg === undefined) {
          return [{ type: issue.code, loc, msg: issue.message, input }];
        }
        const { type, msg, ctx } = words;
        return [{ type, loc, msg, input, ...(ctx === undefined ? {} : { ctx }) }];
      }
      default:
        return [{ type: issue.code, loc, msg: issue.message, input }];
    }
  });
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * pydantic's words for a number, string or list outside its bounds (`ge`/`gt`/`le`/`lt`,
 * `min_length`/`max_length`); null for a bound of another kind of value.
 */
function boundDetail(
  issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig,
  loc: readonly (string | number)[],
  input: unknown,
): ValidationIssue | null {
  const small = issue.code === 'too_small';
  const limit = Number(small ? issue.minimum : issue.maximum);
  switch (issue.origin) {
    case 'number': {
      const inclusive = issue.inclusive === true;
      const key = small ? (inclusive ? 'ge' : 'gt') : inclusive ? 'le' : 'lt';
      const words = `${small ? 'greater' : 'less'} than${inclusive ? ' or equal to' : ''}`;
      const type = `${small ? 'greater' : 'less'}_than${inclusive ? '_equal' : ''}`;
      return { type, loc, msg: `Input should be ${words} ${limit}`, input, ctx: { [key]: limit } };
    }
    case 'string': {
      const key = small ? 'min_length' : 'max_length';
      const msg = `String should have ${small ? 'at least' : 'at most'} ${plural(limit, 'character')}`;
      const type = small ? 'string_too_short' : 'string_too_long';
      return { type, loc, msg, input, ctx: { [key]: limit } };
    }
    case 'array': {
      const actual = (input as readonly unknown[]).length;
      const key = small ? 'min_length' : 'max_length';
      const msg =
        `List should have ${small ? 'at least' : 'at most'} ${plural(limit, 'item')} ` +
        `after validation, not ${actual}`;
      const ctx = { field_type: 'List', [key]: limit, actual_length: actual };
      return { type: small ? 'too_short' : 'too_long', loc, msg, input, ctx };
    }
    default:
      return null;
  }
}
