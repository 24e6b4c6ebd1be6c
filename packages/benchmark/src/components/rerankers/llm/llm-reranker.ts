import { RERANKER_KINDS } from '@lme/search-core';
import { RERANK_DEPTH_OPTION } from '../rerank-depth-option.js';
import { defineReranker } from '../reranker-descriptor.js';

/** Prompt tokens of one call around the candidates (instructions, the question twice). */
const OVERHEAD_TOKENS = 160;
/** RankGPT's window and step, the listwise reranker's defaults. */
const WINDOW = 20;
const STEP = 10;

/** `llm:<model>`: a chat model orders the candidates listwise, in a sliding window. */
export const LLM_RERANKER = defineReranker({
  name: 'llm',
  description: 'a chat model orders the candidates (listwise, sliding window)',
  options: { rerankDepth: RERANK_DEPTH_OPTION },
  capabilities: { form: 'llm:<model>', chatModel: true, server: false },
  create: (model, _options, dependencies) => RERANKER_KINDS.llm(model, { chat: dependencies.chat() }),
  pricedModel: (model) => model,
  // One call per window of 20 moved by 10.
  planCalls: ({ depth, candidateTokens, queryTokens }) => {
    const windows = depth <= WINDOW ? 1 : 1 + Math.ceil((depth - WINDOW) / STEP);
    const perWindow = Math.min(depth, WINDOW);
    return {
      calls: windows,
      promptTokens: windows * (perWindow * candidateTokens + 2 * queryTokens + OVERHEAD_TOKENS),
      completionTokens: windows * (8 * perWindow + 16),
    };
  },
});
