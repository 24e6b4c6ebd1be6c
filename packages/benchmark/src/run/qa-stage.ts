import { join } from 'node:path';
import { createChatClient, estimateCost, loadPriceTable, type PriceTable } from '@lme/search-core';
import type { RunConfig } from '../config/run-config.js';
import type { LongMemEvalRecord } from '../dataset/longmemeval-record.js';
import { createJudge, type Judge } from '../qa/judge.js';
import { createReader, type Reader } from '../qa/reader.js';
import { fullContextSessions, oracleSessions, rankedSessions } from '../qa/reader-sessions.js';
import type { Sample } from './sample.js';

export type QaResult = Pick<Sample, 'hypothesis' | 'judge' | 'usage'> & { metrics: Record<string, number> };

/** Reads the question's history with an LLM and grades the answer with the official judge. */
export type QaStage = {
  answer(options: {
    record: LongMemEvalRecord;
    providerId: string;
    rankedSessionIds: readonly string[];
    signal?: AbortSignal;
  }): Promise<QaResult>;
  /** USD spent so far on calls not served from the cache (null parts: unpriced models). */
  spentUsd(): number;
};

/**
 * The QA stage of a run, or undefined when no reader model is configured. API keys come from the
 * environment only (OPENAI_API_KEY, or LME_READER_API_KEY / LME_JUDGE_API_KEY per role) and are
 * never stored.
 */
export async function createQaStage(
  config: RunConfig,
  environment: NodeJS.ProcessEnv = process.env,
): Promise<QaStage | undefined> {
  if (!config.readerModel) return undefined;
  const cacheDir = config.cache ? join(config.cacheDir, 'llm') : undefined;
  const clientFor = (baseURL: string | undefined, apiKey: string | undefined) =>
    createChatClient({
      baseURL: baseURL ?? config.baseUrl ?? environment.OPENAI_BASE_URL,
      apiKey: apiKey ?? environment.OPENAI_API_KEY,
      maxRetries: config.maxRetries,
      timeoutMs: config.timeoutMs,
      cacheDir,
    });
  const reader: Reader = createReader({
    client: clientFor(config.readerBaseUrl, environment.LME_READER_API_KEY),
    model: config.readerModel,
    prompt: config.readerPrompt,
    historyFormat: config.historyFormat,
  });
  const judge: Judge = createJudge({
    client: clientFor(config.judgeBaseUrl, environment.LME_JUDGE_API_KEY),
    model: config.judgeModel,
    samples: config.judgeSamples,
  });
  const prices: PriceTable = await loadPriceTable();
  let spent = 0;
  const priced = (
    model: string,
    usage: { promptTokens: number; completionTokens: number },
    cached: boolean,
  ) => {
    const cost = estimateCost(model, usage, prices).usd;
    if (!cached && cost !== null) spent += cost;
    return {
      prompt_tokens: usage.promptTokens,
      completion_tokens: usage.completionTokens,
      cost_usd: cost,
      cached,
    };
  };

  return {
    spentUsd: () => spent,
    async answer({ record, providerId, rankedSessionIds, signal }) {
      const sessions =
        providerId === 'full-context'
          ? fullContextSessions(record)
          : providerId === 'oracle'
            ? oracleSessions(record)
            : rankedSessions(record, rankedSessionIds, { topK: config.readerTopK });
      const answer = await reader.answer({ record, sessions, signal });
      const grade = await judge.grade({ record, hypothesis: answer.hypothesis, signal });
      const metrics: Record<string, number> = { 'qa.accuracy_strict': grade.label === true ? 1 : 0 };
      if (grade.label !== null) metrics['qa.accuracy'] = grade.label ? 1 : 0;
      return {
        hypothesis: answer.hypothesis,
        judge: { label: grade.label, ...(grade.error ? { error: grade.error } : {}) },
        usage: {
          reader: priced(reader.model, answer.usage, answer.cached),
          judge: priced(judge.model, grade.usage, grade.cached),
        },
        metrics,
      };
    },
  };
}
