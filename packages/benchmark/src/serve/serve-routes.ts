import type { MemoryDocument, Retriever } from '@lme/search-core';
import { buildCorpus, type Granularity } from '../benchmarks/build-corpus.js';
import type { LongMemEvalRecord } from '../benchmarks/longmemeval-record.js';
import { lmeVersion } from '../config/lme-version.js';
import type { RetrievalSection } from '../config/sections/retrieval-section.js';
import { ingestRequestSchema, resetRequestSchema, searchRequestSchema } from '../providers/http/protocol.js';
import type { Pipeline } from '../providers/pipeline/configured-pipeline.js';
import { httpError, parseBody } from './http-exchange.js';
import { megabytes, type NamespaceStore, type StoredNamespace } from './namespace-store.js';

type Index = { documents: MemoryDocument[]; retriever: Promise<Retriever> };
export type ServeNamespaces = NamespaceStore<Index>;
type Namespace = StoredNamespace<Index>;

/** A route of the provider protocol: its method and what it answers to a parsed JSON body. */
export type ServeRoute = { method: 'GET' | 'POST'; handle(body: unknown): Promise<unknown> };

export type ServeRoutesOptions = {
  /** The retrieval settings searches use and /v1/health shows. */
  retrieval: Pick<RetrievalSection, 'retriever' | 'tokenizer' | 'granularity' | 'indexRoles'>;
  pipeline: Pipeline;
  namespaces: ServeNamespaces;
  /** Shown by /v1/health. */
  maxMemoryBytes: number;
};

/** The provider protocol's routes (docs/provider-protocol.md) over namespaces held in memory. */
export function createServeRoutes({
  retrieval,
  pipeline,
  namespaces,
  maxMemoryBytes,
}: ServeRoutesOptions): Record<string, ServeRoute> {
  let built = 0;

  function indexOf(namespace: Namespace, granularity: Granularity): Index {
    const cached = namespace.indexes.get(granularity);
    if (cached) return cached;
    // Session positions stand in for session ids, so repeated ids stay distinct documents and each
    // document leads back to its stored session and turn.
    const record: LongMemEvalRecord = {
      question_id: '',
      question_type: '',
      question: '',
      answer: '',
      question_date: '',
      haystack_session_ids: namespace.sessions.map((_, index) => String(index)),
      haystack_dates: namespace.sessions.map((session) => session.date),
      haystack_sessions: namespace.sessions.map((session) =>
        session.turns.map((turn) => ({ role: turn.role, content: turn.content })),
      ),
      answer_session_ids: [],
    };
    const { documents } = buildCorpus(record, { granularity, indexRoles: retrieval.indexRoles });
    const retriever = pipeline.createRetriever(`serve-${built++}`);
    const index: Index = {
      documents,
      retriever: retriever.index({ documents }).then(() => retriever),
    };
    // A failed build is not cached: the next search tries again.
    index.retriever.catch(() => namespace.indexes.delete(granularity));
    namespace.indexes.set(granularity, index);
    return index;
  }

  return {
    '/v1/health': {
      method: 'GET',
      handle: async () => ({
        status: 'ok',
        name: 'lme serve',
        version: lmeVersion(),
        retriever: retrieval.retriever,
        tokenizer: retrieval.tokenizer,
        index_roles: retrieval.indexRoles,
        namespaces: namespaces.size,
        // The estimate --max-memory-mb bounds (the namespaces' sessions and their index), and what
        // the process holds in all, measured: Node itself, the pipeline's models and caches too.
        memory_mb: megabytes(namespaces.heldBytes),
        max_memory_mb: megabytes(maxMemoryBytes),
        rss_mb: megabytes(process.memoryUsage.rss()),
      }),
    },
    '/v1/reset': {
      method: 'POST',
      handle: async (body) => {
        namespaces.reset(parseBody(resetRequestSchema, body).namespace);
        return { ok: true };
      },
    },
    '/v1/ingest': {
      method: 'POST',
      handle: async (body) => {
        const request = parseBody(ingestRequestSchema, body);
        const sessions = request.sessions.map((session, sessionIndex) => {
          const turns = [...session.turns].sort((left, right) => left.turn_index - right.turn_index);
          turns.forEach((turn, position) => {
            if (position > 0 && turns[position - 1]!.turn_index === turn.turn_index) {
              throw httpError(
                400,
                `invalid request: sessions.${sessionIndex} (session_id ${JSON.stringify(session.session_id)}) repeats turn_index ${turn.turn_index}.`,
              );
            }
          });
          return { session_id: session.session_id, date: session.date, turns };
        });
        const state = namespaces.append(request.namespace, sessions);
        return { ok: true, sessions: state.sessions.length };
      },
    },
    '/v1/search': {
      method: 'POST',
      handle: async (body) => {
        const request = parseBody(searchRequestSchema, body);
        const state = namespaces.use(request.namespace, false);
        const granularity = request.granularity ?? retrieval.granularity;
        const sessions = state.sessions;
        const index = indexOf(state, granularity);
        const retriever = await index.retriever;
        const found = await retriever.search({
          query: request.query,
          queryDate: request.query_date,
          limit: request.top_k,
        });
        const hits = found.map((hit) => {
          const document = index.documents[hit.document]!;
          const session = sessions[Number(document.sessionId)]!;
          return document.turnIndex === undefined
            ? { session_id: session.session_id, score: hit.score }
            : {
                session_id: session.session_id,
                turn_index: session.turns[document.turnIndex]!.turn_index,
                score: hit.score,
              };
        });
        return { hits };
      },
    },
  };
}
