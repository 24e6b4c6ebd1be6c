import { RERANKER_KINDS } from '@lme/search-core';
import { RERANK_DEPTH_OPTION } from '../rerank-depth-option.js';
import { defineReranker } from '../reranker-descriptor.js';

/** `offline:session-prior[@<weight>]`, `offline:interleave`: reorderings that call nothing. */
export const OFFLINE_RERANKER = defineReranker({
  name: 'offline',
  description: 'a reordering by the candidates’ sessions that calls no model',
  options: { rerankDepth: RERANK_DEPTH_OPTION },
  capabilities: { form: 'offline:session-prior[@w], offline:interleave', chatModel: false, server: false },
  create: (name) => RERANKER_KINDS.offline(name),
  pricedModel: () => undefined,
});
