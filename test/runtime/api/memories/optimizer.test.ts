/**
 * The offline memory optimization: duplicates (same words, any case or
 * spacing) kept once, in order, joined into one summary, with whitespace-token counts.
 */
import t from 'tap';
import { optimizeMemories } from '../../../../src/runtime/api/memories/optimizer.js';

t.test('duplicates go, the rest is joined in order, topics merged and sorted', async (t) => {
  t.same(
    optimizeMemories([
      { memory: 'Likes tea', topics: ['food'] },
      { memory: 'Lives in Oslo', topics: ['place', 'food'] },
      { memory: '  LIKES\ttea ', topics: [] },
    ]),
    {
      memory: 'Likes tea Lives in Oslo',
      topics: ['food', 'place'],
      memoriesBefore: 3,
      memoriesAfter: 1,
      tokensBefore: 7,
      tokensAfter: 5,
      tokensSaved: 2,
      reductionPercentage: 28.57,
    },
  );
});

t.test('one memory: nothing saved', async (t) => {
  t.match(optimizeMemories([{ memory: 'Only one', topics: [] }]), {
    memory: 'Only one',
    tokensSaved: 0,
    reductionPercentage: 0,
  });
});

t.test('memories without words: 0 tokens, 0 percent', async (t) => {
  t.match(optimizeMemories([{ memory: '   ', topics: [] }]), {
    memory: '',
    tokensBefore: 0,
    tokensAfter: 0,
    reductionPercentage: 0,
  });
});

t.test('no memories is a programming error', async (t) => {
  t.throws(() => optimizeMemories([]), new RangeError('no memories to optimize'));
});
