import { defineRetriever } from '../retriever-descriptor.js';
import { createRouteRetriever, ROUTE_CAPABILITIES } from '../route-retriever.js';

/** `--retriever dense`: dense similarity over the documents. */
export const denseRetriever = defineRetriever({
  name: 'dense',
  description: 'dense similarity over the documents',
  options: {},
  capabilities: { ...ROUTE_CAPABILITIES, routes: ['dense'], bm25Settings: false },
  create: createRouteRetriever,
});
