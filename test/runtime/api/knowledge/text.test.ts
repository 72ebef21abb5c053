/**
 * Reading and chunking knowledge text: which types are read by which reader, HTML stripped to
 * text, and fixed-size chunks with overlap.
 */
import t from 'tap';
import {
  baseType,
  chunkText,
  htmlToText,
  readerFor,
  readText,
  typeOfFile,
} from '../../../../src/runtime/api/knowledge/text.js';

t.test('types and their readers', async (t) => {
  const rows: [string, string | null][] = [
    ['text/plain', 'text'],
    ['text/x-log', 'text'],
    ['text/markdown', 'markdown'],
    ['text/x-markdown', 'markdown'],
    ['text/csv', 'csv'],
    ['application/json', 'json'],
    ['application/vnd.api+json', 'json'],
    ['text/html', 'html'],
    ['application/xhtml+xml', 'html'],
    ['application/pdf', null],
    ['image/png', null],
  ];
  for (const [type, reader] of rows) t.equal(readerFor(type), reader, type);
  t.equal(baseType('Text/HTML; charset=UTF-8'), 'text/html');
  t.equal(typeOfFile('notes.TXT', ''), 'text/plain', 'no type: by extension');
  t.equal(typeOfFile('README', 'application/octet-stream'), 'application/octet-stream');
  t.equal(typeOfFile('a.md', 'text/plain'), 'text/plain', 'a given type wins');
});

t.test('HTML becomes its visible text', async (t) => {
  t.equal(
    htmlToText(
      '<html><head><style>b{}</style><script type="x">alert(1)</script></head>' +
        '<body><h1>Title</h1><!-- note --><p>A &amp; B &quot;q&quot; &apos;s&apos;&nbsp;&#65;&lt;&gt;</p>' +
        '<noscript>no</noscript></body></html>',
    ),
    'Title A & B "q" \'s\' A<>',
  );
  t.equal(readText(Buffer.from('<b>x</b>'), 'html'), 'x');
  t.equal(readText(Buffer.from('<b>x</b>'), 'text'), '<b>x</b>');
});

t.test('fixed-size chunks with overlap', async (t) => {
  t.same(chunkText('', 5, 0), []);
  t.same(chunkText('abcdefghij', 5, 0), ['abcde', 'fghij']);
  t.same(chunkText('abcdefghijk', 5, 2), ['abcde', 'defgh', 'ghijk']);
  t.same(chunkText('abc', 5, 4), ['abc']);
  t.same(chunkText('🦊🦊🦊', 2, 0), ['🦊🦊', '🦊'], 'characters, not UTF-16 units');
  for (const [size, overlap] of [
    [0, 0],
    [5, 5],
    [5, -1],
  ] as const) {
    t.throws(() => chunkText('abc', size, overlap), {
      name: 'RangeError',
      message: `bad chunking: size ${size}, overlap ${overlap}`,
    });
  }
});
