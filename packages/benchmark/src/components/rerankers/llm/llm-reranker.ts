import { RERANKER_KINDS } from '@lme/search-core';
import { RERANK_DEPTH_OPTION } from '../rerank-depth-option.js';
import { defineReranker } from '../reranker-descriptor.js';

/** `llm:<model>`: a chat model orders the candidates listwise, in a sliding window. */
export const LLM_RERANKER = defineReranker({
  name: 'llm',
  description: 'a chat model orders the candidates (listwise, sliding window)',
  options: { rerankDepth: RERANK_DEPTH_OPTION },
  capabilities: { form: 'llm:<model>', chatModel: true, server: false },
  create: (model, _options, dependencies) => RERANKER_KINDS.llm(model, { chat: dependencies.chat() }),
  pricedModel: (model) => model,
});
