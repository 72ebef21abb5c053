/**
 * Finds the model behind an agent's model reference: provider `offline` is the offline model, a
 * configured `openai-compatible` model is built once per settings object. An unknown provider
 * resolves to null and the run fails with a RunError.
 */
import {
  OPENAI_COMPATIBLE_PROVIDER,
  type ModelRef,
  type ModelSettings,
} from '../catalogue/definitions.js';
import type { Model } from './model.js';
import { OFFLINE_PROVIDER, offlineModel } from './offline.js';
import { createOpenAiCompatibleModel } from './openai-compatible.js';

/** Looks a model reference up; null when no provider of that name is available. */
export type ModelResolver = (ref: ModelRef) => Model | null;

// One model (and so one connection pool) per configured model, kept as long as the catalogue
// holding its settings object lives: not one pool per run.
const configured = new WeakMap<ModelSettings, Model>();

/**
 * The runtime's resolver: provider `offline` → the offline model (whatever its id);
 * `openai-compatible` with settings → that chat-completions model.
 */
export const resolveModel: ModelResolver = (ref) => {
  if (ref.provider === OFFLINE_PROVIDER) return offlineModel;
  const { settings } = ref;
  if (ref.provider !== OPENAI_COMPATIBLE_PROVIDER || settings === undefined) return null;
  let model = configured.get(settings);
  if (model === undefined) {
    model = createOpenAiCompatibleModel(settings);
    configured.set(settings, model);
  }
  return model;
};
