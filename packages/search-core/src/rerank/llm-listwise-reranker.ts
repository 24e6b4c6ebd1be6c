import type { ChatClient } from '../llm/chat-client.js';
import { listwisePrompt, parseListwiseReply } from './rerank-prompts.js';
import {
  addRerankUsage,
  type CandidateReranker,
  emptyRerankUsage,
  RerankError,
  type RerankRequest,
  type RerankResult,
} from './reranker.js';

export type LlmListwiseRerankerOptions = {
  client: ChatClient;
  model: string;
  /** Candidates one call ranks (RankGPT: 20). */
  windowSize?: number;
  /** How far the window moves up the list after each call (RankGPT: 10). */
  step?: number;
};

/**
 * RankGPT's sliding-window listwise reranking: a window of `windowSize` candidates, starting at
 * the bottom of the list, is ranked by one chat call and the window moves up by `step`, so good
 * candidates bubble to the top in one pass. Identifiers the reply leaves out keep their incoming
 * order after the ones it named (recorded in `missing`); a reply naming none is an error.
 */
export function createLlmListwiseReranker(options: LlmListwiseRerankerOptions): CandidateReranker {
  const windowSize = options.windowSize ?? 20;
  const step = options.step ?? 10;
  if (step < 1 || step > windowSize) throw new Error('listwise reranker: step must be in 1..windowSize');
  return {
    id: `llm:${options.model}`,
    model: options.model,
    async rerank({ query, candidates, signal }: RerankRequest): Promise<RerankResult> {
      const usage = emptyRerankUsage();
      const order = candidates.map((_, position) => position);
      const missing = new Set<number>();
      let end = order.length;
      while (end > 0) {
        const start = Math.max(0, end - windowSize);
        const window = order.slice(start, end);
        if (window.length > 1) {
          const reply = await options.client.complete({
            model: options.model,
            messages: listwisePrompt(
              query,
              window.map((position) => candidates[position]!.text),
            ),
            temperature: 0,
            maxTokens: 8 * window.length + 16,
            ...(signal ? { signal } : {}),
          });
          addRerankUsage(usage, { cached: reply.cached, ...reply.usage });
          const named = parseListwiseReply(reply.text, window.length);
          if (!named)
            throw new RerankError(
              `Listwise reranker ${options.model} replied without any candidate identifier: "${reply.text.slice(0, 80)}".`,
            );
          const rest = window.map((_, index) => index).filter((index) => !named.includes(index));
          for (const index of rest) missing.add(window[index]!);
          const reordered = [...named, ...rest].map((index) => window[index]!);
          order.splice(start, window.length, ...reordered);
        }
        if (start === 0) break;
        end -= step;
      }
      const scores = new Array<number>(candidates.length).fill(0);
      order.forEach((position, rank) => {
        scores[position] = 1 - rank / Math.max(1, candidates.length);
      });
      return { order, scores, missing: [...missing].sort((a, b) => a - b), usage };
    },
  };
}
