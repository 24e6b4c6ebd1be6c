import type OpenAI from 'openai';
import type { ChatClient, ChatClientOptions, ChatCompleteOptions } from '../llm/chat-client.js';
import { ChatCompletionError } from '../llm/chat-completion-error.js';
import { withCompletionCache } from '../llm/completion-cache.js';
import { loadOpenAi } from '../llm/load-openai.js';
import { completionResult } from '../llm/openai-chat-client.js';
import { redactSecrets } from '../llm/redact-secrets.js';
import { withRequiredChoice } from '../llm/require-choice.js';
import { withSingleFlight } from '../llm/single-flight.js';

/** Marks the second text of a reply: the first token's top log-probabilities as JSON. */
const LOGPROBS_MARK = 'lme-logprobs:';

/**
 * A chat client for the pointwise reranker: the OpenAI-compatible endpoint is asked for the
 * first token's top 5 log-probabilities (`logprobs: true, top_logprobs: 5`). They travel as a
 * second text of the reply (`lme-logprobs:{"Yes":-0.1,…}`), so the completion cache and
 * single-flight serve them like any reply; an endpoint that returns none gives the text only.
 * Retries and the per-attempt timeout are the `openai` package's, as for the reader.
 */
export function createLogprobChatClient(options: ChatClientOptions = {}): ChatClient {
  const baseURL = options.baseURL ?? 'https://api.openai.com/v1';
  const secrets = options.apiKey ? [options.apiKey] : [];
  let sdk: OpenAI | undefined;
  const network: ChatClient = {
    id: `openai-chat-logprobs:${new URL(baseURL).host}`,
    async complete(request: ChatCompleteOptions) {
      request.signal?.throwIfAborted();
      const started = performance.now();
      if (!options.apiKey)
        throw new ChatCompletionError({
          message: `No API key to call model "${request.model}" for reranking: set OPENAI_API_KEY (any value for a server that needs none).`,
          model: request.model,
          kind: 'credentials',
        });
      sdk ??= new (loadOpenAi())({
        apiKey: options.apiKey,
        baseURL,
        organization: null,
        project: null,
        maxRetries: options.maxRetries ?? 6,
        timeout: Math.max(1, Math.round(options.timeoutMs ?? 180_000)),
        logLevel: 'off',
      });
      let completion: OpenAI.Chat.Completions.ChatCompletion;
      try {
        completion = await sdk.chat.completions.create(
          {
            model: request.model,
            messages: request.messages.map((message) => ({ role: message.role, content: message.content })),
            temperature: request.temperature,
            max_tokens: request.maxTokens,
            logprobs: true,
            top_logprobs: 5,
          },
          request.signal ? { signal: request.signal } : undefined,
        );
      } catch (error) {
        if (request.signal?.aborted) throw request.signal.reason;
        const status = (error as { status?: unknown }).status;
        const reason = error instanceof Error ? error.message : String(error);
        throw new ChatCompletionError({
          message: redactSecrets(
            `Rerank completion for model "${request.model}" failed${typeof status === 'number' ? ` with HTTP ${status}` : ''}: ${reason.replace(/\s+/g, ' ').slice(0, 200)}`,
            secrets,
          ),
          model: request.model,
          kind: typeof status === 'number' ? 'http' : 'other',
          ...(typeof status === 'number' ? { status } : {}),
        });
      }
      const choice = completion.choices[0];
      const texts = choice ? [choice.message?.content ?? ''] : [];
      const top = choice?.logprobs?.content?.[0]?.top_logprobs;
      if (top && top.length > 0)
        texts.push(
          `${LOGPROBS_MARK}${JSON.stringify(Object.fromEntries(top.map((entry) => [entry.token, entry.logprob])))}`,
        );
      return completionResult(texts, completion.usage, started);
    },
  };
  const checked = withRequiredChoice(network);
  const cached = options.cacheDir
    ? withRequiredChoice(
        withCompletionCache(checked, { dir: options.cacheDir, onWarning: options.onWarning }),
      )
    : checked;
  return withSingleFlight(cached);
}

/**
 * The text of a reply and, when it carries log-probabilities, P(yes) of its first token: the
 * probabilities of yes-like and no-like tokens summed and renormalised over the two.
 */
export function readLogprobReply(texts: readonly string[]): { text: string; yesProbability?: number } {
  const text = texts[0] ?? '';
  const marked = texts.find((entry) => entry.startsWith(LOGPROBS_MARK));
  if (!marked) return { text };
  let top: Record<string, number>;
  try {
    top = JSON.parse(marked.slice(LOGPROBS_MARK.length)) as Record<string, number>;
  } catch {
    return { text };
  }
  let yes = 0;
  let no = 0;
  for (const [token, logprob] of Object.entries(top)) {
    const word = token.trim().toLowerCase();
    if (word === 'yes') yes += Math.exp(logprob);
    else if (word === 'no') no += Math.exp(logprob);
  }
  return yes + no > 0 ? { text, yesProbability: yes / (yes + no) } : { text };
}
