/**
 * The OpenAPI schemas of AG-UI input: `RunAgentInput` (the body of `POST /agui`), the messages,
 * tools, context and resume entries it carries, the input contents of a user message, and the
 * FastAPI validation error shapes. Data only, camelCase as on the wire.
 */
import { ANY, arrayOf, nullable, ref, STRING, type Json } from './parts.js';

const NULLABLE_STRING = nullable(STRING);

/** A `role`/`type` tag: constant and default the same value, not required. */
const tag = (value: string): Json => ({ type: 'string', const: value, default: value });

/** A message with `id`, its role tag, and `fields`; `required` besides `id`. */
const message = (role: string, fields: Json, required: readonly string[]): Json => ({
  type: 'object',
  required: ['id', ...required],
  properties: { id: STRING, role: tag(role), ...fields },
});

/** One source of a media content part. */
const mediaContent = (type: string): Json => ({
  type: 'object',
  required: ['source'],
  properties: {
    type: tag(type),
    source: {
      oneOf: [ref('InputContentDataSource'), ref('InputContentUrlSource')],
      discriminator: {
        propertyName: 'type',
        mapping: {
          data: '#/components/schemas/InputContentDataSource',
          url: '#/components/schemas/InputContentUrlSource',
        },
      },
    },
    metadata: ANY,
  },
});

const MESSAGES: Readonly<Record<string, string>> = {
  developer: 'DeveloperMessage',
  system: 'SystemMessage',
  assistant: 'AssistantMessage',
  user: 'UserMessage',
  tool: 'ToolMessage',
  activity: 'ActivityMessage',
  reasoning: 'ReasoningMessage',
};

const INPUT_CONTENTS: Readonly<Record<string, string>> = {
  text: 'TextInputContent',
  image: 'ImageInputContent',
  audio: 'AudioInputContent',
  video: 'VideoInputContent',
  document: 'DocumentInputContent',
  binary: 'BinaryInputContent',
};

/** A `oneOf` over `names` discriminated by `property`. */
const union = (property: string, names: Readonly<Record<string, string>>): Json => ({
  oneOf: Object.values(names).map(ref),
  discriminator: {
    propertyName: property,
    mapping: Object.fromEntries(
      Object.entries(names).map(([tagValue, name]) => [tagValue, `#/components/schemas/${name}`]),
    ),
  },
});

/** The AG-UI input schemas by name. */
export const AGUI_SCHEMAS: Readonly<Record<string, Json>> = {
  RunAgentInput: {
    type: 'object',
    title: 'RunAgentInput',
    description: 'The body of POST /agui (AG-UI). Additional properties are accepted.',
    required: ['threadId', 'runId', 'state', 'messages', 'tools', 'context', 'forwardedProps'],
    properties: {
      threadId: { type: 'string', description: 'The session id' },
      runId: { type: 'string', description: 'The id of the run to start' },
      parentRunId: NULLABLE_STRING,
      state: { description: 'Any JSON value; an object becomes the session state' },
      messages: arrayOf(ref('Message')),
      tools: arrayOf(ref('Tool')),
      context: arrayOf(ref('Context')),
      forwardedProps: { description: 'Any JSON value; an object may carry user_id' },
      resume: nullable(arrayOf(ref('ResumeEntry'))),
    },
  },
  Message: { description: 'A message, discriminated by role', ...union('role', MESSAGES) },
  DeveloperMessage: message(
    'developer',
    { content: STRING, name: NULLABLE_STRING, encryptedValue: NULLABLE_STRING },
    ['content'],
  ),
  SystemMessage: message(
    'system',
    { content: STRING, name: NULLABLE_STRING, encryptedValue: NULLABLE_STRING },
    ['content'],
  ),
  AssistantMessage: message(
    'assistant',
    {
      content: NULLABLE_STRING,
      name: NULLABLE_STRING,
      encryptedValue: NULLABLE_STRING,
      toolCalls: nullable(arrayOf(ref('ToolCall'))),
    },
    [],
  ),
  UserMessage: message(
    'user',
    {
      content: { anyOf: [STRING, arrayOf(ref('InputContent'))] },
      name: NULLABLE_STRING,
      encryptedValue: NULLABLE_STRING,
    },
    ['content'],
  ),
  ToolMessage: message(
    'tool',
    {
      content: STRING,
      toolCallId: STRING,
      error: NULLABLE_STRING,
      encryptedValue: NULLABLE_STRING,
    },
    ['content', 'toolCallId'],
  ),
  ActivityMessage: message('activity', { activityType: STRING, content: { type: 'object' } }, [
    'activityType',
    'content',
  ]),
  ReasoningMessage: message('reasoning', { content: STRING, encryptedValue: NULLABLE_STRING }, [
    'content',
  ]),
  ToolCall: {
    type: 'object',
    required: ['id', 'function'],
    properties: {
      id: STRING,
      type: tag('function'),
      function: ref('FunctionCall'),
      encryptedValue: NULLABLE_STRING,
    },
  },
  FunctionCall: {
    type: 'object',
    required: ['name', 'arguments'],
    properties: { name: STRING, arguments: { type: 'string', description: 'JSON text' } },
  },
  Tool: {
    type: 'object',
    description: 'A client tool the run may call (it pauses the run)',
    required: ['name', 'description'],
    properties: { name: STRING, description: STRING, parameters: ANY },
  },
  Context: {
    type: 'object',
    required: ['description', 'value'],
    properties: { description: STRING, value: STRING },
  },
  ResumeEntry: {
    type: 'object',
    description: 'The answer to one interrupt of a paused run',
    required: ['interruptId', 'status'],
    properties: {
      interruptId: STRING,
      status: { type: 'string', enum: ['resolved', 'cancelled'] },
      payload: ANY,
    },
  },
  InputContent: {
    description: 'A part of multimodal user content, discriminated by type',
    ...union('type', INPUT_CONTENTS),
  },
  TextInputContent: {
    type: 'object',
    required: ['text'],
    properties: { type: tag('text'), text: STRING },
  },
  ImageInputContent: mediaContent('image'),
  AudioInputContent: mediaContent('audio'),
  VideoInputContent: mediaContent('video'),
  DocumentInputContent: mediaContent('document'),
  BinaryInputContent: {
    type: 'object',
    deprecated: true,
    required: ['mimeType'],
    properties: {
      type: tag('binary'),
      mimeType: STRING,
      id: NULLABLE_STRING,
      url: NULLABLE_STRING,
      data: NULLABLE_STRING,
      filename: NULLABLE_STRING,
    },
  },
  InputContentDataSource: {
    type: 'object',
    description: 'Inline base64-encoded content',
    required: ['value', 'mimeType'],
    properties: { type: tag('data'), value: STRING, mimeType: STRING },
  },
  InputContentUrlSource: {
    type: 'object',
    description: 'Content referenced by URL',
    required: ['value'],
    properties: { type: tag('url'), value: STRING, mimeType: NULLABLE_STRING },
  },
};
