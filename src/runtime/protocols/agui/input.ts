/**
 * The body of `POST /agui`: `@ag-ui/core`'s RunAgentInput schema, extended so it accepts exactly
 * the RunAgentInput of docs/runtime.md (see docs/runtime.md § AG-UI for every difference closed), and the
 * parse that turns a raw body into it or into a FastAPI-style 422. Never runs anything.
 */
import {
  ActivityMessageSchema,
  AssistantMessageSchema,
  AudioInputContentSchema,
  ContextSchema,
  DeveloperMessageSchema,
  DocumentInputContentSchema,
  ImageInputContentSchema,
  InputContentDataSourceSchema,
  InputContentUrlSourceSchema,
  ReasoningMessageSchema,
  ResumeEntrySchema,
  RunAgentInputSchema,
  SystemMessageSchema,
  TextInputContentSchema,
  ToolCallSchema,
  ToolMessageSchema,
  ToolSchema,
  UserMessageSchema,
  VideoInputContentSchema,
} from '@ag-ui/core/schemas';
import { z } from 'zod';
import { HttpError } from '../../http/errors.js';
import { pydanticIssue, validationIssues } from '../../../shared/validation-issue.js';
import { isRecord } from '../json.js';

/** The message of BinaryInputContent's own check (ag-ui-protocol's model validator). */
const BINARY_SOURCE_ERROR = 'BinaryInputContent requires id, url, or data to be provided.';

/** "string or null", not required. */
const nullableString = z.string().nullable().optional();
/**
 * A key RunAgentInput does not name (core's `metadata`, `subagentRunId`, `protocolVersion`, a text part's
 * `id`): we accept additional properties of any value, so core's checks on them are dropped.
 */
const extra = z.unknown().optional();
/** "any JSON value", required: null is a value, an absent key is `missing`. */
const anyRequired = z.unknown();

// The ids (`.meta({ id })`) name the parts as the OpenAPI document's component schemas.

/** Union options zod can tell apart by a key's literal value. */
type Tagged = readonly [z.core.$ZodTypeDiscriminable, ...z.core.$ZodTypeDiscriminable[]];

/**
 * The union of named `options` told apart by `key`, documented with OpenAPI's `discriminator`:
 * each option's tag (its literal `key`) maps to its component schema (its id).
 */
function taggedUnion<const Options extends Tagged>(
  key: string,
  options: Options,
  meta: { readonly id?: string; readonly description?: string } = {},
) {
  const mapping = options.map((option) => {
    const [tag] = option._zod.propValues[key] as Set<unknown>;
    const { id } = z.globalRegistry.get(option as z.core.$ZodType) as { readonly id: string };
    return [tag, `#/components/schemas/${id}`];
  });
  return z
    .discriminatedUnion(key, options)
    .meta({ ...meta, discriminator: { propertyName: key, mapping: Object.fromEntries(mapping) } });
}

const ToolCall = ToolCallSchema.extend({
  type: z.literal('function').optional(),
  function: ToolCallSchema.shape.function
    .extend({
      arguments: ToolCallSchema.shape.function.shape.arguments.meta({ description: 'JSON text' }),
    })
    .meta({ id: 'FunctionCall' }),
  encryptedValue: nullableString,
  metadata: extra,
}).meta({ id: 'ToolCall' });

const Source = taggedUnion('type', [
  InputContentDataSourceSchema.meta({
    id: 'InputContentDataSource',
    description: 'Inline base64-encoded content',
  }),
  InputContentUrlSourceSchema.extend({ mimeType: nullableString }).meta({
    id: 'InputContentUrlSource',
    description: 'Content referenced by URL',
  }),
]);

/** What we accept of a media part beyond core: data or url sources only, any metadata. */
const mediaFields = { source: Source, id: extra, metadata: extra };

/** The deprecated BinaryInputContent (core 1.0 dropped it): one of id, url or data is needed. */
const BinaryInputContent = z
  .looseObject({
    type: z.literal('binary'),
    mimeType: z.string(),
    id: nullableString,
    url: nullableString,
    data: nullableString,
    filename: nullableString,
  })
  .superRefine((part, context) => {
    if (!part.id && !part.url && !part.data) {
      context.addIssue(
        pydanticIssue(part, {
          type: 'value_error',
          msg: `Value error, ${BINARY_SOURCE_ERROR}`,
          ctx: { error: BINARY_SOURCE_ERROR },
        }),
      );
    }
  })
  .meta({ id: 'BinaryInputContent', deprecated: true });

const InputContent = taggedUnion(
  'type',
  [
    TextInputContentSchema.extend({ id: extra, metadata: extra }).meta({ id: 'TextInputContent' }),
    ImageInputContentSchema.extend(mediaFields).meta({ id: 'ImageInputContent' }),
    AudioInputContentSchema.extend(mediaFields).meta({ id: 'AudioInputContent' }),
    VideoInputContentSchema.extend(mediaFields).meta({ id: 'VideoInputContent' }),
    DocumentInputContentSchema.extend(mediaFields).meta({ id: 'DocumentInputContent' }),
    BinaryInputContent,
  ],
  { id: 'InputContent', description: 'A part of multimodal user content, discriminated by type' },
);

const messageExtras = { metadata: extra, subagentRunId: extra };
const named = { name: nullableString, encryptedValue: nullableString, ...messageExtras };

const Message = taggedUnion(
  'role',
  [
    DeveloperMessageSchema.extend(named).meta({ id: 'DeveloperMessage' }),
    SystemMessageSchema.extend(named).meta({ id: 'SystemMessage' }),
    AssistantMessageSchema.extend({
      ...named,
      content: nullableString,
      toolCalls: z.array(ToolCall).nullable().optional(),
    }).meta({ id: 'AssistantMessage' }),
    UserMessageSchema.extend({
      ...named,
      content: z.union([z.string(), z.array(InputContent)]),
    }).meta({ id: 'UserMessage' }),
    ToolMessageSchema.extend({
      ...messageExtras,
      content: z.string(),
      error: nullableString,
      encryptedValue: nullableString,
    }).meta({ id: 'ToolMessage' }),
    ActivityMessageSchema.extend({
      ...messageExtras,
      content: z.record(z.string(), z.unknown()),
    }).meta({ id: 'ActivityMessage' }),
    ReasoningMessageSchema.extend({ ...messageExtras, encryptedValue: nullableString }).meta({
      id: 'ReasoningMessage',
    }),
  ],
  { id: 'Message', description: 'A message, discriminated by role' },
);

/** RunAgentInput as we accept it (field order kept: errors come in that order). */
export const runAgentInputSchema = RunAgentInputSchema.extend({
  threadId: RunAgentInputSchema.shape.threadId.meta({ description: 'The session id' }),
  runId: RunAgentInputSchema.shape.runId.meta({ description: 'The id of the run to start' }),
  protocolVersion: extra,
  parentRunId: nullableString,
  state: anyRequired.meta({ description: 'Any JSON value; an object becomes the session state' }),
  messages: z.array(Message),
  tools: z.array(
    ToolSchema.extend({ parameters: z.unknown().optional(), metadata: extra }).meta({
      id: 'Tool',
      description: 'A client tool the run may call (it pauses the run)',
    }),
  ),
  context: z.array(ContextSchema.meta({ id: 'Context' })),
  forwardedProps: anyRequired.meta({
    description: 'Any JSON value; an object may carry user_id',
  }),
  resume: z
    .array(
      ResumeEntrySchema.extend({ payload: z.unknown().optional(), metadata: extra }).meta({
        id: 'ResumeEntry',
        description: 'The answer to one interrupt of a paused run',
      }),
    )
    .nullable()
    .optional(),
}).meta({
  id: 'RunAgentInput',
  title: 'RunAgentInput',
  description: 'The body of POST /agui (AG-UI). Additional properties are accepted.',
});

/** A validated RunAgentInput. */
export type RunAgentInput = z.output<typeof runAgentInputSchema>;
/** One message of it. */
export type InputMessage = RunAgentInput['messages'][number];

/** snake_case spellings accepted beside the camelCase ones, in any object. */
const SNAKE_KEYS: ReadonlyMap<string, string> = new Map([
  ['thread_id', 'threadId'],
  ['run_id', 'runId'],
  ['parent_run_id', 'parentRunId'],
  ['forwarded_props', 'forwardedProps'],
  ['protocol_version', 'protocolVersion'],
  ['tool_calls', 'toolCalls'],
  ['tool_call_id', 'toolCallId'],
  ['encrypted_value', 'encryptedValue'],
  ['activity_type', 'activityType'],
  ['mime_type', 'mimeType'],
  ['interrupt_id', 'interruptId'],
]);

/**
 * Parses a raw `POST /agui` body. As FastAPI does: a JSON content type (or none) is decoded, an
 * empty body is `missing`, undecodable JSON is `json_invalid`, anything else is validated as is.
 *
 * @throws {HttpError} 422 with the pydantic-style details
 */
export function parseRunAgentInput(raw: string, contentType: string | undefined): RunAgentInput {
  let body: unknown = raw;
  if (isJsonType(contentType)) {
    if (raw.trim() === '') {
      throw new HttpError(422, [
        { type: 'missing', loc: ['body'], msg: 'Field required', input: null },
      ]);
    }
    try {
      body = JSON.parse(raw);
    } catch (error) {
      throw new HttpError(422, [jsonInvalid(raw, (error as Error).message)]);
    }
  }
  const input = withCamelKeys(body);
  const parsed = runAgentInputSchema.safeParse(input);
  if (!parsed.success) {
    const model = { schema: runAgentInputSchema, value: input };
    throw new HttpError(422, validationIssues('body', parsed.error.issues, model));
  }
  return parsed.data;
}

/** No content type, `application/json` or `application/*+json` (FastAPI's rule). */
function isJsonType(contentType: string | undefined): boolean {
  if (contentType === undefined || contentType.trim() === '') return true;
  const mime = (contentType.split(';')[0] as string).trim().toLowerCase();
  return mime === 'application/json' || (mime.startsWith('application/') && mime.endsWith('+json'));
}

/** FastAPI's `json_invalid` entry; the position comes from the parser's message when it has one. */
function jsonInvalid(raw: string, message: string) {
  const at = /at position (\d+)/.exec(message);
  const position = at !== null ? Number(at[1]) : /end of JSON input/.test(message) ? raw.length : 0;
  return {
    type: 'json_invalid',
    loc: ['body', position],
    msg: 'JSON decode error',
    input: {},
    ctx: { error: message },
  };
}

/**
 * The body with snake_case keys renamed to camelCase in every object RunAgentInput defines (a camelCase key
 * already present wins). Free-form values (`state`, `forwardedProps`, `parameters`, `payload`,
 * activity content) are left alone.
 */
function withCamelKeys(body: unknown): unknown {
  const part = (item: unknown): unknown => renamed(item, { source: renamed });
  const message = (item: unknown): unknown =>
    renamed(item, {
      toolCalls: (calls) => eachOf(calls, renamed),
      content: (content) => eachOf(content, part),
    });
  return renamed(body, {
    messages: (messages) => eachOf(messages, message),
    resume: (entries) => eachOf(entries, renamed),
  });
}

/**
 * A copy of an object with its snake_case keys renamed and the values under `nested` keys mapped;
 * anything that is not an object is returned as is.
 */
function renamed(
  value: unknown,
  nested: Readonly<Record<string, (item: unknown) => unknown>> = {},
): unknown {
  if (!isRecord(value)) return value;
  // fromEntries, not assignment: a `__proto__` key stays data and never sets the prototype.
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      const camel = SNAKE_KEYS.get(key);
      const name = camel !== undefined && !Object.hasOwn(value, camel) ? camel : key;
      const map = Object.hasOwn(nested, name) ? nested[name] : undefined;
      return [name, map === undefined ? item : map(item)];
    }),
  );
}

/** Each item of an array mapped; anything else as is (the schema reports it). */
function eachOf(value: unknown, map: (item: unknown) => unknown): unknown {
  return Array.isArray(value) ? value.map(map) : value;
}
