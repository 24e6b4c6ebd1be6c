import { buildCorpus } from '../corpus/build-corpus.js';
import type { Provider } from './provider.js';

/**
 * `full-context`: no retrieval, the whole haystack goes to the reader (cut as the official code
 * does); `oracle`: only the evidence sessions. The QA stage picks those sessions by provider id. Neither ranks anything, so their samples carry
 * QA results and no retrieval metrics.
 */
export function createContextProvider(kind: 'full-context' | 'oracle'): Provider {
  return {
    id: kind,
    async retrieve({ record }) {
      return {
        corpus: buildCorpus(record, { granularity: 'session', indexRoles: 'user' }),
        ranking: [],
        hits: [],
        graded: false,
        timings: { indexMs: 0, retrieveMs: 0 },
      };
    },
  };
}
