import { defineRetriever } from '../retriever-descriptor.js';
import { createRouteRetriever, ROUTE_CAPABILITIES } from '../route-retriever.js';

/** `--retriever hybrid`: BM25 and dense fused (`--fusion`). */
export const hybridRetriever = defineRetriever({
  name: 'hybrid',
  description: 'BM25 and dense fused (--fusion)',
  options: {},
  capabilities: { ...ROUTE_CAPABILITIES, routes: ['bm25', 'dense'], bm25Settings: true },
  create: createRouteRetriever,
});
