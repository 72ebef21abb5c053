/**
 * Run routes take forms: `application/x-www-form-urlencoded` (the Python
 * SDK) and `multipart/form-data` (the browser UI, needed for files). Reads a parsed body into
 * plain fields and files, and the form booleans and JSON fields; never decides what a run does.
 */
import type { FastifyRequest } from 'fastify';
import { HttpError } from './errors.js';

/** A file of a multipart form. */
export interface FormFile {
  readonly field: string;
  readonly filename: string;
  readonly mimetype: string;
  readonly size: number;
  /** The file's bytes (buffered by @fastify/multipart within the server's size bounds). */
  readonly data: Buffer;
}

/** A form: its text fields (the last value of a repeated one) and its files. */
export interface Form {
  readonly fields: Readonly<Record<string, string>>;
  readonly files: readonly FormFile[];
}

const EMPTY: Form = Object.freeze({ fields: Object.freeze({}), files: Object.freeze([]) });

/** The parts @fastify/multipart attaches to the body (`attachFieldsToBody: true`). */
type MultipartPart =
  | {
      readonly type: 'field';
      readonly fieldname: string;
      readonly value: unknown;
      /** Set when the value was longer than the field size limit (and cut there). */
      readonly valueTruncated?: boolean;
    }
  | {
      readonly type: 'file';
      readonly fieldname: string;
      readonly filename: string;
      readonly mimetype: string;
      readonly _buf: Buffer;
    };

/** The form of a request; any other body (JSON included) is an empty form. */
export function readForm(request: FastifyRequest): Form {
  const type = (request.headers['content-type'] ?? '').toLowerCase();
  const body = request.body;
  if (typeof body !== 'object' || body === null) return EMPTY;
  if (type.startsWith('application/x-www-form-urlencoded')) {
    const fields: Record<string, string> = {};
    for (const [name, value] of Object.entries(body)) {
      const last: unknown = Array.isArray(value) ? value.at(-1) : value;
      if (typeof last === 'string') fields[name] = last;
    }
    return { fields, files: [] };
  }
  if (!type.startsWith('multipart/form-data')) return EMPTY;
  const fields: Record<string, string> = {};
  const files: FormFile[] = [];
  for (const entry of Object.values(body as Record<string, MultipartPart | MultipartPart[]>)) {
    for (const part of Array.isArray(entry) ? entry : [entry]) {
      if (part.type === 'field') {
        // A cut value is never used as if it were whole (fail closed).
        if (part.valueTruncated === true) {
          throw new HttpError(413, `Form field '${part.fieldname}' is too large`);
        }
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
      } else {
        files.push({
          field: part.fieldname,
          filename: part.filename,
          mimetype: part.mimetype,
          size: part._buf.length,
          data: part._buf,
        });
      }
    }
  }
  return { fields, files };
}

const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

/** A form boolean (`true/false/1/0/yes/no/on/off`); 422 otherwise. */
export function formBoolean(form: Form, field: string, fallback: boolean): boolean {
  const value = form.fields[field];
  if (value === undefined || value === '') return fallback;
  const text = value.toLowerCase();
  if (TRUE.has(text)) return true;
  if (FALSE.has(text)) return false;
  throw new HttpError(422, [
    {
      type: 'bool_parsing',
      loc: ['body', field],
      msg: 'Input should be a valid boolean, unable to interpret input',
      input: value,
    },
  ]);
}

/** A non-empty text field, or null. */
export function formString(form: Form, field: string): string | null {
  const value = form.fields[field];
  return value === undefined || value === '' ? null : value;
}

/** A JSON field (null when absent or empty); 400 `Invalid JSON in <field> field` otherwise. */
export function formJson(form: Form, field: string): unknown {
  const value = formString(form, field);
  if (value === null) return null;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw new HttpError(400, `Invalid JSON in ${field} field`);
  }
}

const MEDIA = /^(image|audio|video)\//;
const DOCUMENTS = new Set([
  'application/pdf',
  'application/json',
  'application/x-javascript',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'text/plain',
  'text/csv',
  'text/markdown',
  'text/html',
  'text/xml',
  'application/xml',
]);

/** 400 `Unsupported file type` unless every file is an image, audio, video or document. */
export function checkFiles(form: Form): void {
  for (const file of form.files) {
    if (!MEDIA.test(file.mimetype) && !DOCUMENTS.has(file.mimetype)) {
      throw new HttpError(400, 'Unsupported file type');
    }
  }
}
