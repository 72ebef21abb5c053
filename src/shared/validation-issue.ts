/**
 * A 422 entry in FastAPI's words, `{type, loc, msg, input, ctx?}`, as both halves answer them
 * (the runtime's routes and the gateway's `/service-accounts`), and the translation of a zod
 * schema's issues into such entries, `loc` starting with where the value came from.
 */
import { z } from 'zod';

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

/** The 422 entries of a failed zod parse (parsed with `reportInput: true`, or read by `model`). */
export function validationIssues(
  where: 'body' | 'query' | 'path' | 'header',
  issues: readonly z.core.$ZodIssue[],
  model?: ModelBody,
): ValidationIssue[] {
  return issues.flatMap((issue) =>
    model === undefined
      ? entries(
          issue,
          [where, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))],
          issue.input,
        )
      : modelEntries(issue, issue.path, { ...model, where }),
  );
}

/** The entries of one issue at `loc`, whose value is `given`. */
function entries(
  issue: z.core.$ZodIssue,
  loc: (string | number)[],
  given: unknown,
): ValidationIssue[] {
  if (given instanceof Absent) {
    return [{ type: 'missing', loc, msg: 'Field required', input: given.parent }];
  }
  const input = given === undefined ? null : given;
  switch (issue.code) {
    case 'invalid_type': {
      if (given === undefined) {
        return [{ type: 'missing', loc, msg: 'Field required', input: null }];
      }
      const [type, msg] = WRONG_TYPE[issue.expected] ?? ['type_error', issue.message];
      return [{ type, loc, msg, input }];
    }
    case 'invalid_value': {
      // A required enum that is absent: pydantic says missing, not which values it takes.
      if (given === undefined) {
        return [{ type: 'missing', loc, msg: 'Field required', input: null }];
      }
      const expected = literals(issue.values);
      return [{ type: 'enum', loc, msg: `Input should be ${expected}`, input, ctx: { expected } }];
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
        input: (given as Record<string, unknown>)[key],
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
}

/** pydantic's way of listing literals: `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`. */
function literals(values: readonly unknown[]): string {
  const quoted = values.map((value) => `'${String(value)}'`);
  const last = quoted.pop() as string;
  return quoted.length === 0 ? last : `${quoted.join(', ')} or ${last}`;
}

/**
 * A body read against the schema it failed, so that its entries say what pydantic says of a
 * model-shaped body (AG-UI's RunAgentInput) rather than of flat parameters: a discriminated
 * union's tag and a plain union's member label join `loc`; an object with an id
 * (`.meta({ id })`) is a model whose class names its type errors; a bad value of a literal is a
 * `literal_error`; a missing field's input is the object it is missing from.
 */
export interface ModelBody {
  readonly schema: z.core.$ZodType;
  /** What was validated. */
  readonly value: unknown;
}

/** What the model reading needs of a zod schema's definition. */
interface Def {
  readonly type: string;
  readonly innerType?: z.core.$ZodType;
  readonly shape?: Readonly<Record<string, z.core.$ZodType>>;
  readonly element?: z.core.$ZodType;
  readonly options?: readonly z.core.$ZodType[];
  readonly discriminator?: string;
  readonly values?: readonly unknown[];
}

/** A schema's definition, through its optional/nullable/default wrappers. */
function defOf(schema: z.core.$ZodType): Def & { readonly schema: z.core.$ZodType } {
  let def = schema._zod.def as unknown as Def;
  while (def.innerType !== undefined) {
    schema = def.innerType;
    def = schema._zod.def as unknown as Def;
  }
  return { ...def, schema };
}

/** The model a schema is, if it is one: an object with an id. */
function modelName(schema: z.core.$ZodType): string | undefined {
  const { type, schema: inner } = defOf(schema);
  return type === 'object' ? z.globalRegistry.get(inner)?.id : undefined;
}

/** pydantic's label of a plain union's member (ours hold strings, lists and tagged unions). */
function memberLabel(schema: z.core.$ZodType): string {
  const def = defOf(schema);
  if (def.type === 'string') return 'str';
  if (def.type === 'array') return `list[${memberLabel(def.element as z.core.$ZodType)}]`;
  return `tagged-union[${(def.options as readonly z.core.$ZodType[]).map(modelName).join(',')}]`;
}

/** The tag each option of a discriminated union stands for, in its order. */
function tagsOf(def: Def): string[] {
  const key = def.discriminator as string;
  return (def.options as readonly z.core.$ZodType[]).map((option) => {
    const shape = defOf(option).shape as Readonly<Record<string, z.core.$ZodType>>;
    return String((defOf(shape[key] as z.core.$ZodType).values as readonly unknown[])[0]);
  });
}

/** What a path leads to: its loc, the schema and value there, and the value holding it. */
interface Place {
  readonly loc: (string | number)[];
  readonly schema: z.core.$ZodType;
  readonly value: unknown;
  readonly parent: unknown;
}

/**
 * Follows `path` from the body. A discriminated union whose tag is valid adds the tag to the loc;
 * a plain union adds the label of `member`, given for an error of one of its members (zod reports
 * errors below a plain union only as such).
 */
function walk(
  model: ModelBody & { readonly where: string },
  path: readonly PropertyKey[],
  member?: number,
): Place {
  const loc: (string | number)[] = [model.where];
  let schema = withTag(model.schema, model.value, loc);
  let value = model.value;
  let parent: unknown = undefined;
  for (let i = 0; i <= path.length; i++) {
    const def = defOf(schema);
    if (def.type === 'union' && def.discriminator === undefined && member !== undefined) {
      const chosen = (def.options as readonly z.core.$ZodType[])[member] as z.core.$ZodType;
      loc.push(memberLabel(chosen));
      schema = chosen;
    }
    if (i === path.length) break;
    const key = path[i] as string | number;
    loc.push(key);
    parent = value;
    value = (value as Record<string | number, unknown>)[key];
    // Issues arise only at places the schema declares: a list's item or an object's field.
    const next = defOf(schema);
    const child = next.type === 'array' ? next.element : (next.shape as Def['shape'] & {})[key];
    schema = withTag(child as z.core.$ZodType, value, loc);
  }
  return { loc, schema, value, parent };
}

/** A discriminated union whose tag is valid resolves to its option (the tag joins the loc). */
function withTag(
  schema: z.core.$ZodType,
  value: unknown,
  loc: (string | number)[],
): z.core.$ZodType {
  const def = defOf(schema);
  if (def.discriminator === undefined || !isRecord(value)) return schema;
  const index = tagsOf(def).indexOf(value[def.discriminator] as string);
  if (index === -1) return schema;
  loc.push(value[def.discriminator] as string);
  return (def.options as readonly z.core.$ZodType[])[index] as z.core.$ZodType;
}

/** The entries of one issue of a model-shaped body. */
function modelEntries(
  issue: z.core.$ZodIssue,
  path: readonly PropertyKey[],
  model: ModelBody & { readonly where: string },
  member?: number,
): ValidationIssue[] {
  if (issue.code === 'invalid_union' && issue.discriminator !== undefined) {
    // zod points at the discriminator key; pydantic at the object holding it.
    return [tagEntry(issue.discriminator, walk(model, path.slice(0, -1), member))];
  }
  const { loc, schema, value, parent } = walk(model, path, member);
  if (value === undefined && isRecord(parent)) {
    return [{ type: 'missing', loc, msg: 'Field required', input: parent }];
  }
  switch (issue.code) {
    case 'invalid_union':
      // Union[str, List[…]]: pydantic reports every member's errors under its label.
      return issue.errors.flatMap((errors, index) =>
        errors.flatMap((inner) => modelEntries(inner, [...path, ...inner.path], model, index)),
      );
    case 'invalid_value': {
      const expected = literals(issue.values);
      const msg = `Input should be ${expected}`;
      return [{ type: 'literal_error', loc, msg, input: value, ctx: { expected } }];
    }
    case 'invalid_type': {
      if (issue.expected !== 'object') break;
      const name = modelName(schema);
      if (name === undefined) {
        const msg = 'Input should be a valid dictionary or object to extract fields from';
        return [{ type: 'model_attributes_type', loc, msg, input: value }];
      }
      const msg = `Input should be a valid dictionary or instance of ${name}`;
      return [{ type: 'model_type', loc, msg, input: value, ctx: { class_name: name } }];
    }
  }
  return entries(issue, loc, value);
}

/** `union_tag_not_found` (no tag) or `union_tag_invalid` (a tag no member has). */
function tagEntry(key: string, place: Place): ValidationIssue {
  const { loc, value } = place;
  const object = value as Record<string, unknown>;
  const discriminator = `'${key}'`;
  if (object[key] === undefined) {
    const msg = `Unable to extract tag using discriminator ${discriminator}`;
    return { type: 'union_tag_not_found', loc, msg, input: object, ctx: { discriminator } };
  }
  const tag = String(object[key]);
  const expectedTags = tagsOf(defOf(place.schema))
    .map((option) => `'${option}'`)
    .join(', ');
  return {
    type: 'union_tag_invalid',
    loc,
    msg: `Input tag '${tag}' found using ${discriminator} does not match any of the expected tags: ${expectedTags}`,
    input: object,
    ctx: { discriminator, tag, expected_tags: expectedTags },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
