import type { ChatClient } from '../llm/chat-client.js';
import { readLogprobReply } from './logprob-chat-client.js';
import { parseYesNo, pointwisePrompt } from './rerank-prompts.js';
import {
  addRerankUsage,
  type CandidateReranker,
  emptyRerankUsage,
  orderByScores,
  RerankError,
  type RerankRequest,
  type RerankResult,
} from './reranker.js';

/** The first token's top log-probabilities asked for per judgement (yes and no variants fit in 5). */
const TOP_LOGPROBS = 5;

export type LlmPointwiseRerankerOptions = {
  /** The chat client (as the reader's); every judgement asks it for the first token's top 5 logprobs. */
  client: ChatClient;
  model: string;
  /** Judgements in flight at once for one question. Default 4. */
  concurrency?: number;
};

/**
 * Pointwise LLM reranking: one yes/no relevance judgement per candidate. The score is P(yes)
 * from the first token's log-probabilities when the endpoint returns them (yes and no variants
 * summed and renormalised), else 1 for yes and 0 for no; ties keep the incoming order. A reply that
 * is neither is an error for the whole question (the stage then keeps the incoming order).
 */
export function createLlmPointwiseReranker(options: LlmPointwiseRerankerOptions): CandidateReranker {
  const concurrency = Math.max(1, options.concurrency ?? 4);
  return {
    id: `llm-pointwise:${options.model}`,
    model: options.model,
    async rerank({ query, candidates, signal }: RerankRequest): Promise<RerankResult> {
      const usage = emptyRerankUsage();
      const scores = new Array<number>(candidates.length).fill(0);
      let next = 0;
      const judge = async (position: number) => {
        const reply = await options.client.complete({
          model: options.model,
          messages: pointwisePrompt(query, candidates[position]!.text),
          temperature: 0,
          maxTokens: 1,
          topLogprobs: TOP_LOGPROBS,
          ...(signal ? { signal } : {}),
        });
        addRerankUsage(usage, { cached: reply.cached, ...reply.usage });
        const { text, yesProbability } = readLogprobReply(reply.texts);
        const score = yesProbability ?? parseYesNo(text);
        if (score === undefined)
          throw new RerankError(
            `Pointwise reranker ${options.model} answered neither yes nor no for candidate ${candidates[position]!.id}: "${text.slice(0, 80)}".`,
          );
        scores[position] = score;
      };
      const worker = async () => {
        while (next < candidates.length) await judge(next++);
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, candidates.length) }, worker));
      return { order: orderByScores(scores), scores, missing: [], usage };
    },
  };
}
