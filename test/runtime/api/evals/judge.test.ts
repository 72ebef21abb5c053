/**
 * The offline judge: 10 and matched when the normalised expected text occurs in the output,
 * else 1; fixed reasons.
 */
import t from 'tap';
import {
  JUDGE_REASONS,
  judgeOutput,
  normalizeText,
} from '../../../../src/runtime/api/evals/judge.js';

t.test('normalizeText folds case and whitespace', async (t) => {
  t.equal(normalizeText('  Hello\n\tWORLD  again '), 'hello world again');
  t.equal(normalizeText(''), '');
});

t.test('judgeOutput: named rows', async (t) => {
  const rows: [name: string, output: string, expected: string, matched: boolean][] = [
    ['exact text', 'Echo: 4', 'Echo: 4', true],
    ['a substring', 'Echo: the answer is 4', 'answer is 4', true],
    ['case and spacing differ', 'Echo:  The\nAnswer', 'the answer', true],
    ['empty expected text is in every output', 'anything', '   ', true],
    ['absent text', 'Echo: 5', '4', false],
    ['words split differently', 'Echo: ans wer', 'answer', false],
  ];
  for (const [name, output, expected, matched] of rows) {
    t.same(
      judgeOutput(output, expected),
      matched
        ? { score: 10, matched: true, reason: JUDGE_REASONS.matched }
        : { score: 1, matched: false, reason: JUDGE_REASONS.missed },
      name,
    );
  }
});
