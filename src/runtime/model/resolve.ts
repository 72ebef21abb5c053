/**
 * Finds the model behind an agent's `model: {id, provider}`. Only the offline provider exists so
 * far; an unknown provider resolves to null and the run fails with a RunError.
 */
import type { Model } from './model.js';
import { OFFLINE_PROVIDER, offlineModel } from './offline.js';

/** Looks a model reference up; null when no provider of that name is available. */
export type ModelResolver = (ref: {
  readonly id: string;
  readonly provider: string;
}) => Model | null;

/** The runtime's resolver: provider `offline` → the offline model (whatever its id). */
export const resolveModel: ModelResolver = (ref) =>
  ref.provider === OFFLINE_PROVIDER ? offlineModel : null;
