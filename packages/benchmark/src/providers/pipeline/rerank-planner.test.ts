import { join } from 'node:path';
import { RERANK_PASSAGE_CHARS } from '@lme/search-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCorpus } from '../../benchmarks/build-corpus.js';
import { loadAnyDataset } from '../../benchmarks/load-dataset.js';
import type { LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import { parseRunConfig } from '../../config/parse-run-config.js';
import { planRerank } from '../../run/plan-rerank.js';
import { REPO_ROOT } from '../../testing/run-cli.js';
import { rerankPlanner } from './configured-reranker.js';

let records: LongMemEvalRecord[];

beforeAll(async () => {
  ({ records } = await loadAnyDataset(join(REPO_ROOT, 'datasets/sample/longmemeval_s_sample.json.gz'), {
    duplicateSessions: 'keep',
  }));
});

describe('the reranker families’ dry-run plans', () => {
  it('add up, over the sample, to what the dry run plans today for each family', () => {
    const tokensPerChar = 0.25;
    for (const [reranker, rerankDepth] of [
      ['llm:gpt-4o-mini', 20],
      ['llm:m', 45],
      ['llm-pointwise:m', 15],
      ['http:http://127.0.0.1:9/v1', 30],
    ] as const) {
      const config = parseRunConfig({ retriever: 'bm25', reranker, rerankDepth, rerankModel: 'rerank-v3' });
      const planner = rerankPlanner(config)!;
      const total = { model: planner.model, calls: 0, promptTokens: 0, completionTokens: 0 };
      for (const record of records) {
        // The sizes plan-rerank.ts measures: candidates and the mean cut candidate, in tokens.
        const documents = buildCorpus(record, config).documents;
        const depth = Math.min(rerankDepth, documents.length);
        if (depth < 2) continue;
        const chars =
          documents.reduce((sum, document) => sum + Math.min(document.text.length, RERANK_PASSAGE_CHARS), 0) /
          documents.length;
        const plan = planner.plan({
          depth,
          candidateTokens: Math.round(chars * tokensPerChar) + 4,
          queryTokens: Math.round(record.question.length * tokensPerChar),
        });
        total.calls += plan.calls;
        total.promptTokens += plan.promptTokens;
        total.completionTokens += plan.completionTokens;
      }
      expect(total.calls, reranker).toBeGreaterThan(0);
      expect(total, reranker).toEqual(planRerank(config, records, tokensPerChar));
    }
    expect(rerankPlanner(parseRunConfig({ reranker: 'offline:session-prior' }))).toBeUndefined();
    expect(rerankPlanner(parseRunConfig({}))).toBeUndefined();
  });
});
