import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAnyDataset } from '../../benchmarks/load-dataset.js';
import type { LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import { parseRunConfig, parseRunSections } from '../../config/run-sections.js';
import { planRerank } from '../../run/plan/plan-rerank.js';
import { REPO_ROOT } from '../../testing/run-cli.js';
import { rerankPlanner } from './configured-reranker.js';

let records: LongMemEvalRecord[];

beforeAll(async () => {
  ({ records } = await loadAnyDataset(join(REPO_ROOT, 'datasets/sample/longmemeval_s_sample.json.gz'), {
    duplicateSessions: 'keep',
  }));
});

const planner = (reranker: string) => rerankPlanner(parseRunConfig({ reranker, rerankModel: 'rerank-v3' }))!;

describe('the reranker families’ dry-run plans', () => {
  it('count each family’s calls for one question as its prompts are cut', () => {
    const size = { candidateTokens: 30, queryTokens: 10 };
    // Listwise: a window of 20 moved by 10 (45 candidates: 4 windows of 20), 160 tokens around each.
    expect(planner('llm:m').plan({ depth: 45, ...size })).toEqual({
      calls: 4,
      promptTokens: 4 * (20 * 30 + 2 * 10 + 160),
      completionTokens: 4 * (8 * 20 + 16),
    });
    expect(planner('llm:m').plan({ depth: 12, ...size })).toEqual({
      calls: 1,
      promptTokens: 12 * 30 + 2 * 10 + 160,
      completionTokens: 8 * 12 + 16,
    });
    // Pointwise: one call per candidate, 90 tokens around it, a one-token answer.
    expect(planner('llm-pointwise:m').plan({ depth: 15, ...size })).toEqual({
      calls: 15,
      promptTokens: 15 * (30 + 10 + 90),
      completionTokens: 15,
    });
    // A rerank server: one call, its tokens counted as prompt tokens.
    expect(planner('http:http://127.0.0.1:9/v1').plan({ depth: 30, ...size })).toEqual({
      calls: 1,
      promptTokens: 30 * 40,
      completionTokens: 0,
    });
    expect(rerankPlanner(parseRunConfig({ reranker: 'offline:session-prior' }))).toBeUndefined();
    expect(rerankPlanner(parseRunConfig({}))).toBeUndefined();
  });

  it('add up, over the sample, to what the dry run planned before the families owned it (e020621)', () => {
    // Figures of e020621's run/plan-rerank.ts on the same records, at 0.25 tokens per character;
    // session-aware hands the stage its top sessions × turns per session at most.
    const planned = (reranker: string, rerankDepth: number, retriever: 'bm25' | 'session-aware') =>
      planRerank(
        parseRunSections({ retriever, reranker, rerankDepth, rerankModel: 'rerank-v3' }),
        records,
        0.25,
      );
    expect(planned('llm:gpt-4o-mini', 20, 'bm25')).toEqual({
      model: 'gpt-4o-mini',
      calls: 22,
      promptTokens: 104896,
      completionTokens: 3872,
    });
    expect(planned('llm:m', 45, 'bm25')).toEqual({
      model: 'm',
      calls: 87,
      promptTokens: 414618,
      completionTokens: 15312,
    });
    expect(planned('llm:m', 45, 'session-aware')).toEqual({
      model: 'm',
      calls: 22,
      promptTokens: 23446,
      completionTokens: 2992,
    });
    expect(planned('llm-pointwise:m', 15, 'bm25')).toEqual({
      model: 'm',
      calls: 330,
      promptTokens: 112050,
      completionTokens: 330,
    });
    expect(planned('llm-pointwise:m', 15, 'session-aware')).toEqual({
      model: 'm',
      calls: 330,
      promptTokens: 55710,
      completionTokens: 330,
    });
    expect(planned('http:http://127.0.0.1:9/v1', 30, 'bm25')).toEqual({
      model: 'rerank-v3',
      calls: 22,
      promptTokens: 164700,
      completionTokens: 0,
    });
    expect(planned('offline:session-prior', 20, 'bm25')).toBeUndefined();
  });
});
