import type { Benchmark } from '../benchmarks/benchmark.js';
import { buildCorpus } from '../benchmarks/build-corpus.js';
import { evidenceSessions } from '../benchmarks/longmemeval-record.js';
import type { Provider } from './provider.js';
import type { ProviderDescriptor } from './provider-descriptor.js';

/**
 * `full-context`: no retrieval, the whole haystack goes to the reader (cut as the official code
 * does); `oracle`: only the evidence sessions. Each says which sessions in
 * `readerHaystackSessions`, so the QA stage needs no provider names. Neither ranks anything, so
 * their samples carry QA results and no retrieval metrics.
 */
export function createContextProvider(kind: 'full-context' | 'oracle', benchmark?: Benchmark): Provider {
  return {
    id: kind,
    async retrieve({ record }) {
      return {
        corpus: buildCorpus(record, { granularity: 'session', indexRoles: 'user' }, benchmark),
        ranking: [],
        hits: [],
        graded: false,
        readerHaystackSessions:
          kind === 'oracle' ? evidenceSessions(record) : record.haystack_sessions.map((_, index) => index),
        timings: { indexMs: 0, retrieveMs: 0 },
      };
    },
  };
}

const READER_ONLY = { external: false, answersItself: false, ranks: false } as const;

/** `--provider full-context`: the whole haystack to the reader. */
export const fullContextDescriptor: ProviderDescriptor = {
  name: 'full-context',
  description: 'no retrieval: the whole haystack goes to the reader (needs --reader-model)',
  options: {},
  capabilities: { ...READER_ONLY, readerSessions: 'haystack' },
  create: ({ benchmark }) => createContextProvider('full-context', benchmark),
};

/** `--provider oracle`: the evidence sessions to the reader. */
export const oracleDescriptor: ProviderDescriptor = {
  name: 'oracle',
  description: 'no retrieval: only the evidence sessions go to the reader (an upper bound)',
  options: {},
  capabilities: { ...READER_ONLY, readerSessions: 'evidence' },
  create: ({ benchmark }) => createContextProvider('oracle', benchmark),
};
