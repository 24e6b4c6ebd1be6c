import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MemoryDocument, Retriever } from '@lme/search-core';
import { z } from 'zod';
import type { RunConfig } from '../config/run-config.js';
import { buildCorpus, type Granularity } from '../corpus/build-corpus.js';
import type { LongMemEvalRecord } from '../dataset/longmemeval-record.js';
import { createPipeline } from '../providers/pipeline/configured-pipeline.js';

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
  /** Largest request body accepted. Default 256 MiB. */
  maxBodyBytes?: number;
};

export type RunningServer = {
  /** e.g. `http://127.0.0.1:8787`: the base URL for `--provider-url`. */
  readonly url: string;
  /** Stops accepting, lets requests in flight finish (at most `graceMs`, default 5 s), then resolves. */
  close(options?: { graceMs?: number }): Promise<void>;
};

type StoredTurn = { role: 'user' | 'assistant'; content: string; turn_index: number };
type StoredSession = { session_id: string; date: string; turns: StoredTurn[] };
type Index = { documents: MemoryDocument[]; retriever: Promise<Retriever> };
type Namespace = { sessions: StoredSession[]; indexes: Map<Granularity, Index> };

type HttpError = Error & { status: number };

/** An error answered with this status and `{error: {message}}`. */
function httpError(status: number, message: string): HttpError {
  return Object.assign(new Error(message), { status });
}

const namespaceSchema = z.string().min(1).max(512);
const resetSchema = z.object({ namespace: namespaceSchema });
const ingestSchema = z.object({
  namespace: namespaceSchema,
  sessions: z.array(
    z.object({
      session_id: z.string().min(1),
      date: z.string(),
      turns: z.array(
        z.object({
          role: z.enum(['user', 'assistant']),
          content: z.string(),
          turn_index: z.number().int().min(0),
        }),
      ),
    }),
  ),
});
const searchSchema = z.object({
  namespace: namespaceSchema,
  query: z.string(),
  query_date: z.string().optional(),
  top_k: z.number().int().min(1),
  granularity: z.enum(['session', 'turn']).optional(),
});

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
  const maxNamespaces = options.maxNamespaces ?? 256;
  const maxBodyBytes = options.maxBodyBytes ?? 256 * 1024 * 1024;
  const namespaces = new Map<string, Namespace>();

  /** The namespace, marked most recently used; created when `create` is set. */
  function namespaceOf(name: string, create: boolean): Namespace {
    let found = namespaces.get(name);
    if (found) {
      namespaces.delete(name);
    } else {
      if (!create) {
        throw httpError(404, `namespace ${JSON.stringify(name)} is unknown (reset or ingest it first).`);
      }
      found = { sessions: [], indexes: new Map() };
    }
    namespaces.set(name, found);
    while (namespaces.size > maxNamespaces) {
      const oldest = namespaces.keys().next().value as string;
      namespaces.delete(oldest);
    }
    return found;
  }

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
      }),
    },
    '/v1/reset': {
      method: 'POST',
      handle: async (body) => {
        const { namespace } = parse(resetSchema, body);
        const state = namespaceOf(namespace, true);
        state.sessions = [];
        state.indexes.clear();
        return { ok: true };
      },
    },
    '/v1/ingest': {
      method: 'POST',
      handle: async (body) => {
        const request = parse(ingestSchema, body);
        const state = namespaceOf(request.namespace, true);
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
        state.sessions.push(...sessions);
        state.indexes.clear();
        return { ok: true, sessions: state.sessions.length };
      },
    },
    '/v1/search': {
      method: 'POST',
      handle: async (body) => {
        const request = parse(searchSchema, body);
        const state = namespaceOf(request.namespace, false);
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
      if (incoming.method !== route.method) {
        throw httpError(405, `${path} takes ${route.method}, not ${incoming.method}.`);
      }
      const body = route.method === 'POST' ? await readJson(incoming, maxBodyBytes) : undefined;
      reply(outgoing, 200, await route.handle(body));
    } catch (error) {
      const status =
        typeof (error as Partial<HttpError>).status === 'number' ? (error as HttpError).status : 500;
      reply(outgoing, status, { error: { message: (error as Error).message } });
    }
  }

  const server = createServer((incoming, outgoing) => {
    void handle(incoming, outgoing);
  });
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

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`);
  throw httpError(400, `invalid request: ${problems.join('; ')}.`);
}

async function readJson(incoming: IncomingMessage, maxBytes: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw httpError(413, `request body over ${maxBytes} bytes.`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw httpError(400, `request body is not valid JSON (${(error as Error).message}).`);
  }
}

function reply(outgoing: ServerResponse, status: number, body: unknown): void {
  if (outgoing.headersSent || outgoing.destroyed) return;
  const text = JSON.stringify(body);
  outgoing.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  outgoing.end(text);
}
