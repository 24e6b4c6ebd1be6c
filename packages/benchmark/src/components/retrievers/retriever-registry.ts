import { bm25Retriever } from './bm25/bm25-retriever.js';
import { denseRetriever } from './dense/dense-retriever.js';
import { fts5Bm25Retriever } from './fts5-bm25/fts5-bm25-retriever.js';
import { hybridRetriever } from './hybrid/hybrid-retriever.js';
import { multiRouteRetriever } from './multi-route/multi-route-retriever.js';
import { multiSourceRetriever } from './multi-source/multi-source-retriever.js';
import { sessionAwareRetriever } from './session-aware/session-aware-retriever.js';
import { sessionDocumentRetriever } from './session-document/session-document-retriever.js';

/**
 * Every base retriever `--retriever` names: one line each, its descriptor in its own folder
 * (`components/retrievers/<name>/`). Its options, help, "has no effect" warnings and capabilities
 * all come from the descriptor. The first is the default.
 */
export const RETRIEVERS = {
  bm25: bm25Retriever,
  dense: denseRetriever,
  hybrid: hybridRetriever,
  'session-aware': sessionAwareRetriever,
  'multi-route': multiRouteRetriever,
  'multi-source': multiSourceRetriever,
  'session-document': sessionDocumentRetriever,
  'fts5-bm25': fts5Bm25Retriever,
} as const;

export type RetrieverName = keyof typeof RETRIEVERS;
