import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RetrievalHit } from '@lme/search-core';
import { z } from 'zod';
import { buildCorpus, type Corpus, type Granularity, type IndexRoles } from '../corpus/build-corpus.js';
import type { LongMemEvalRecord } from '../dataset/longmemeval-record.js';
import type { Provider, RetrievalOutcome } from './provider.js';

/**
 * An external memory system spoken to over the HTTP+JSON protocol of `docs/provider-protocol.md`.
 * Per question: reset the namespace, ingest the haystack, search with the question, reset again
 * (to free the server's memory).
 */
export type HttpProviderOptions = {
  /** Base URL of the server, e.g. `http://127.0.0.1:8787` (the `/v1/...` paths are added). */
  url: string;
  /** Name of the environment variable holding the auth header's whole value (`Bearer sk-...`). */
  authHeaderEnv?: string;
  /** Header the value goes in; default `Authorization`. */
  authHeaderName?: string;
  /** Where `authHeaderEnv` is looked up; default `process.env`. */
  environment?: Readonly<Record<string, string | undefined>>;
  /** Budget of one HTTP request (headers and body); a request over it fails, unretried. */
  timeoutMs: number;
  /** Extra attempts after a 429, a 5xx or a dropped connection. */
  maxRetries: number;
  /** First backoff delay; doubled per attempt. Default 500 ms. */
  retryBaseDelayMs?: number;
  /** Ceiling of any one wait, including a server's `retry-after`. Default 30 s. */
  maxRetryDelayMs?: number;
  /**
   * Hits asked of the server: the same budget every provider of a comparison is held to. Default:
   * every document of the haystack, as the in-process pipeline ranks them all.
   */
  topK?: number;
  granularity: Granularity;
  /** Which turns are sent, and graded: the same documents as the in-process pipeline. */
  indexRoles: IndexRoles;
  /** Namespace prefix (the run id); a random one by default. Namespace = `<prefix>/<question_id>`. */
  namespacePrefix?: string;
  /** Sessions per ingest request; default 100. */
  ingestBatchSize?: number;
};

/** `GET /v1/health`. */
export type HealthResult = { status: string; name?: string; version?: string };

/** The outcome of one question, with the system's own answer when it gave one. */
export type HttpRetrievalOutcome = RetrievalOutcome & { answer?: string };

export type HttpProvider = Omit<Provider, 'retrieve'> & {
  retrieve(options: { record: LongMemEvalRecord; signal?: AbortSignal }): Promise<HttpRetrievalOutcome>;
  health(options?: { signal?: AbortSignal }): Promise<HealthResult>;
};

const ROUTE = 'http';

const searchResponseSchema = z.object({
  hits: z.array(
    z.object({
      session_id: z.string().min(1),
      turn_index: z.number().int().min(0).optional(),
      score: z.number(),
    }),
  ),
  answer: z.string().optional(),
});

const healthResponseSchema = z.object({
  status: z.string(),
  name: z.string().optional(),
  version: z.string().optional(),
});

/** Statuses worth another attempt: rate limits and server trouble (not 501/505, which will not change). */
function isRetryable(status: number): boolean {
  return status === 429 || (status >= 500 && status !== 501 && status !== 505);
}

/**
 * The harness side of the protocol: a Provider whose rankings come from an external server. Hits
 * are mapped onto the corpus `buildCorpus` cuts with the same granularity and roles, so they are
 * graded exactly as in-process rankings. Every failure is thrown as one Error naming the question,
 * the request and the problem; the runner stores it in the question's sample and goes on.
 */
export function createHttpProvider(options: HttpProviderOptions): HttpProvider {
  const base = parseBaseUrl(options.url);
  const environment = options.environment ?? process.env;
  const headerName = options.authHeaderName ?? 'Authorization';
  let secret: string | undefined;
  if (options.authHeaderEnv !== undefined) {
    secret = environment[options.authHeaderEnv];
    if (!secret) {
      throw new Error(
        `The environment variable ${options.authHeaderEnv} (named by --provider-auth-env) is not set; it must hold the ${headerName} header value.`,
      );
    }
  }
  const prefix = options.namespacePrefix ?? `lme-${randomBytes(4).toString('hex')}`;
  const retryBaseDelayMs = options.retryBaseDelayMs ?? 500;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;
  const batchSize = options.ingestBatchSize ?? 100;
  const corpusOptions = { granularity: options.granularity, indexRoles: options.indexRoles };
  const redact = (text: string) => (secret ? text.split(secret).join('[redacted]') : text);

  /** One request with timeout and retries; resolves to the parsed JSON body (undefined if empty). */
  async function call(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    context: string,
    signal: AbortSignal | undefined,
  ): Promise<unknown> {
    const url = `${base}${path}`;
    const where = `${context}${method} ${url}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (secret) headers[headerName] = secret;
    const payload = body === undefined ? undefined : JSON.stringify(body);

    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      const timeout = AbortSignal.timeout(options.timeoutMs);
      const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
      let status: number;
      let text: string;
      let retryAfter: string | null = null;
      try {
        const response = await fetch(url, { method, headers, body: payload, signal: combined });
        status = response.status;
        retryAfter = response.headers.get('retry-after');
        text = await response.text();
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (timeout.aborted) throw new Error(`${where} timed out after ${options.timeoutMs} ms.`);
        const reason = describeNetworkError(error);
        if (attempt < options.maxRetries) {
          await sleep(backoff(attempt, null), undefined, { signal });
          continue;
        }
        throw new Error(redact(`${where} failed: ${reason}${attempts(attempt)}.`));
      }
      if (status >= 200 && status < 300) {
        if (text.trim() === '') return undefined;
        try {
          return JSON.parse(text);
        } catch (error) {
          throw new Error(
            redact(`${where} returned invalid JSON (${(error as Error).message}): ${excerpt(text)}`),
          );
        }
      }
      if (isRetryable(status) && attempt < options.maxRetries) {
        await sleep(backoff(attempt, retryAfter), undefined, { signal });
        continue;
      }
      const hint =
        status === 401 || status === 403
          ? options.authHeaderEnv
            ? ` Check the ${headerName} value in ${options.authHeaderEnv}.`
            : ' The server wants credentials: name the variable holding them with --provider-auth-env.'
          : '';
      throw new Error(
        redact(`${where} failed: HTTP ${status}${serverMessage(text)}${attempts(attempt)}.${hint}`),
      );
    }
  }

  function backoff(attempt: number, retryAfter: string | null): number {
    const asked = parseRetryAfter(retryAfter);
    const delay = asked ?? retryBaseDelayMs * 2 ** attempt;
    return Math.min(Math.max(delay, 0), maxRetryDelayMs);
  }

  return {
    id: `http:${base}`,
    async health({ signal } = {}) {
      const body = await call('GET', '/v1/health', undefined, '', signal);
      const parsed = healthResponseSchema.safeParse(body);
      if (!parsed.success) {
        throw new Error(`GET ${base}/v1/health: unexpected response (${describeIssues(parsed.error)}).`);
      }
      return parsed.data;
    },
    async retrieve({ record, signal }): Promise<HttpRetrievalOutcome> {
      try {
        return await retrieveOne(record, signal);
      } catch (error) {
        if (signal?.aborted) throw error;
        // Whatever the server sent back is quoted in messages: never let it carry the secret.
        throw new Error(redact((error as Error).message));
      }
    },
  };

  async function retrieveOne(
    record: LongMemEvalRecord,
    signal: AbortSignal | undefined,
  ): Promise<HttpRetrievalOutcome> {
    const namespace = `${prefix}/${record.question_id}`;
    const context = `question ${record.question_id}: `;
    const corpus = buildCorpus(record, corpusOptions);
    const topK = options.topK ?? Math.max(1, corpus.documents.length);
    const started = performance.now();
    await call('POST', '/v1/reset', { namespace }, context, signal);
    const sessions = sessionsOf(record, options.indexRoles);
    for (let start = 0; start < sessions.length; start += batchSize) {
      const batch = sessions.slice(start, start + batchSize);
      await call('POST', '/v1/ingest', { namespace, sessions: batch }, context, signal);
    }
    const indexed = performance.now();
    const body = await call(
      'POST',
      '/v1/search',
      {
        namespace,
        query: record.question,
        query_date: record.question_date,
        top_k: topK,
        granularity: options.granularity,
      },
      context,
      signal,
    );
    const retrieveMs = performance.now() - indexed;
    const parsed = searchResponseSchema.safeParse(body);
    if (!parsed.success) {
      throw new Error(
        redact(
          `${context}POST ${base}/v1/search returned an unexpected body (${describeIssues(parsed.error)}).`,
        ),
      );
    }
    const mapped = mapHits(parsed.data.hits.slice(0, topK), corpus, options.granularity, {
      context,
      url: `${base}/v1/search`,
    });
    // The budget is top_k documents: a repeated session id can map one hit onto two.
    const ranking = mapped.ranking.slice(0, topK);
    const hits = mapped.hits.slice(0, topK);
    // Best effort: the result is in hand, a failed clean-up must not fail the question.
    await call('POST', '/v1/reset', { namespace }, context, signal).catch(() => undefined);
    const outcome: HttpRetrievalOutcome = {
      corpus,
      ranking,
      hits,
      timings: { indexMs: indexed - started, retrieveMs },
    };
    if (parsed.data.answer !== undefined) outcome.answer = parsed.data.answer;
    return outcome;
  }
}

/** The ingest payload: every session, with the turns of the graded roles and their positions. */
export function sessionsOf(
  record: LongMemEvalRecord,
  indexRoles: IndexRoles,
): { session_id: string; date: string; turns: { role: string; content: string; turn_index: number }[] }[] {
  return record.haystack_sessions.map((turns, sessionIndex) => ({
    session_id: record.haystack_session_ids[sessionIndex]!,
    date: record.haystack_dates[sessionIndex]!,
    turns: turns.flatMap((turn, turnIndex) =>
      indexRoles === 'all' || turn.role === 'user'
        ? [{ role: turn.role, content: turn.content, turn_index: turnIndex }]
        : [],
    ),
  }));
}

/**
 * Server hits → document indices of the corpus, in rank order. A session id held by two haystack
 * sessions (the repeated sessions of S) ranks both copies at its first hit, as in-process
 * rankings do; later hits on an already ranked document are skipped. At session granularity turn
 * hits count for their session.
 */
function mapHits(
  serverHits: readonly { session_id: string; turn_index?: number; score: number }[],
  corpus: Corpus,
  granularity: Granularity,
  where: { context: string; url: string },
): { ranking: number[]; hits: RetrievalHit[] } {
  const byId = new Map<string, number[]>();
  corpus.documents.forEach((document, index) => {
    const list = byId.get(document.id);
    if (list) list.push(index);
    else byId.set(document.id, [index]);
  });
  const ranking: number[] = [];
  const hits: RetrievalHit[] = [];
  const ranked = new Set<number>();
  serverHits.forEach((hit, position) => {
    let id: string;
    if (granularity === 'session') {
      id = hit.session_id;
    } else {
      if (hit.turn_index === undefined) {
        throw new Error(
          `${where.context}POST ${where.url} returned hit ${position} (session_id "${hit.session_id}") without turn_index; turn granularity needs one.`,
        );
      }
      id = `${hit.session_id}_${hit.turn_index + 1}`;
    }
    const indices = byId.get(id);
    if (!indices) {
      const what =
        granularity === 'session'
          ? `session_id "${hit.session_id}"`
          : `session_id "${hit.session_id}" turn_index ${hit.turn_index}`;
      throw new Error(
        `${where.context}POST ${where.url} returned ${what}, which is not ${granularity === 'session' ? 'a session' : 'an indexed turn'} of the question's haystack.`,
      );
    }
    for (const index of indices) {
      if (ranked.has(index)) continue;
      ranked.add(index);
      ranking.push(index);
      const document = corpus.documents[index]!;
      hits.push({
        document: index,
        id: document.id,
        sessionId: document.sessionId,
        score: hit.score,
        routes: { [ROUTE]: { score: hit.score, rank: position + 1 } },
      });
    }
  });
  return { ranking, hits };
}

function parseBaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(
      `--provider-url ${JSON.stringify(url)} is not a URL (expected e.g. http://127.0.0.1:8787).`,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`--provider-url must be http:// or https:// (got ${parsed.protocol}).`);
  }
  if (parsed.username || parsed.password) {
    throw new Error(
      '--provider-url must not hold credentials (they would be saved with the results); put the header value in an environment variable and name it with --provider-auth-env.',
    );
  }
  if (parsed.search || parsed.hash) {
    throw new Error(`--provider-url must be a base URL without query or fragment (got ${url}).`);
  }
  return parsed.href.replace(/\/+$/, '');
}

/** `retry-after` in seconds or as an HTTP date → milliseconds; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function attempts(attempt: number): string {
  return attempt === 0 ? '' : ` after ${attempt + 1} attempts`;
}

/** ` (server said: ...)` from a `{error: {message}}` body, or a short excerpt of any other body. */
function serverMessage(text: string): string {
  if (text.trim() === '') return '';
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof body?.error?.message === 'string') return ` (server said: ${excerpt(body.error.message)})`;
  } catch {
    // not JSON: quote the text
  }
  return ` (body: ${excerpt(text)})`;
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`;
  return (error as Error).message;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`)
    .join('; ');
}
