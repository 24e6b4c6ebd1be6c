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
