/**
 * Turning uploaded or fetched bytes into searchable text: which types are
 * read and by which reader, HTML stripped to text, and fixed-size chunks with overlap. Pure: no
 * I/O, no store.
 */

/** A reader the runtime has: all read UTF-8 text; `html` also strips the markup. */
export interface Reader {
  readonly id: string;
  readonly name: string;
  readonly description: string;
}

/** The readers, by id (what `reader_id` may name). */
export const READERS: Readonly<Record<string, Reader>> = Object.freeze({
  text: { id: 'text', name: 'TextReader', description: 'Reads plain text as it is.' },
  markdown: { id: 'markdown', name: 'MarkdownReader', description: 'Reads Markdown as text.' },
  csv: { id: 'csv', name: 'CSVReader', description: 'Reads CSV rows as text.' },
  json: { id: 'json', name: 'JSONReader', description: 'Reads JSON documents as text.' },
  html: {
    id: 'html',
    name: 'HTMLReader',
    description: 'Reads HTML pages, dropping tags, scripts and styles.',
  },
});

/** The one chunker: fixed-size windows of characters. */
export const CHUNKER = 'FixedSizeChunker';
/** Agno's FixedSizeChunker defaults. */
export const DEFAULT_CHUNK_SIZE = 5000;
export const DEFAULT_CHUNK_OVERLAP = 0;

/** The reader for each file extension (and `url` for fetched pages), as `/knowledge/config` lists. */
export const READERS_FOR_TYPE: Readonly<Record<string, readonly string[]>> = Object.freeze({
  '.txt': ['text'],
  '.md': ['markdown'],
  '.markdown': ['markdown'],
  '.csv': ['csv'],
  '.json': ['json'],
  '.html': ['html'],
  '.htm': ['html'],
  url: ['html', 'text', 'markdown', 'csv', 'json'],
});

/** MIME types by extension, for files a browser sends as `application/octet-stream`. */
const TYPE_OF_EXTENSION: Readonly<Record<string, string>> = {
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.html': 'text/html',
  '.htm': 'text/html',
};

/** The MIME type without parameters, lower-cased (`Text/HTML; charset=x` → `text/html`). */
export function baseType(contentType: string): string {
  return (contentType.split(';')[0] as string).trim().toLowerCase();
}

/** A file's type: its MIME type, unless that says nothing and its extension is known. */
export function typeOfFile(filename: string, mimetype: string): string {
  const type = baseType(mimetype);
  if (type !== '' && type !== 'application/octet-stream') return type;
  const dot = filename.lastIndexOf('.');
  const extension = dot < 0 ? '' : filename.slice(dot).toLowerCase();
  return TYPE_OF_EXTENSION[extension] ?? 'application/octet-stream';
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/** The reader for a type; null when the type is not text the runtime reads. */
export function readerFor(type: string): string | null {
  if (HTML_TYPES.has(type)) return 'html';
  if (type === 'text/markdown' || type === 'text/x-markdown') return 'markdown';
  if (type === 'text/csv') return 'csv';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type.startsWith('text/')) return 'text';
  return null;
}

/** Why a type is not read, for the content's `status_message`. */
export function unsupportedType(type: string): string {
  return `Unsupported content type '${type}': only text, Markdown, CSV, JSON and HTML are read`;
}

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/** The text of an HTML page: scripts, styles and comments dropped, tags as spaces. */
export function htmlToText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style|noscript)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|apos|nbsp);/g, (_, name: string) => ENTITIES[name] as string)
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code) % 0x110000))
    .replace(/\s+/g, ' ')
    .trim();
}

/** The text `reader` makes of `bytes` (UTF-8). */
export function readText(bytes: Buffer, reader: string): string {
  const text = bytes.toString('utf8');
  return reader === 'html' ? htmlToText(text) : text;
}

/**
 * Fixed-size chunks: windows of `size` characters, each starting `size - overlap` after the
 * previous one, the last ending at the text's end. Empty text has no chunks.
 *
 * @throws {RangeError} unless 1 <= size and 0 <= overlap < size (the routes check first)
 */
export function chunkText(text: string, size: number, overlap: number): string[] {
  if (!(size >= 1 && overlap >= 0 && overlap < size)) {
    throw new RangeError(`bad chunking: size ${size}, overlap ${overlap}`);
  }
  const chars = [...text];
  const chunks: string[] = [];
  for (let start = 0; start < chars.length; start += size - overlap) {
    chunks.push(chars.slice(start, start + size).join(''));
    if (start + size >= chars.length) break;
  }
  return chunks;
}
