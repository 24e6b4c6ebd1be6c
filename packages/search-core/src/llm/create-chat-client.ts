import type { ChatClient, ChatClientOptions } from './chat-client.js';
import { endpointOrigin, withCompletionCache } from './completion-cache.js';
import { createOpenAiChatClient, DEFAULT_BASE_URL } from './openai-chat-client.js';
import { withRequiredChoice } from './require-choice.js';
import { withSingleFlight } from './single-flight.js';

/**
 * The chat client the benchmark uses: the `openai` package (its own retries and timeout, no
 * second retry layer), an optional disk cache of completions, and single-flight so identical
 * requests in flight at the same time are sent once. A reply with no choice, or a body that could
 * not be read, is an error: checked before the cache (never cached) and after it (an empty entry
 * left by an older version is not replayed as the answer `""`).
 */
export function createChatClient(options: ChatClientOptions = {}): ChatClient {
  const network = withRequiredChoice(createOpenAiChatClient(options));
  const cached = options.cacheDir
    ? withRequiredChoice(
        withCompletionCache(network, {
          dir: options.cacheDir,
          onWarning: options.onWarning,
          endpoint: endpointOrigin(options.baseURL ?? DEFAULT_BASE_URL),
          onOtherEndpoint: options.onCachedFromOtherEndpoint,
        }),
      )
    : network;
  return withSingleFlight(cached);
}
