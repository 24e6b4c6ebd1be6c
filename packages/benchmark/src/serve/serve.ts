import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MemoryDocument, Retriever } from '@lme/search-core';
import { buildCorpus, type Granularity } from '../benchmarks/build-corpus.js';
import type { LongMemEvalRecord } from '../benchmarks/longmemeval-record.js';
import type { RunConfig } from '../config/run-config.js';
import { ingestRequestSchema, resetRequestSchema, searchRequestSchema } from '../providers/http/protocol.js';
import { createPipeline } from '../providers/pipeline/configured-pipeline.js';
import { createBodyBudget } from './body-budget.js';
import { bearerCheck, httpError, isJsonContentType, parseBody, reply, statusOf } from './http-exchange.js';
import { createNamespaceStore, megabytes, type StoredNamespace } from './namespace-store.js';

export type ServeOptions = {
  /**
   * The pipeline: retriever (and what its factory reads, e.g. tokenizer), the granularity of
   * searches that name none, and the roles indexed of what clients send.
   */
  config: RunConfig;
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 picks a free port. */
  port: number;
  /** Namespaces kept at once; the least recently used is dropped beyond it. Default 256. */
  maxNamespaces?: number;
  /**
   * Estimated memory all namespaces may hold (see `sessionsBytes`); least recently used
   * namespaces are dropped beyond it, and an ingest that would make its own namespace exceed it
   * is refused with 507. Default 1 GiB.
   */
  maxMemoryBytes?: number;
  /**
   * Largest request body accepted (413 beyond). Default 256 MiB, and never more than
   * `maxMemoryBytes`. The bodies of all requests in flight together may hold at most
   * `maxMemoryBytes` too (503 beyond), counted apart from the namespaces.
   */
  maxBodyBytes?: number;
  /** A request whose headers and body have not all arrived by then is answered 408. Default 30 s. */
  requestTimeoutMs?: number;
  /** When set, every request must carry `Authorization: Bearer <authToken>` (else 401). */
  authToken?: string;
};

export type RunningServer = {
  /** e.g. `http://127.0.0.1:8787`: the base URL for `--provider-url`. */
  readonly url: string;
  /** Stops accepting, lets requests in flight finish (at most `graceMs`, default 5 s), then resolves. */
  close(options?: { graceMs?: number }): Promise<void>;
};

type Index = { documents: MemoryDocument[]; retriever: Promise<Retriever> };
type Namespace = StoredNamespace<Index>;

/**
 * An lme pipeline behind the HTTP provider protocol (docs/provider-protocol.md): each namespace
 * holds ingested sessions in memory; a search cuts them into documents exactly as `buildCorpus`
 * does for the in-process pipeline, indexes them with the configured retriever (cached until the
 * namespace changes) and returns the top hits. Resolves once listening.
 */
export async function serve(options: ServeOptions): Promise<RunningServer> {
  const { config } = options;
  const pipeline = createPipeline(config);
  let built = 0;
  const maxMemoryBytes = options.maxMemoryBytes ?? 1024 * 1024 * 1024;
  const bodies = createBodyBudget({
    maxBytes: maxMemoryBytes,
    maxBodyBytes: Math.min(options.maxBodyBytes ?? 256 * 1024 * 1024, maxMemoryBytes),
  });
  const isAuthorized = bearerCheck(options.authToken);
  const namespaces = createNamespaceStore<Index>({
    maxNamespaces: options.maxNamespaces ?? 256,
    maxMemoryBytes,
  });

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
    const { documents } = buildCorpus(record, { granularity, indexRoles: config.indexRoles });
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

  const routes: Record<string, { method: 'GET' | 'POST'; handle(body: unknown): Promise<unknown> }> = {
    '/v1/health': {
      method: 'GET',
      handle: async () => ({
        status: 'ok',
        name: 'lme serve',
        retriever: config.retriever,
        tokenizer: config.tokenizer,
        index_roles: config.indexRoles,
        namespaces: namespaces.size,
        memory_mb: megabytes(namespaces.heldBytes),
        max_memory_mb: megabytes(maxMemoryBytes),
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
        const granularity = request.granularity ?? config.granularity;
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

  async function handle(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    try {
      const path = new URL(incoming.url ?? '/', 'http://localhost').pathname;
      const route = routes[path];
      if (!route) throw httpError(404, `no route ${path}; see docs/provider-protocol.md.`);
      if (isAuthorized && !isAuthorized(incoming.headers.authorization)) {
        throw httpError(401, 'missing or wrong credentials: send Authorization: Bearer <token>.');
      }
      if (incoming.method !== route.method) {
        throw httpError(405, `${path} takes ${route.method}, not ${incoming.method}.`);
      }
      if (route.method === 'POST' && !isJsonContentType(incoming.headers['content-type'])) {
        throw httpError(
          415,
          `${path} takes a JSON body sent as content-type application/json (got ${incoming.headers['content-type'] ?? 'none'}).`,
        );
      }
      if (route.method === 'GET') {
        reply(outgoing, 200, await route.handle(undefined));
        return;
      }
      const { body, release } = await bodies.readJson(incoming);
      try {
        reply(outgoing, 200, await route.handle(body));
      } finally {
        release();
      }
    } catch (error) {
      // A body refused before it was all read is not waited for: the connection closes after it.
      if (!incoming.complete) outgoing.setHeader('connection', 'close');
      reply(outgoing, statusOf(error), { error: { message: (error as Error).message } });
    }
  }

  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  const server = createServer(
    {
      requestTimeout,
      headersTimeout: Math.min(requestTimeout, 10_000),
      // How often Node checks those timeouts (default 30 s, so a stalled body was held minutes).
      connectionsCheckingInterval: Math.min(1000, requestTimeout),
    },
    (incoming, outgoing) => {
      void handle(incoming, outgoing);
    },
  );
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    close: ({ graceMs = 5000 } = {}) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearTimeout(force);
          void pipeline.close().then(resolve, resolve);
        });
        server.closeIdleConnections();
      }),
  };
}
