/**
 * Whitespace words: the pieces always join back to the text; the count is the word count.
 */
import fc from 'fast-check';
import t from 'tap';
import { countTokens, splitWords } from '../../../src/runtime/model/tokens.js';

t.test(
  'splitWords keeps the whitespace before each word and the trailing whitespace',
  async (t) => {
    const rows: [string, string[]][] = [
      ['', []],
      ['one', ['one']],
      ['Echo: hello  world', ['Echo:', ' hello', '  world']],
      ['  lead and trail \n', ['  lead', ' and', ' trail \n']],
      ['   ', ['   ']],
    ];
    for (const [text, pieces] of rows) t.same(splitWords(text), pieces, JSON.stringify(text));
  },
);

t.test('splitWords pieces join back to the text, one per word [property]', async (t) => {
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', '\t', 'é') }), (text) => {
      const pieces = splitWords(text);
      return (
        pieces.join('') === text &&
        pieces.length === Math.max(countTokens(text), text === '' ? 0 : 1)
      );
    }),
  );
  t.pass('property holds');
});

t.test('countTokens counts whitespace-separated words', async (t) => {
  t.equal(countTokens(''), 0);
  t.equal(countTokens('  \n '), 0);
  t.equal(countTokens('Echo: hello  world'), 3);
  t.equal(countTokens(' add {"a":1, "b":2} '), 3);
});
