import { redactSecrets } from '../core/redact-secrets.js';
import { createJsonClient } from '../http/json-client.js';
import { ServiceError } from '../http/service-error.js';
import type { ChatClient, ChatCompleteOptions } from '../llm/chat-client.js';
import { withCompletionCache } from '../llm/completion-cache.js';
import { withSingleFlight } from '../llm/single-flight.js';
import { tokenCount } from '../llm/token-count.js';
import {
  addRerankUsage,
  type CandidateReranker,
  emptyRerankUsage,
  orderByScores,
  RerankError,
  type RerankRequest,
  type RerankResult,
} from './reranker.js';

export type HttpRerankerOptions = {
  /** The endpoint; `/rerank` is appended unless the URL already ends with it. */
  url: string;
  model: string;
  /** Sent as `Authorization: Bearer <key>`; never stored, cached or printed. */
  apiKey?: string;
  /** Retries after 429, 408, 5xx, a timeout or a connection error. Default 6. */
  maxRetries?: number;
  /** Per-attempt timeout. Default 60000. */
  timeoutMs?: number;
  /** Cache root: replies go to `<cacheDir>/llm/` through the completion cache. */
  cacheDir?: string;
  /** Waits between retries (tests inject a recorder instead of a timer). */
  sleep?: (milliseconds: number) => Promise<void>;
};

type RerankReply = { results: { index: number; relevance_score: number }[] };

/**
 * The `/rerank` wire format hosted and self-hosted rerankers share (Cohere, Jina, Voyage, Hugging
 * Face TEI, vLLM): `{model, query, documents, top_n}` → `{results: [{index, relevance_score}]}`.
 * Requests go through the one HTTP JSON client (http/json-client.ts): its retry policy (408, 429,
 * 5xx, timeouts, connection errors; `retry-after` honoured, else exponential back-off from 0.5 s)
 * and its cap on reply size; a failure is a `RerankError` carrying `retryable` and the status. A reply that is not that shape, or that leaves
 * out a document, is an error and is never cached. Replies are cached like completions, keyed by
 * the endpoint URL, model, query and documents (not the key): unlike a hosted chat model, whose name
 * says what answers, a self-hosted rerank server answers under any model name, so a reply from one
 * server never stands in for another's (docs/security.md, "Caches").
 */
export function createHttpReranker(options: HttpRerankerOptions): CandidateReranker {
  const url = rerankEndpoint(options.url);
  const secrets = options.apiKey ? [options.apiKey] : [];
  const host = safeHost(url);
  const fail = (message: string) => new RerankError(redactSecrets(message, secrets));
  const sleep = options.sleep;
  const http = createJsonClient({
    baseUrl: url,
    headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
    timeoutMs: options.timeoutMs ?? 60_000,
    maxRetries: options.maxRetries ?? 6,
    redact: (text) => redactSecrets(text, secrets),
    ...(sleep ? { sleep: (milliseconds: number) => sleep(milliseconds) } : {}),
  });

  async function post(
    body: { model: string; query: string; documents: string[]; top_n: number },
    signal?: AbortSignal,
  ): Promise<RerankReply & { tokens: number }> {
    let json: unknown;
    try {
      json = await http.request({
        method: 'POST',
        path: '',
        body,
        context: `Reranker ${options.model}: `,
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (signal?.aborted || !(error instanceof ServiceError)) throw error;
      throw new RerankError(error.message, { retryable: error.retryable, status: error.status });
    }
    return { ...validate(json, body.documents.length), tokens: tokensOf(json) };
  }

  function validate(json: unknown, size: number): RerankReply {
    const results = (json as { results?: unknown } | null)?.results;
    if (!Array.isArray(results))
      throw fail(`Reranker ${options.model} at ${host} returned no "results" list.`);
    const seen = new Set<number>();
    for (const result of results) {
      const { index, relevance_score: score } = (result ?? {}) as {
        index?: unknown;
        relevance_score?: unknown;
      };
      if (
        !Number.isInteger(index) ||
        (index as number) < 0 ||
        (index as number) >= size ||
        typeof score !== 'number' ||
        !Number.isFinite(score)
      )
        throw fail(
          `Reranker ${options.model} at ${host} returned a result that is not {index, relevance_score} for ${size} documents: ${JSON.stringify(result).slice(0, 80)}.`,
        );
      seen.add(index as number);
    }
    if (seen.size < size) {
      const missing = Array.from({ length: size }, (_, index) => index).filter((index) => !seen.has(index));
      throw fail(
        `Reranker ${options.model} at ${host} left out ${missing.length} of ${size} documents (indices ${missing.slice(0, 10).join(', ')}).`,
      );
    }
    return { results: results as RerankReply['results'] };
  }

  // The network call as a chat client, so the completion cache and single-flight serve it.
  const network: ChatClient = {
    id: `http-rerank:${host}`,
    async complete(request: ChatCompleteOptions) {
      const started = performance.now();
      const { query, documents } = JSON.parse(request.messages[0]!.content) as {
        query: string;
        documents: string[];
      };
      const reply = await post(
        { model: options.model, query, documents, top_n: documents.length },
        request.signal,
      );
      return {
        text: JSON.stringify(reply.results),
        texts: [JSON.stringify(reply.results)],
        usage: { promptTokens: reply.tokens, completionTokens: 0 },
        cached: false,
        latencyMs: performance.now() - started,
      };
    },
  };
  const client = withSingleFlight(
    options.cacheDir ? withCompletionCache(network, { dir: options.cacheDir }) : network,
  );

  return {
    id: `http:${options.model}`,
    model: options.model,
    async rerank({ query, candidates, signal }: RerankRequest): Promise<RerankResult> {
      const usage = emptyRerankUsage();
      const reply = await client.complete({
        model: `rerank:${options.model}@${url}`,
        messages: [
          {
            role: 'user',
            content: JSON.stringify({ query, documents: candidates.map((candidate) => candidate.text) }),
          },
        ],
        temperature: 0,
        maxTokens: 0,
        ...(signal ? { signal } : {}),
      });
      addRerankUsage(usage, { cached: reply.cached, ...reply.usage });
      const results = validate({ results: JSON.parse(reply.text) }, candidates.length).results;
      const scores = new Array<number>(candidates.length).fill(0);
      for (const result of results) scores[result.index] = result.relevance_score;
      return { order: orderByScores(scores), scores, missing: [], usage };
    },
  };
}

/** The endpoint a rerank URL names: `/rerank` appended unless the URL already ends with it. */
export function rerankEndpoint(url: string): string {
  return /\/rerank\/?$/.test(url) ? url : `${url.replace(/\/+$/, '')}/rerank`;
}

/** Tokens a rerank service reports (Jina `usage.total_tokens`, Voyage `usage.total_tokens`); 0 when none. */
function tokensOf(json: unknown): number {
  const usage = (json as { usage?: { total_tokens?: unknown; prompt_tokens?: unknown } } | null)?.usage;
  const tokens = usage?.total_tokens ?? usage?.prompt_tokens;
  return tokenCount(tokens);
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    throw new RerankError(`Reranker URL "${url}" is not a valid URL.`);
  }
}
