/**
 * The SSE decoder: the same events whatever the chunk boundaries (mid-line, mid-CRLF, mid-UTF-8),
 * every line ending, comments and non-data fields skipped, and the end of the body flushing.
 */
import t from 'tap';
import { SseDecoder } from '../../../src/runtime/model/sse-decoder.js';

/** Every event of `chunks` fed in order, then the end. */
function decode(chunks: readonly (string | Uint8Array)[]): string[] {
  const decoder = new SseDecoder();
  const events: string[] = [];
  for (const chunk of chunks) {
    events.push(...decoder.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
  }
  events.push(...decoder.end());
  return events;
}

const STREAM = [
  ': comment\n\n',
  'event: message\r\nid: 7\r\nretry: 10\r\ndata: {"a":"é"}\r\n\r\n',
  'data: one\rdata:two\r\r',
  'data\n\n',
  'data: [DONE]\n\n',
].join('');
const EVENTS = ['{"a":"é"}', 'one\ntwo', '', '[DONE]'];

t.test('one chunk: data fields only, any line ending, one optional space cut', async (t) => {
  t.same(decode([STREAM]), EVENTS);
});

t.test('the same events at every split point of the bytes', async (t) => {
  const bytes = Buffer.from(STREAM);
  for (let cut = 1; cut < bytes.length; cut++) {
    t.same(decode([bytes.subarray(0, cut), bytes.subarray(cut)]), EVENTS, `cut at ${cut}`);
  }
});

t.test('one byte at a time', async (t) => {
  const bytes = Buffer.from(STREAM);
  t.same(decode([...bytes].map((byte) => Uint8Array.of(byte))), EVENTS);
});

t.test('a CR ending a chunk waits: CR LF across chunks is one line end', async (t) => {
  t.same(decode(['data: a\r', '\ndata: b\r\n\r\n']), ['a\nb']);
  t.same(decode(['data: a\r', 'data: b\r\r']), ['a\nb'], 'a lone CR is a line end too');
});

t.test(
  'the end flushes a last line without its end and an event without its blank line',
  async (t) => {
    t.same(decode(['data: x\n\ndata: [DONE]']), ['x', '[DONE]']);
    t.same(decode(['data: x\n']), ['x']);
    t.same(decode(['data: x\r']), ['x'], 'a final CR ends the line');
    t.same(decode([': only a comment']), []);
  },
);

t.test('buffered counts what waits for a line or an event end', async (t) => {
  const decoder = new SseDecoder();
  t.same(decoder.push(Buffer.from('data: abc\ndata: de')), []);
  t.equal(decoder.buffered, 'abc'.length + 1 + 'data: de'.length);
  t.same(decoder.push(Buffer.from('\n\n')), ['abc\nde']);
  t.equal(decoder.buffered, 0);
});
