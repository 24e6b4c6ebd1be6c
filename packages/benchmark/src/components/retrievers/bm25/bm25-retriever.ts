import { defineRetriever } from '../retriever-descriptor.js';
import { createRouteRetriever, ROUTE_CAPABILITIES } from '../route-retriever.js';

/** `--retriever bm25`: BM25 over the documents. */
export const bm25Retriever = defineRetriever({
  name: 'bm25',
  description: 'BM25 over the documents',
  options: {},
  capabilities: { ...ROUTE_CAPABILITIES, routes: ['bm25'], bm25Settings: true },
  create: createRouteRetriever,
});
