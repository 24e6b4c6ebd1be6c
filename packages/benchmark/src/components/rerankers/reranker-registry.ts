import { HTTP_RERANKER } from './http/http-reranker.js';
import { LLM_RERANKER } from './llm/llm-reranker.js';
import { LLM_POINTWISE_RERANKER } from './llm-pointwise/llm-pointwise-reranker.js';
import { OFFLINE_RERANKER } from './offline/offline-reranker.js';

/**
 * Every reranker family `--reranker <family>:<argument>` names: one line each, its descriptor in
 * its own folder (`components/rerankers/<family>/`).
 */
export const RERANKERS = {
  llm: LLM_RERANKER,
  'llm-pointwise': LLM_POINTWISE_RERANKER,
  http: HTTP_RERANKER,
  offline: OFFLINE_RERANKER,
} as const;
