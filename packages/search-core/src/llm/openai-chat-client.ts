import { AsyncLocalStorage } from 'node:async_hooks';
import type OpenAI from 'openai';
import { loadOpenAi } from '../core/load-openai.js';
import { redactSecrets, redactSecretValues } from '../core/redact-secrets.js';
import { cappedRetryFetch } from '../http/capped-retry-fetch.js';
import type {
  ChatClient,
  ChatClientOptions,
  ChatCompleteOptions,
  ChatCompleteResult,
} from './chat-client.js';
import { ChatCompletionError } from './chat-completion-error.js';
import { tokenCount } from './token-count.js';

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
const DEFAULT_MAX_RETRIES = 6;
const DEFAULT_TIMEOUT_MS = 180_000;

/**
 * Marks the text a reply gains when `topLogprobs` is asked for: the first choice's first-token
 * top log-probabilities as JSON, `lme-logprobs:{"Yes":-0.1,"No":-2.3}` (read by `readLogprobReply`).
 */
export const LOGPROBS_MARK = 'lme-logprobs:';

/**
 * The HTTP requests of the completion in flight: the package's fetch is called once per attempt,
 * retries included, inside the async context of the `complete` call that started it. An attempt
 * counts when the server answered it, or when it was cut off waiting for the answer (the server
 * may have done, and billed, the work); one whose connection failed before reaching the server (a
 * reused socket the server had closed) does not.
 */
const requestsSent = new AsyncLocalStorage<{ count: number }>();

const countingFetch: typeof fetch = async (input, init) => {
  const counter = requestsSent.getStore();
  try {
    const response = await fetch(input, init);
    if (counter) counter.count++;
    return response;
  } catch (error) {
    if (counter && (error as Error).name === 'AbortError') counter.count++;
    throw error;
  }
};

/**
 * A chat client that calls an OpenAI-compatible endpoint through the `openai` package. Retries
 * and the per-attempt timeout are the package's own; a server's `retry-after` is honoured up to
 * 30 s, the wait ended by the request's signal (`cappedRetryFetch`). No cache.
 * Everything comes from the options, never from the environment (the caller resolves that); the
 * key never appears in an error or a reply text.
 */
export function createOpenAiChatClient(
  options: Omit<ChatClientOptions, 'cacheDir' | 'onWarning' | 'onCachedFromOtherEndpoint'> = {},
): ChatClient {
  const baseURL = options.baseURL ?? DEFAULT_BASE_URL;
  const apiKey = options.apiKey;
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  // The openai package wants a positive integer.
  const timeoutMs = Math.max(1, Math.round(options.timeoutMs ?? DEFAULT_TIMEOUT_MS));
  const endpoint = describeEndpoint(baseURL);
  const secrets = apiKey ? [apiKey] : [];
  let sdk: OpenAI | undefined;

  // Built on first use, so a run served entirely from the cache needs no key.
  function getSdk(model: string): OpenAI {
    if (sdk) return sdk;
    if (!apiKey) {
      throw new ChatCompletionError({
        message: `No API key to call model "${model}" at ${endpoint}: set OPENAI_API_KEY (any value for a server that needs none).`,
        model,
        kind: 'credentials',
      });
    }
    // Every setting explicit: the package would otherwise read OPENAI_* variables itself.
    sdk = new (loadOpenAi())({
      apiKey,
      baseURL,
      organization: null,
      project: null,
      maxRetries,
      timeout: timeoutMs,
      // Every retry wait a server asks for capped at 30 s and ended by the request's signal; every
      // attempt counted, so spend reports the requests the server received.
      fetch: cappedRetryFetch({
        maxRetries,
        fetch: countingFetch,
        ...(options.retrySleep ? { sleep: options.retrySleep } : {}),
      }),
      // The core never prints.
      logLevel: 'off',
    });
    return sdk;
  }

  return {
    id: `openai-chat:${endpoint}`,
    async complete(request: ChatCompleteOptions) {
      request.signal?.throwIfAborted();
      const started = performance.now();
      const client = getSdk(request.model);
      let completion: OpenAI.Chat.Completions.ChatCompletion;
      const requests = { count: 0 };
      try {
        completion = await requestsSent.run(requests, () =>
          client.chat.completions.create(
            {
              model: request.model,
              messages: request.messages.map((message) => ({ role: message.role, content: message.content })),
              temperature: request.temperature,
              max_tokens: request.maxTokens,
              ...(request.n === undefined ? {} : { n: request.n }),
              ...(request.seed === undefined ? {} : { seed: request.seed }),
              ...(request.topLogprobs === undefined
                ? {}
                : { logprobs: true, top_logprobs: request.topLogprobs }),
            },
            request.signal ? { signal: request.signal } : undefined,
          ),
        );
      } catch (error) {
        if (request.signal?.aborted) throw request.signal.reason;
        throw describeFailure(error, { model: request.model, endpoint, maxRetries, timeoutMs, secrets });
      }
      // A reply quoting the key (a careless or hostile server) must not carry it into results or caches.
      const texts = completion.choices.map((choice) =>
        redactSecretValues(choice.message?.content ?? '', secrets),
      );
      const top =
        request.topLogprobs === undefined
          ? undefined
          : completion.choices[0]?.logprobs?.content?.[0]?.top_logprobs;
      if (top && top.length > 0) {
        const logprobs = Object.fromEntries(top.map((entry) => [entry.token, entry.logprob]));
        // Tokens, not the key; redacted all the same, as every text of a reply is.
        texts.push(redactSecretValues(`${LOGPROBS_MARK}${JSON.stringify(logprobs)}`, secrets));
      }
      return { ...completionResult(texts, completion.usage, started), requests: requests.count };
    },
  };
}

/** A network reply as the chat client returns it: its texts, token usage and latency. */
function completionResult(
  texts: string[],
  usage: { prompt_tokens?: number; completion_tokens?: number } | null | undefined,
  started: number,
): ChatCompleteResult {
  return {
    text: texts[0] ?? '',
    texts,
    usage: {
      promptTokens: tokenCount(usage?.prompt_tokens),
      completionTokens: tokenCount(usage?.completion_tokens),
    },
    cached: false,
    latencyMs: performance.now() - started,
  };
}

type FailureContext = {
  model: string;
  endpoint: string;
  maxRetries: number;
  timeoutMs: number;
  secrets: readonly string[];
};

function describeFailure(error: unknown, context: FailureContext): ChatCompletionError {
  const { model, endpoint, maxRetries, timeoutMs } = context;
  const attempts = `${maxRetries + 1} attempt${maxRetries === 0 ? '' : 's'}`;
  const build = (message: string, kind: ChatCompletionError['kind'], status?: number) =>
    new ChatCompletionError({
      message: redactSecrets(message, context.secrets),
      model,
      kind,
      ...(status === undefined ? {} : { status }),
    });

  if (error instanceof loadOpenAi().APIConnectionTimeoutError) {
    return build(
      `Chat completion for model "${model}" timed out after ${timeoutMs} ms (${attempts}).`,
      'timeout',
    );
  }
  if (error instanceof loadOpenAi().APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return build(
      `Chat completion for model "${model}" could not reach ${endpoint} (${attempts})${summarize(cause)}.`,
      'connection',
    );
  }
  if (error instanceof loadOpenAi().APIError && typeof error.status === 'number') {
    const retried = sdkRetries(error.status) ? ` after ${attempts}` : '';
    const detail = summarize(error.message.replace(/^\d{3}\s*/, ''));
    return build(
      `Chat completion for model "${model}" failed with HTTP ${error.status}${retried}${detail ? `: ${detail}` : ''}.`,
      'http',
      error.status,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return build(`Chat completion for model "${model}" failed: ${summarize(message)}.`, 'other');
}

/** Statuses the `openai` package itself retries (its policy, not lme's: `ServiceError.retryable`). */
function sdkRetries(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** One line, at most 200 characters, without a trailing period (the caller ends the sentence). */
function summarize(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim().replace(/\.+$/, '');
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}

/** `host/path` of the base URL, without credentials or query. */
function describeEndpoint(baseURL: string): string {
  try {
    const url = new URL(baseURL);
    return `${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return 'an invalid base URL';
  }
}
