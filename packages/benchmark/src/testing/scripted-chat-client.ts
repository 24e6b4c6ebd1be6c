import type { ChatClient, ChatCompleteOptions, ChatCompleteResult } from '@lme/search-core';

/**
 * A ChatClient for tests that records every request and answers with scripted choices (the first
 * is `text`), or throws the given error. `reply` sets the usage, cache flag and latency returned.
 */
export function createScriptedChatClient(
  replies: readonly string[] | Error,
  reply: Pick<ChatCompleteResult, 'usage' | 'cached' | 'latencyMs'>,
): ChatClient & { requests: ChatCompleteOptions[] } {
  const requests: ChatCompleteOptions[] = [];
  return {
    id: 'fake-chat',
    requests,
    async complete(request) {
      requests.push(request);
      if (replies instanceof Error) throw replies;
      return { text: replies[0] ?? '', texts: [...replies], ...reply };
    },
  };
}
