import { HF_EMBEDDER } from './hf/hf-embedder.js';
import { LOCAL_EMBEDDER } from './local/local-embedder.js';
import { OPENAI_EMBEDDER } from './openai/openai-embedder.js';

/**
 * Every embedder family `--embedder <family>:<model>` names: one line each, its descriptor in its
 * own folder (`components/embedders/<family>/`).
 */
export const EMBEDDERS = {
  local: LOCAL_EMBEDDER,
  hf: HF_EMBEDDER,
  openai: OPENAI_EMBEDDER,
} as const;

/**
 * The embedder when neither a preset nor --embedder names one: the hybrid preset's (issue 37), so
 * `--retriever hybrid` without a preset embeds as `--preset hybrid` does (session-aware chose
 * e5-small on the dev suite and names it itself). presets.test.ts keeps the two in step.
 */
export const DEFAULT_EMBEDDER = 'hf:Xenova/bge-small-en-v1.5+hf:Xenova/e5-small-v2';
