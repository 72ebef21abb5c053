/**
 * The forms of the knowledge write routes: content options (reader, chunker,
 * chunk sizes), metadata, and what `POST /knowledge/content` reads from (text, a file, URLs).
 * Validates and shapes input only; 400/422 name the field at fault.
 */
import { createHash } from 'node:crypto';
import { formJson, formString, type Form } from '../../http/forms.js';
import { HttpError } from '../../http/errors.js';
import { fetchableUrl } from './fetch.js';
import type { ContentSource } from './processing.js';
import { CHUNKER, DEFAULT_CHUNK_OVERLAP, DEFAULT_CHUNK_SIZE, READERS, typeOfFile } from './text.js';

/** The most URLs one `url` field may list. */
export const MAX_URLS = 20;

/** What a content is read from, its default name and origin, and the seed of its id. */
export interface SourceOfForm {
  readonly source: ContentSource;
  /** The file name or first URL; null for text. */
  readonly defaultName: string | null;
  /** The URLs, space-separated; null for uploads. */
  readonly origin: string | null;
  /** Type known before reading (file, text); null for URLs. */
  readonly type: string | null;
  /** What the content's id is hashed from, besides its name and description. */
  readonly key: string;
}

/** A `reader_id` field: null when absent; 400 for a reader the runtime does not have. */
export function readerIdOf(form: Form): string | null {
  const readerId = formString(form, 'reader_id');
  if (readerId !== null && !Object.hasOwn(READERS, readerId)) {
    const known = Object.keys(READERS).join(', ');
    throw new HttpError(400, `Invalid reader_id '${readerId}': the readers are ${known}`);
  }
  return readerId;
}

/** An integer form field of at least `min` (`fallback` when absent); 422 otherwise. */
function formInt(form: Form, field: string, fallback: number, min: number): number {
  const value = formString(form, field);
  if (value === null) return fallback;
  const loc = ['body', field];
  if (!/^-?\d+$/.test(value)) {
    throw new HttpError(422, [
      {
        type: 'int_parsing',
        loc,
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        input: value,
      },
    ]);
  }
  const n = Number(value);
  if (n < min) {
    throw new HttpError(422, [
      {
        type: 'greater_than_equal',
        loc,
        msg: `Input should be greater than or equal to ${min}`,
        input: value,
        ctx: { ge: min },
      },
    ]);
  }
  return n;
}

/**
 * How a content is read and chunked: `reader_id`, `chunker`, `chunk_size` and `chunk_overlap`
 * of a write form.
 */
export function contentOptionsOf(form: Form) {
  const readerId = readerIdOf(form);
  const chunker = formString(form, 'chunker') ?? CHUNKER;
  if (chunker !== CHUNKER) {
    throw new HttpError(400, `Invalid chunker '${chunker}': the only chunker is ${CHUNKER}`);
  }
  const chunkSize = formInt(form, 'chunk_size', DEFAULT_CHUNK_SIZE, 1);
  const chunkOverlap = formInt(form, 'chunk_overlap', DEFAULT_CHUNK_OVERLAP, 0);
  if (chunkOverlap >= chunkSize) {
    throw new HttpError(
      400,
      `chunk_overlap (${chunkOverlap}) must be less than chunk_size (${chunkSize})`,
    );
  }
  return { readerId, chunker, chunkSize, chunkOverlap };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Upload `metadata`: a JSON object as is; any other text as `{"value": …}` (Agno's rule). */
export function uploadMetadataOf(form: Form): Record<string, unknown> | null {
  const text = formString(form, 'metadata');
  if (text === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { value: text };
  }
  return isObject(parsed) ? parsed : { value: parsed };
}

/** A JSON-object field (null when absent); 400 for bad JSON or another JSON value. */
export function objectFieldOf(form: Form, field: string): Record<string, unknown> | null {
  const value = formJson(form, field);
  if (value === null || isObject(value)) return value;
  throw new HttpError(400, `${field} must be a JSON object`);
}

/** The URLs of a `url` field: one URL, or a JSON array of 1 to {@link MAX_URLS} of them. */
function urlsOf(text: string): URL[] {
  let list: unknown = [text];
  if (text.trimStart().startsWith('[')) {
    list = formJson({ fields: { url: text }, files: [] }, 'url');
    if (!Array.isArray(list) || list.length === 0 || list.length > MAX_URLS) {
      throw new HttpError(400, `url must be a URL or a JSON array of 1 to ${MAX_URLS} URLs`);
    }
  }
  return (list as unknown[]).map((item) => {
    const url = typeof item === 'string' ? fetchableUrl(item) : null;
    if (url === null) {
      throw new HttpError(
        400,
        `Invalid url ${JSON.stringify(item)}: only http and https URLs are fetched`,
      );
    }
    return url;
  });
}

/** What `POST /knowledge/content` reads from: exactly one of `file`, `url` and `text_content`. */
export function sourceOf(form: Form): SourceOfForm {
  const file = form.files.find((f) => f.field === 'file');
  const url = formString(form, 'url');
  const text = formString(form, 'text_content');
  const given = [file, url, text].filter((v) => v != null).length;
  if (given !== 1) {
    throw new HttpError(
      400,
      given === 0
        ? 'No content provided: send a file, a url or text_content'
        : 'Send only one of file, url and text_content',
    );
  }
  if (file !== undefined) {
    const type = typeOfFile(file.filename, file.mimetype);
    return {
      source: { kind: 'file', type, data: file.data },
      defaultName: file.filename,
      origin: null,
      type,
      key: `file:${createHash('sha256').update(file.data).digest('hex')}`,
    };
  }
  if (url !== null) {
    const urls = urlsOf(url);
    const origin = urls.map((u) => u.href).join(' ');
    return {
      source: { kind: 'urls', urls },
      defaultName: (urls[0] as URL).href,
      origin,
      type: null,
      key: `url:${origin}`,
    };
  }
  return {
    source: { kind: 'text', text: text as string },
    defaultName: null,
    origin: null,
    type: 'text/plain',
    key: `text:${text as string}`,
  };
}
