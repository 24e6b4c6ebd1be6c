import type { ChatClient, ChatCompleteOptions, ChatCompleteResult } from './chat-client.js';
import { ChatCompletionError } from './chat-completion-error.js';

/**
 * Fails a completion that carries no choice (`choices: []`) or whose body could not be read
 * (`choices` missing, not a list), with a ChatCompletionError naming the model. Placed between the
 * network client and the disk cache, so such a reply is never cached and replayed as the answer
 * `""`; placed outside the cache too, so an empty entry written by an older version is an error
 * rather than an answer. Aborts pass through unchanged.
 */
export function withRequiredChoice(client: ChatClient): ChatClient {
  return {
    id: client.id,
    async complete(request: ChatCompleteOptions): Promise<ChatCompleteResult> {
      let result: ChatCompleteResult;
      try {
        result = await client.complete(request);
      } catch (error) {
        if (request.signal?.aborted || error instanceof ChatCompletionError) throw error;
        // A 200 reply the client could not read (e.g. no `choices` list) surfaces as a TypeError.
        const reason = error instanceof Error ? error.message : String(error);
        throw new ChatCompletionError({
          message: `Chat completion for model "${request.model}" returned a body that could not be read (${reason}).`,
          model: request.model,
          kind: 'other',
        });
      }
      if (!Array.isArray(result.texts) || result.texts.length === 0) {
        throw new ChatCompletionError({
          message: `Chat completion for model "${request.model}" returned no choice (empty "choices"); nothing was cached.`,
          model: request.model,
          kind: 'other',
        });
      }
      return result;
    },
  };
}
