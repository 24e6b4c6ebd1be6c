import type { ChatClientOptions } from '../llm/chat-client.js';
import { createChatClient } from '../llm/create-chat-client.js';
import { createHttpReranker, type HttpRerankerOptions } from './http-reranker.js';
import { createLlmListwiseReranker } from './llm-listwise-reranker.js';
import { createLlmPointwiseReranker } from './llm-pointwise-reranker.js';
import { createSessionInterleaveReranker, createSessionPriorReranker } from './offline-reranker.js';
import type { CandidateReranker } from './reranker.js';

export type RerankerFactoryOptions = {
  /** The OpenAI-compatible endpoint, retries, timeout and cache of the `llm` kinds (as the reader's). */
  chat?: ChatClientOptions;
  /** `http:` kind: the rerank model sent in the body, its key, retries, timeout and cache root. */
  http?: Omit<HttpRerankerOptions, 'url'>;
  /** Concurrent judgements of the pointwise kind per question. */
  concurrency?: number;
};

/** Reranker kinds by the prefix of their id (`kind:argument`). */
export const RERANKER_KINDS = {
  llm: (model: string, options: RerankerFactoryOptions) =>
    createLlmListwiseReranker({ client: createChatClient(options.chat ?? {}), model }),
  'llm-pointwise': (model: string, options: RerankerFactoryOptions) =>
    createLlmPointwiseReranker({
      client: createChatClient(options.chat ?? {}),
      model,
      ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    }),
  http: (url: string, options: RerankerFactoryOptions) =>
    createHttpReranker({ url, model: options.http?.model ?? 'rerank', ...options.http }),
  offline: (name: string) => {
    const [kind, weight] = name.split('@');
    if (kind === 'interleave' && weight === undefined) return createSessionInterleaveReranker();
    if (kind !== 'session-prior')
      throw new Error(
        `Unknown offline reranker "offline:${name}"; known: offline:session-prior[@<session weight>], offline:interleave.`,
      );
    if (weight !== undefined && !(Number(weight) >= 0 && Number(weight) <= 1))
      throw new Error(`Reranker "offline:${name}": the session weight after @ must be between 0 and 1.`);
    return createSessionPriorReranker(weight === undefined ? {} : { sessionWeight: Number(weight) });
  },
} as const satisfies Record<string, (argument: string, options: RerankerFactoryOptions) => CandidateReranker>;

export type RerankerKind = keyof typeof RERANKER_KINDS;

/** The kind and argument of a reranker id: `llm:gpt-4o-mini` → [`llm`, `gpt-4o-mini`]. */
export function parseRerankerId(id: string): { kind: RerankerKind; argument: string } {
  const colon = id.indexOf(':');
  const kind = colon < 0 ? id : id.slice(0, colon);
  const argument = colon < 0 ? '' : id.slice(colon + 1);
  if (!Object.hasOwn(RERANKER_KINDS, kind) || argument === '')
    throw new Error(
      `Unknown reranker "${id}"; known: llm:<model>, llm-pointwise:<model>, http:<url>, offline:session-prior, offline:interleave.`,
    );
  return { kind: kind as RerankerKind, argument };
}

/** A reranker from its id (`--reranker`). */
export function createReranker(id: string, options: RerankerFactoryOptions = {}): CandidateReranker {
  const { kind, argument } = parseRerankerId(id);
  return RERANKER_KINDS[kind](argument, options);
}
