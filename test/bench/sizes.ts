/**
 * The proxy benchmark's tiny configuration for tests: a few hundred requests in all, two
 * rounds so that each figure is a median of two.
 */
import type { Sizes } from '../../bench/scenarios.js';

export const TINY: Sizes = {
  rounds: 2,
  warmup: 10,
  cached: 60,
  manyTokens: 60,
  sse: 20,
  forged: 40,
  serviceAccount: 40,
  firstUse: 40,
  hotTokens: 5,
  openLoopRate: 100,
  openLoopSeconds: 0.2,
};
