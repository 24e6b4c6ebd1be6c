import { randomBytes } from 'node:crypto';
import {
  createJsonClient,
  type JsonClientOptions,
  PROBE_TIMEOUT_MS,
  ProbeError,
  probeEndpoint,
  redactSecrets,
} from '@lme/search-core';
import { buildCorpus, type Granularity, type IndexRoles } from '../../benchmarks/build-corpus.js';
import type { LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import { addSecret, checkEndpointUrl, redact as redactRegistered } from '../../config/secrets.js';
import { identityText, type ProviderIdentity, publicUrl } from '../../results/provider-identity.js';
import type { Provider, RetrievalOutcome } from '../provider.js';
import { mapHits } from './map-hits.js';
import {
  describeIssues,
  type HealthResponse,
  healthResponseSchema,
  type ProtocolSession,
  type SearchRequest,
  searchResponseSchema,
} from './protocol.js';

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
  /** Budget of one HTTP request attempt (headers and body). */
  timeoutMs: number;
  /** Extra attempts after a 408, 429, 5xx, a timeout or a dropped connection. */
  maxRetries: number;
  /** First backoff delay; doubled per attempt. Default 500 ms. */
  retryBaseDelayMs?: number;
  /** Ceiling of any one wait, including a server's `retry-after`. Default 30 s. */
  maxRetryDelayMs?: number;
  /** Waits between attempts (tests inject one). */
  sleep?: JsonClientOptions['sleep'];
  /**
   * Hits asked of the server: the same budget every provider of a comparison is held to. Default:
   * every document of the haystack, as the in-process pipeline ranks them all.
   */
  topK?: number;
  granularity: Granularity;
  /** Which turns are sent, and graded: the same documents as the in-process pipeline. */
  indexRoles: IndexRoles;
  /**
   * Namespace prefix (the run id, or a function giving it once the run has one: the default run id
   * names the server, known after its health reply); a random one by default. Namespace =
   * `<prefix>/<question_id>`.
   */
  namespacePrefix?: string | (() => string);
  /** Sessions per ingest request; default 100. */
  ingestBatchSize?: number;
};

/** `GET /v1/health`. */
export type HealthResult = HealthResponse;

/** The outcome of one question, with the system's own answer when it gave one. */
export type HttpRetrievalOutcome = RetrievalOutcome & { answer?: string };

export type HttpProvider = Omit<Provider, 'retrieve'> & {
  retrieve(options: { record: LongMemEvalRecord; signal?: AbortSignal }): Promise<HttpRetrievalOutcome>;
  health(options?: { signal?: AbortSignal }): Promise<HealthResult>;
  /**
   * One `GET /v1/health`, unretried: throws one sentence naming --provider-url if no server
   * answers; keeps the name and version the reply gives for `identity()`.
   */
  preflight(options?: { signal?: AbortSignal }): Promise<void>;
  /** The URL (without secrets) and, after `preflight`, the name and version the server reported. */
  identity(): ProviderIdentity;
};

/**
 * The harness side of the protocol: a Provider whose rankings come from an external server. Hits
 * are mapped onto the corpus `buildCorpus` cuts with the same granularity and roles, so they are
 * graded exactly as in-process rankings. Every failure is thrown as one Error naming the question,
 * the request and the problem, with the auth header value (whole, its token part, or any start of
 * it) and every other secret of the process redacted; the runner stores it in the question's
 * sample and goes on.
 */
export function createHttpProvider(options: HttpProviderOptions): HttpProvider {
  const base = checkEndpointUrl(options.url, '--provider-url').replace(/\/+$/, '');
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
    addSecret(secret);
  }
  const redact = (text: string) => redactRegistered(secret ? redactSecrets(text, [secret]) : text);
  const randomPrefix = `lme-${randomBytes(4).toString('hex')}`;
  const prefix = () => {
    const given = options.namespacePrefix;
    return (typeof given === 'function' ? given() : given) || randomPrefix;
  };
  const identity: ProviderIdentity = { kind: 'http', url: publicUrl(base) };
  const batchSize = options.ingestBatchSize ?? 100;
  const corpusOptions = { granularity: options.granularity, indexRoles: options.indexRoles };
  const client = createJsonClient({
    baseUrl: base,
    headers: secret ? { [headerName]: secret } : {},
    timeoutMs: options.timeoutMs,
    maxRetries: options.maxRetries,
    redact,
    authHint: options.authHeaderEnv
      ? ` Check the ${headerName} value in ${options.authHeaderEnv}.`
      : ' The server wants credentials: name the variable holding them with --provider-auth-env.',
    ...(options.retryBaseDelayMs === undefined ? {} : { retryBaseDelayMs: options.retryBaseDelayMs }),
    ...(options.maxRetryDelayMs === undefined ? {} : { maxRetryDelayMs: options.maxRetryDelayMs }),
    ...(options.sleep ? { sleep: options.sleep } : {}),
  });

  return {
    id: `http:${base}`,
    identity: () => ({ ...identity }),
    async health({ signal } = {}) {
      const body = await client.request({ method: 'GET', path: '/v1/health', ...(signal ? { signal } : {}) });
      const parsed = healthResponseSchema.safeParse(body);
      if (!parsed.success) {
        throw new Error(
          redact(`GET ${base}/v1/health: unexpected response (${describeIssues(parsed.error)}).`),
        );
      }
      return parsed.data;
    },
    async preflight({ signal } = {}) {
      try {
        const body = await probeEndpoint({
          url: `${base}/v1/health`,
          headers: secret ? { [headerName]: secret } : {},
          timeoutMs: Math.min(options.timeoutMs, PROBE_TIMEOUT_MS),
          redact,
          ...(signal ? { signal } : {}),
        });
        // Informational: a reply without them (or not JSON) still lets the run go on. Stored with
        // the results, so never with a secret the server might echo.
        const reported = (body ?? {}) as { name?: unknown; version?: unknown };
        const name = identityText(reported.name);
        const version = identityText(reported.version);
        if (name !== undefined) identity.name = redact(name);
        if (version !== undefined) identity.version = redact(version);
      } catch (error) {
        if (!(error instanceof ProbeError)) throw error;
        const auth = options.authHeaderEnv
          ? ` check the ${headerName} value in ${options.authHeaderEnv} (--provider-auth-env)`
          : ' name the variable holding its credentials with --provider-auth-env';
        throw new Error(
          redact(
            error.reason === 'unreachable'
              ? `The provider at --provider-url ${base} does not answer (${error.detail}): is the server running at that URL?`
              : `The provider at --provider-url ${base} refused lme's credentials (${error.detail}):${auth}.`,
          ),
        );
      }
    },
    async retrieve({ record, signal }): Promise<HttpRetrievalOutcome> {
      try {
        return await retrieveOne(record, signal);
      } catch (error) {
        if (signal?.aborted) throw error;
        // Whatever the server sent back is quoted in messages: never let it carry a secret.
        throw new Error(redact((error as Error).message));
      }
    },
  };

  async function retrieveOne(
    record: LongMemEvalRecord,
    signal: AbortSignal | undefined,
  ): Promise<HttpRetrievalOutcome> {
    const namespace = `${prefix()}/${record.question_id}`;
    const context = `question ${record.question_id}: `;
    const post = (path: string, body: unknown) =>
      client.request({ method: 'POST', path, body, context, ...(signal ? { signal } : {}) });
    const corpus = buildCorpus(record, corpusOptions);
    const topK = options.topK ?? Math.max(1, corpus.documents.length);
    const started = performance.now();
    await post('/v1/reset', { namespace });
    const sessions = sessionsOf(record, options.indexRoles);
    for (let start = 0; start < sessions.length; start += batchSize) {
      await post('/v1/ingest', { namespace, sessions: sessions.slice(start, start + batchSize) });
    }
    const indexed = performance.now();
    const search: SearchRequest = {
      namespace,
      query: record.question,
      query_date: record.question_date,
      top_k: topK,
      granularity: options.granularity,
    };
    const body = await post('/v1/search', search);
    const retrieveMs = performance.now() - indexed;
    const parsed = searchResponseSchema.safeParse(body);
    if (!parsed.success) {
      throw new Error(
        `${context}POST ${base}/v1/search returned an unexpected body (${describeIssues(parsed.error)}).`,
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
    await post('/v1/reset', { namespace }).catch(() => undefined);
    const outcome: HttpRetrievalOutcome = {
      corpus,
      ranking,
      hits,
      timings: { indexMs: indexed - started, retrieveMs },
    };
    // The system's answer is stored with the results: a server echoing the token must not put it there.
    if (parsed.data.answer !== undefined) outcome.answer = redact(parsed.data.answer);
    const { context: answerContext, usage, latency_ms: latencyMs } = parsed.data;
    if (answerContext !== undefined || usage !== undefined || latencyMs !== undefined) {
      outcome.answerReport = {
        ...(answerContext === undefined ? {} : { context: redact(answerContext) }),
        ...(usage === undefined
          ? {}
          : { usage: { ...usage, ...(usage.model ? { model: redact(usage.model) } : {}) } }),
        ...(latencyMs === undefined ? {} : { latencyMs }),
      };
    }
    return outcome;
  }
}

/** The ingest payload: every session, with the turns of the graded roles and their positions. */
export function sessionsOf(record: LongMemEvalRecord, indexRoles: IndexRoles): ProtocolSession[] {
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
