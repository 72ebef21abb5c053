/**
 * Reads a server-sent event stream (WHATWG HTML §9.2.6) from bytes split anywhere: yields the
 * `data` of each event. Pure: no I/O; what the data means is the caller's business.
 */

// A line ends at CRLF, LF or CR. CR is tried after CRLF so a CRLF is one ending, not two.
const LINE_END = /\r\n|\n|\r/g;

/**
 * Incremental SSE decoder. Feed it chunks with {@link SseDecoder.push} and, once the body has
 * ended, call {@link SseDecoder.end}; each returns the `data` of the events completed so far (the
 * data lines of one event joined with `\n`). Comments (`:` lines), `event`, `id`, `retry` and
 * unknown fields are skipped. A UTF-8 character or a CRLF split between chunks is put back
 * together.
 */
export class SseDecoder {
  private readonly utf8 = new TextDecoder('utf-8');
  /** Text after the last complete line. */
  private rest = '';
  /** Data lines of the event being read. */
  private data: string[] = [];
  private dataLength = 0;

  /** Characters held back waiting for a line or event end: lets a caller bound them. */
  get buffered(): number {
    return this.rest.length + this.dataLength;
  }

  /** Decodes one chunk of the body; returns the data of every event it completed. */
  push(bytes: Uint8Array): string[] {
    return this.read(this.utf8.decode(bytes, { stream: true }), false);
  }

  /**
   * The body has ended: a last line without its line end and an event without its blank line
   * still count (servers that stop right after `data: [DONE]`).
   */
  end(): string[] {
    return this.read(this.utf8.decode(), true);
  }

  private read(text: string, final: boolean): string[] {
    const events: string[] = [];
    const buffer = this.rest + text;
    let from = 0;
    LINE_END.lastIndex = 0;
    for (let match = LINE_END.exec(buffer); match !== null; match = LINE_END.exec(buffer)) {
      // A CR that ends the buffer may be the first half of a CRLF: wait for the next chunk.
      if (!final && match[0] === '\r' && LINE_END.lastIndex === buffer.length) break;
      this.line(buffer.slice(from, match.index), events);
      from = LINE_END.lastIndex;
    }
    this.rest = buffer.slice(from);
    if (final) {
      if (this.rest !== '') this.line(this.rest, events);
      this.rest = '';
      this.line('', events);
    }
    return events;
  }

  private line(line: string, events: string[]): void {
    if (line === '') {
      if (this.data.length > 0) events.push(this.data.join('\n'));
      this.data = [];
      this.dataLength = 0;
      return;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field !== 'data') return;
    const value = colon === -1 ? '' : line.slice(colon + 1);
    const data = value.startsWith(' ') ? value.slice(1) : value;
    this.data.push(data);
    this.dataLength += data.length + 1;
  }
}
