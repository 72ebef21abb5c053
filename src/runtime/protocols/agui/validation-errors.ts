/**
 * zod issues of the RunAgentInput schema → FastAPI/pydantic validation entries:
 * `loc` from `body` through the aliases, list indexes, the discriminator tag of a tagged union and the member label of a plain union, with pydantic's types, messages and ctx. Pure.
 */
import type { z } from 'zod';
import type { ValidationIssue } from '../../../shared/validation-issue.js';

/** The message of BinaryInputContent's own check (ag-ui-protocol's model validator). */
export const BINARY_SOURCE_ERROR = 'BinaryInputContent requires id, url, or data to be provided.';

/** What sits under each key of an object at a place (absent keys: plain values). */
type Fields = Readonly<Record<string, Node>>;

/**
 * Where a value sits in RunAgentInput, as far as naming its errors needs: a model (pydantic
 * class), a list, a tagged union (its tag joins the loc), a plain union (its member's label joins
 * the loc) or a plain value. Only models have fields; the others' are empty.
 */
type Node =
  | { readonly kind: 'list'; readonly item: Node }
  | ({ readonly fields: Fields } & (
      | { readonly kind: 'model'; readonly name: string }
      | { readonly kind: 'tagged'; readonly key: string; readonly options: Fields }
      | { readonly kind: 'union'; readonly members: readonly { label: string; node: Node }[] }
      | { readonly kind: 'value' }
    ));

const VALUE: Node = { kind: 'value', fields: {} };
const model = (name: string, fields: Fields = {}): Node => ({ kind: 'model', name, fields });
const list = (item: Node): Node => ({ kind: 'list', item });
const tagged = (key: string, options: Fields): Node => ({
  kind: 'tagged',
  key,
  options,
  fields: {},
});

const SOURCE = tagged('type', {
  data: model('InputContentDataSource'),
  url: model('InputContentUrlSource'),
});
const CONTENT_PARTS: Record<string, Node> = {
  text: model('TextInputContent'),
  image: model('ImageInputContent', { source: SOURCE }),
  audio: model('AudioInputContent', { source: SOURCE }),
  video: model('VideoInputContent', { source: SOURCE }),
  document: model('DocumentInputContent', { source: SOURCE }),
  binary: model('BinaryInputContent'),
};
/** pydantic's label of `List[InputContent]` inside `Union[str, List[InputContent]]`. */
const PARTS_LABEL = `list[tagged-union[${Object.values(CONTENT_PARTS)
  .map((node) => (node as { name: string }).name)
  .join(',')}]]`;
const TOOL_CALL = model('ToolCall', { function: model('FunctionCall') });

const ROOT = model('RunAgentInput', {
  messages: list(
    tagged('role', {
      developer: model('DeveloperMessage'),
      system: model('SystemMessage'),
      assistant: model('AssistantMessage', { toolCalls: list(TOOL_CALL) }),
      user: model('UserMessage', {
        content: {
          kind: 'union',
          fields: {},
          members: [
            { label: 'str', node: VALUE },
            { label: PARTS_LABEL, node: list(tagged('type', CONTENT_PARTS)) },
          ],
        },
      }),
      tool: model('ToolMessage'),
      activity: model('ActivityMessage'),
      reasoning: model('ReasoningMessage'),
    }),
  ),
  tools: list(model('Tool')),
  context: list(model('Context')),
  resume: list(model('ResumeEntry')),
});

/** What a path leads to: its pydantic loc, the node and value there, and the value holding it. */
interface Place {
  readonly loc: (string | number)[];
  readonly node: Node;
  readonly value: unknown;
  readonly parent: unknown;
}

/**
 * Follows `path` from the body. A tagged union whose tag is valid adds the tag to the loc; a plain
 * union adds the label of `member`, given for an error of one of its members (zod reports errors
 * below a plain union only as such).
 */
function walk(body: unknown, path: readonly PropertyKey[], member?: number): Place {
  const loc: (string | number)[] = ['body'];
  let node = resolveTag(ROOT, body, loc);
  let value = body;
  let parent: unknown = undefined;
  for (let i = 0; i <= path.length; i++) {
    if (node.kind === 'union' && member !== undefined) {
      const chosen = node.members[member] as { label: string; node: Node };
      loc.push(chosen.label);
      node = chosen.node;
    }
    if (i === path.length) break;
    const key = path[i] as string | number;
    loc.push(key);
    parent = value;
    value = (value as Record<string | number, unknown>)[key];
    node = resolveTag(node.kind === 'list' ? node.item : (node.fields[key] ?? VALUE), value, loc);
  }
  return { loc, node, value, parent };
}

/** A tagged union whose tag is valid resolves to its option (the tag joins the loc). */
function resolveTag(node: Node, value: unknown, loc: (string | number)[]): Node {
  if (node.kind !== 'tagged' || !isRecord(value)) return node;
  const tag = value[node.key];
  if (typeof tag !== 'string' || !Object.hasOwn(node.options, tag)) return node;
  loc.push(tag);
  return node.options[tag] as Node;
}

/** pydantic's way of listing literals: `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`. */
function literals(values: readonly unknown[]): string {
  const quoted = values.map((value) => `'${String(value)}'`);
  const last = quoted.pop() as string;
  return quoted.length === 0 ? last : `${quoted.join(', ')} or ${last}`;
}

/** The validation entries for `issues`, in their order; `body` is what was validated. */
export function aguiValidationIssues(
  issues: readonly z.core.$ZodIssue[],
  body: unknown,
): ValidationIssue[] {
  return issues.flatMap((issue) => detailsOf(issue, issue.path, body));
}

function detailsOf(
  issue: z.core.$ZodIssue,
  path: readonly PropertyKey[],
  body: unknown,
  member?: number,
): ValidationIssue[] {
  if (issue.code === 'invalid_union' && issue.discriminator !== undefined) {
    // zod points at the discriminator key; pydantic at the object holding it.
    const place = walk(body, path.slice(0, -1), member);
    return [tagError(issue.discriminator, place)];
  }
  const place = walk(body, path, member);
  if (place.value === undefined && isRecord(place.parent)) {
    return [{ type: 'missing', loc: place.loc, msg: 'Field required', input: place.parent }];
  }
  switch (issue.code) {
    case 'invalid_union':
      // Union[str, List[InputContent]]: pydantic reports every member's errors under its label.
      return issue.errors.flatMap((errors, index) =>
        errors.flatMap((inner) => detailsOf(inner, [...path, ...inner.path], body, index)),
      );
    case 'invalid_value':
      return [
        {
          type: 'literal_error',
          loc: place.loc,
          msg: `Input should be ${literals(issue.values)}`,
          input: place.value,
          ctx: { expected: literals(issue.values) },
        },
      ];
    case 'custom':
      return [
        {
          type: 'value_error',
          loc: place.loc,
          msg: `Value error, ${issue.message}`,
          input: place.value,
          ctx: { error: issue.message },
        },
      ];
    case 'invalid_type':
      return [typeError(issue.expected, place)];
    /* c8 ignore next 4 -- the schema raises no other code; a new one still answers 422, not 500 */
    default:
      return [{ type: 'value_error', loc: place.loc, msg: issue.message, input: place.value }];
  }
}

function typeError(expected: string, place: Place): ValidationIssue {
  const { loc, node, value } = place;
  if (expected === 'string') {
    return { type: 'string_type', loc, msg: 'Input should be a valid string', input: value };
  }
  if (expected === 'array') {
    return { type: 'list_type', loc, msg: 'Input should be a valid list', input: value };
  }
  if (expected === 'record') {
    return { type: 'dict_type', loc, msg: 'Input should be a valid dictionary', input: value };
  }
  if (node.kind === 'model') {
    return {
      type: 'model_type',
      loc,
      msg: `Input should be a valid dictionary or instance of ${node.name}`,
      input: value,
      ctx: { class_name: node.name },
    };
  }
  return {
    type: 'model_attributes_type',
    loc,
    msg: 'Input should be a valid dictionary or object to extract fields from',
    input: value,
  };
}

/** `union_tag_not_found` (no tag) or `union_tag_invalid` (a tag no member has). */
function tagError(key: string, place: Place): ValidationIssue {
  const object = place.value as Record<string, unknown>;
  const discriminator = `'${key}'`;
  if (object[key] === undefined) {
    return {
      type: 'union_tag_not_found',
      loc: place.loc,
      msg: `Unable to extract tag using discriminator ${discriminator}`,
      input: object,
      ctx: { discriminator },
    };
  }
  const tag = String(object[key]);
  const expectedTags = Object.keys((place.node as { options: object }).options)
    .map((option) => `'${option}'`)
    .join(', ');
  return {
    type: 'union_tag_invalid',
    loc: place.loc,
    msg: `Input tag '${tag}' found using ${discriminator} does not match any of the expected tags: ${expectedTags}`,
    input: object,
    ctx: { discriminator, tag, expected_tags: expectedTags },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
