import { RERANKER_KINDS } from '@lme/search-core';
import { RERANK_DEPTH_OPTION } from '../rerank-depth-option.js';
import { defineReranker } from '../reranker-descriptor.js';

/** Prompt tokens of one call around the candidate (instructions, the question). */
const OVERHEAD_TOKENS = 90;

/** `llm-pointwise:<model>`: a chat model judges each candidate alone (yes/no log-probabilities). */
export const LLM_POINTWISE_RERANKER = defineReranker({
  name: 'llm-pointwise',
  description: 'a chat model judges each candidate alone',
  options: { rerankDepth: RERANK_DEPTH_OPTION },
  capabilities: { form: 'llm-pointwise:<model>', chatModel: true, server: false },
  create: (model, _options, dependencies) =>
    RERANKER_KINDS['llm-pointwise'](model, { chat: dependencies.chat() }),
  pricedModel: (model) => model,
  // One call per candidate with a 1-token answer.
  planCalls: ({ depth, candidateTokens, queryTokens }) => ({
    calls: depth,
    promptTokens: depth * (candidateTokens + queryTokens + OVERHEAD_TOKENS),
    completionTokens: depth,
  }),
});
