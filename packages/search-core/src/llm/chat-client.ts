export { ChatCompletionError } from './chat-completion-error.js';

export type ChatRole = 'system' | 'user' | 'assistant';

export type ChatMessage = {
  role: ChatRole;
  content: string;
};

export type ChatUsage = {
  promptTokens: number;
  completionTokens: number;
};

export type ChatCompleteOptions = {
  model: string;
  messages: readonly ChatMessage[];
  temperature: number;
  /** Sent as `max_tokens`, as the official LongMemEval scripts do. */
  maxTokens: number;
  /** Number of choices (OpenAI `n`); sent only when given, 1 when omitted. */
  n?: number;
  seed?: number;
  /**
   * Which of several identical requests this is (a judge asked k times): never sent, only part of
   * the cache and single-flight key, so each vote is its own completion and cached under its own
   * index. Left out of the key when 0 or unset, so the first vote shares the key of a single call.
   */
  sampleIndex?: number;
  /**
   * Ask for the first token's top `topLogprobs` log-probabilities (OpenAI `logprobs: true,
   * top_logprobs: n`); sent only when given. They come back as one more text after the choices,
   * `lme-logprobs:{"Yes":-0.1,…}` (see LOGPROBS_MARK in openai-chat-client.ts and
   * `readLogprobReply`), so the cache and single-flight keep them like any reply; an endpoint that
   * returns none gives the choices only. Part of the cache key only when given.
   */
  topLogprobs?: number;
  signal?: AbortSignal;
};

export type ChatCompleteResult = {
  /** The first choice's content, as returned (not trimmed); `''` when the choice had no content. */
  text: string;
  /**
   * Every choice's content, in order (`n` of them); with `topLogprobs`, followed by the marked
   * log-probabilities text when the endpoint returned any.
   */
  texts: string[];
  /** Tokens the completion cost when it was made (also reported for cache hits; see `cached`). */
  usage: ChatUsage;
  /**
   * True when no API call was made for this result: it came from the disk cache or from an
   * identical request already in flight. Spend accounting counts only `cached: false` results.
   */
  cached: boolean;
  latencyMs: number;
  /**
   * HTTP requests this result took, retries included (0 or absent when `cached`); absent from a
   * client that does not count them. Spend counts these, so it matches what the server received.
   */
  requests?: number;
};

/** A chat-completion endpoint. Wrappers (cache, single-flight) implement the same type. */
export type ChatClient = {
  /** Names the endpoint without any secret, e.g. `openai-chat:api.openai.com/v1`. */
  readonly id: string;
  complete(options: ChatCompleteOptions): Promise<ChatCompleteResult>;
};

export type ChatClientOptions = {
  /** Defaults to `OPENAI_BASE_URL`, then the OpenAI API. */
  baseURL?: string;
  /** Defaults to `OPENAI_API_KEY`. Only needed when a request misses the cache. */
  apiKey?: string;
  /** Retries made by the `openai` client (429, 408, 409, 5xx, timeouts, connection errors). Default 6. */
  maxRetries?: number;
  /** Per-attempt timeout. Default 180000 (3 minutes: a 128k-token prompt can take a minute). */
  timeoutMs?: number;
  /**
   * The wait before a retry a server asked for (`retry-after`), capped at 30 s
   * (`cappedRetryFetch`); tests pass a sleep that records instead of waiting.
   */
  retrySleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  /** Cache root; completions are kept in `<cacheDir>/llm/`. No disk cache when omitted. */
  cacheDir?: string;
  /** Told about problems that do not fail a request (a cache folder that cannot be written). */
  onWarning?: (message: string) => void;
  /** Told of each answer the cache served from an entry another endpoint made (its origin and path). */
  onCachedFromOtherEndpoint?: (endpoint: string) => void;
};
