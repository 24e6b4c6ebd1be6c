import { createBm25DenseRetriever } from '@lme/search-core';
import type { BuiltRetriever, RetrieverCapabilities, RetrieverDependencies } from './retriever-descriptor.js';

/**
 * bm25, dense and hybrid: the routes searched over the documents, fused when more than one (each
 * has its own folder and descriptor; they share this factory).
 */
export function createRouteRetriever(
  _options: Readonly<Record<string, never>>,
  { routes, tokenizer, dense, fusion, namespace, routeSettings }: RetrieverDependencies,
): BuiltRetriever {
  return {
    retriever: createBm25DenseRetriever({ routes, tokenizer, dense, fusion, namespace, ...routeSettings }),
  };
}

/** What a retriever over fixed routes reads: the fusion of its routes and every route setting. */
export const ROUTE_CAPABILITIES = {
  fusion: 'routes',
  timeBoost: true,
  denseNeighbours: true,
  refuses: [],
} as const satisfies Partial<RetrieverCapabilities>;
