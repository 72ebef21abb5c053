/**
 * The JSON bodies of the session write routes, checked field by field as
 * FastAPI and pydantic would: every problem is listed, in field order, as one 422 entry at
 * `["body", …]`. Pure: reads what Fastify parsed, never the store or the caller.
 */
import { HttpError } from '../../http/errors.js';
import type { SessionType } from '../../store/records.js';
import { isSessionType, typeEnumDetail } from './lookup.js';
import { type ValidationIssue } from '../../../shared/validation-issue.js';

type Loc = readonly (string | number)[];
type Json = Record<string, unknown>;

/** The body of `POST /sessions`, checked. */
export interface CreateBody {
  /** `null`: the runtime picks one (an empty string counts as none, as in Agno). */
  readonly sessionId: string | null;
  readonly sessionName: string | null;
  readonly sessionState: Json | null;
  readonly metadata: Json | null;
  /** The client's value; who owns the session is decided with the caller (`runUserOf`). */
  readonly userId: string | null;
  /** The agent, team or workflow id, from the field of the session's kind. */
  readonly componentId: string;
}

/** The summary of `PATCH /sessions/{id}`, checked. */
export interface SummaryBody {
  readonly summary: string;
  readonly topics: string[] | null;
  /** Epoch seconds; `undefined`: the time of the request. */
  readonly updatedAt: number | undefined;
}

/** The body of `PATCH /sessions/{id}`: only the fields given (not null) change. */
export interface UpdateBody {
  readonly sessionName?: string;
  readonly sessionState?: Json;
  readonly metadata?: Json;
  readonly summary?: SummaryBody;
}

/** The body of the bulk `DELETE /sessions`, checked (lengths not yet compared). */
export interface BulkDeleteBody {
  readonly sessionIds: string[];
  readonly sessionTypes: SessionType[];
}

const missing = (loc: Loc, input: unknown): ValidationIssue => ({
  type: 'missing',
  loc,
  msg: 'Field required',
  input,
});

const wrongType = (type: string, msg: string) => (loc: Loc, input: unknown) =>
  ({ type, loc, msg, input }) satisfies ValidationIssue;
const stringType = wrongType('string_type', 'Input should be a valid string');
const dictType = wrongType('dict_type', 'Input should be a valid dictionary');
const listType = wrongType('list_type', 'Input should be a valid list');
const datetimeType = wrongType('datetime_type', 'Input should be a valid datetime');

const isJsonObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** FastAPI reads a body as JSON only for `application/json` and `application/*+json`. */
const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/**
 * The parsed body as a JSON object, or `null` when there is none (no body, or JSON `null`).
 * A body of another content type reaches pydantic as bytes, and JSON that is not an object as
 * itself: both are the 422 `model_attributes_type` at `["body"]`.
 */
function jsonObject(body: unknown, contentType: string | undefined): Json | null {
  if (body === undefined || body === null) return null;
  const json = contentType !== undefined && JSON_TYPE.test(contentType);
  if (json && isJsonObject(body)) return body;
  throw new HttpError(422, [
    {
      type: 'model_attributes_type',
      loc: ['body'],
      msg: 'Input should be a valid dictionary or object to extract fields from',
      input: json || typeof body === 'string' ? body : null,
    },
  ]);
}

/** Collects the problems of one body, in the order its fields are read. */
class Checker {
  readonly problems: ValidationIssue[] = [];

  private readonly body: Json;

  constructor(body: Json) {
    this.body = body;
  }

  /** An optional string field: absent and `null` are both `null`. */
  string(field: string): string | null {
    const value = this.body[field];
    if (value === undefined || value === null) return null;
    if (typeof value === 'string') return value;
    this.problems.push(stringType(['body', field], value));
    return null;
  }

  /** An optional JSON-object field: absent and `null` are both `null`. */
  dict(field: string): Json | null {
    const value = this.body[field];
    if (value === undefined || value === null) return null;
    if (isJsonObject(value)) return value;
    this.problems.push(dictType(['body', field], value));
    return null;
  }

  /** Throws the 422 when any problem was found. */
  done(): void {
    if (this.problems.length > 0) throw new HttpError(422, this.problems);
  }
}

const ID_FIELDS = ['agent_id', 'team_id', 'workflow_id'] as const;
const ID_FIELD_OF: Readonly<Record<SessionType, (typeof ID_FIELDS)[number]>> = {
  agent: 'agent_id',
  team: 'team_id',
  workflow: 'workflow_id',
};

/**
 * `{session_id?, session_name?, session_state?, metadata?, user_id?, agent_id?, team_id?,
 * workflow_id?}` for a session of kind `type`. (ours) The id field of that kind is required and
 * non-empty, and the id fields of the other kinds must be left out: a session belongs to exactly
 * one agent, team or workflow, so `{team_id}` without `?type=team` is refused rather than stored
 * as an agent session of nobody.
 */
export function parseCreateBody(
  body: unknown,
  contentType: string | undefined,
  type: SessionType,
): CreateBody {
  const json = jsonObject(body, contentType);
  const check = new Checker(json ?? {});
  const sessionId = check.string('session_id');
  const sessionName = check.string('session_name');
  const sessionState = check.dict('session_state');
  const metadata = check.dict('metadata');
  const userId = check.string('user_id');
  let componentId = '';
  for (const field of ID_FIELDS) {
    const given = json?.[field];
    const value = check.string(field);
    if (field === ID_FIELD_OF[type]) {
      if (given === undefined || given === null) {
        check.problems.push(missing(['body', field], json));
      } else if (value === '') {
        check.problems.push({
          type: 'string_too_short',
          loc: ['body', field],
          msg: 'String should have at least 1 character',
          input: value,
          ctx: { min_length: 1 },
        });
      } else if (value !== null) {
        componentId = value;
      }
    } else if (value !== null && value !== '') {
      const error = `${field} does not apply to a session of type ${type}`;
      check.problems.push({
        type: 'value_error',
        loc: ['body', field],
        msg: `Value error, ${error}`,
        input: value,
        ctx: { error },
      });
    }
  }
  check.done();
  return {
    sessionId: sessionId === '' ? null : sessionId,
    sessionName,
    sessionState,
    metadata,
    userId,
    componentId,
  };
}

/**
 * `{"session_name": "…"}` (FastAPI `Body(embed=True)`): a body that is not a JSON object has no
 * `session_name`, so it is the same 422 `missing` as leaving the field out.
 */
export function parseRenameBody(body: unknown, contentType: string | undefined): string {
  const json = contentType !== undefined && JSON_TYPE.test(contentType) ? body : undefined;
  const value = isJsonObject(json) ? json['session_name'] : undefined;
  if (value === undefined || value === null) {
    throw new HttpError(422, [missing(['body', 'session_name'], null)]);
  }
  if (typeof value !== 'string') {
    throw new HttpError(422, [stringType(['body', 'session_name'], value)]);
  }
  return value;
}

/** The body a route requires: no body at all is the 422 `missing` at `["body"]`. */
function requiredObject(body: unknown, contentType: string | undefined): Json {
  const json = jsonObject(body, contentType);
  if (json === null) throw new HttpError(422, [missing(['body'], null)]);
  return json;
}

/** Accepted `updated_at` strings: an ISO-8601 date, optionally with a time and an offset. */
const ISO_DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ]((?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** Milliseconds JavaScript dates reach either side of the epoch. */
const MAX_DATE_MS = 8.64e15;

/** Whether year, month and day name a real calendar day (no 30 February). */
function isCalendarDay(year: number, month: number, day: number): boolean {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * Epoch seconds of a pydantic `datetime` input: a number or numeric string (epoch seconds), or
 * an ISO-8601 string; one without an offset is UTC. `null` when it is neither.
 */
function epochSecondsOf(value: string | number): number | null {
  let ms: number;
  if (typeof value === 'number' || /^-?\d+(\.\d+)?$/.test(value)) {
    ms = Number(value) * 1000;
  } else {
    const match = ISO_DATETIME.exec(value);
    if (match === null) return null;
    const [, year, month, day, time = '00:00', zone = 'Z'] = match as unknown as string[];
    if (!isCalendarDay(Number(year), Number(month), Number(day))) return null;
    ms = Date.parse(`${year}-${month}-${day}T${time}${zone.toUpperCase()}`);
  }
  return Number.isFinite(ms) && Math.abs(ms) <= MAX_DATE_MS ? Math.floor(ms / 1000) : null;
}

/** `summary: {summary, topics?, updated_at?}` inside the PATCH body. */
function parseSummary(value: Json, problems: ValidationIssue[]): SummaryBody {
  const loc = (...path: (string | number)[]): Loc => ['body', 'summary', ...path];
  let summary = '';
  if (value['summary'] === undefined || value['summary'] === null) {
    problems.push(missing(loc('summary'), value));
  } else if (typeof value['summary'] !== 'string') {
    problems.push(stringType(loc('summary'), value['summary']));
  } else {
    summary = value['summary'];
  }
  let topics: string[] | null = null;
  const givenTopics = value['topics'];
  if (Array.isArray(givenTopics)) {
    givenTopics.forEach((topic: unknown, i) => {
      if (typeof topic !== 'string') problems.push(stringType(loc('topics', i), topic));
    });
    topics = givenTopics as string[];
  } else if (givenTopics !== undefined && givenTopics !== null) {
    problems.push(listType(loc('topics'), givenTopics));
  }
  let updatedAt: number | undefined;
  const givenAt = value['updated_at'];
  if (typeof givenAt === 'string' || typeof givenAt === 'number') {
    const seconds = epochSecondsOf(givenAt);
    if (seconds === null) {
      problems.push({
        type: 'datetime_parsing',
        loc: loc('updated_at'),
        msg: 'Input should be a valid datetime, invalid datetime format',
        input: givenAt,
        ctx: { error: 'invalid datetime format' },
      });
    } else {
      updatedAt = seconds;
    }
  } else if (givenAt !== undefined && givenAt !== null) {
    problems.push(datetimeType(loc('updated_at'), givenAt));
  }
  return { summary, topics, updatedAt };
}

/**
 * `{session_name?, session_state?, metadata?, summary?}`: each field given (and not null)
 * replaces the stored one; `null` leaves it as it is, as Agno does.
 */
export function parseUpdateBody(body: unknown, contentType: string | undefined): UpdateBody {
  const json = requiredObject(body, contentType);
  const check = new Checker(json);
  const sessionName = check.string('session_name');
  const sessionState = check.dict('session_state');
  const metadata = check.dict('metadata');
  const summaryObject = check.dict('summary');
  const summary = summaryObject === null ? undefined : parseSummary(summaryObject, check.problems);
  check.done();
  return {
    ...(sessionName === null ? {} : { sessionName }),
    ...(sessionState === null ? {} : { sessionState }),
    ...(metadata === null ? {} : { metadata }),
    ...(summary === undefined ? {} : { summary }),
  };
}

/** A required list of at least one item, each checked by `item` (which reports its own). */
function nonEmptyList<T>(
  json: Json,
  field: string,
  problems: ValidationIssue[],
  item: (value: unknown, loc: Loc) => T | null,
): T[] {
  const value = json[field];
  const loc = ['body', field];
  if (value === undefined || value === null) {
    problems.push(missing(loc, json));
    return [];
  }
  if (!Array.isArray(value)) {
    problems.push(listType(loc, value));
    return [];
  }
  if (value.length === 0) {
    problems.push({
      type: 'too_short',
      loc,
      msg: 'List should have at least 1 item after validation, not 0',
      input: value,
      ctx: { field_type: 'List', min_length: 1, actual_length: 0 },
    });
  }
  return value.map((v: unknown, i) => item(v, [...loc, i])).filter((v): v is T => v !== null);
}

/** `{session_ids: [string, …≥1], session_types: [agent|team|workflow, …≥1]}`. */
export function parseBulkDeleteBody(
  body: unknown,
  contentType: string | undefined,
): BulkDeleteBody {
  const json = requiredObject(body, contentType);
  const problems: ValidationIssue[] = [];
  const sessionIds = nonEmptyList(json, 'session_ids', problems, (value, loc) => {
    if (typeof value === 'string') return value;
    problems.push(stringType(loc, value));
    return null;
  });
  const sessionTypes = nonEmptyList(json, 'session_types', problems, (value, loc) => {
    if (isSessionType(value)) return value;
    problems.push(typeEnumDetail(loc, value));
    return null;
  });
  if (problems.length > 0) throw new HttpError(422, problems);
  return { sessionIds, sessionTypes };
}
