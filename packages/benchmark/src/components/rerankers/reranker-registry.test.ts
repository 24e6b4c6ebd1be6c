import { describe, expect, it } from 'vitest';
import { optionDeclarations } from '../component.js';
import { RERANKERS } from './reranker-registry.js';

const size = { depth: 40, candidateTokens: 100, queryTokens: 10 };

describe('reranker families', () => {
  it('share one --rerank-depth and keep --rerank-model and --rerank-key-env to http', () => {
    expect(optionDeclarations(RERANKERS).map((option) => option.key)).toEqual([
      'rerankDepth',
      'rerankModel',
      'rerankKeyEnv',
    ]);
    const depths = new Set(Object.values(RERANKERS).map((reranker) => reranker.options.rerankDepth));
    expect(depths.size).toBe(1);
  });

  it('price the chat model, the http service model, and nothing offline', () => {
    expect(RERANKERS.llm.pricedModel('gpt-4o-mini', { rerankDepth: 20 })).toBe('gpt-4o-mini');
    expect(RERANKERS['llm-pointwise'].pricedModel('m', { rerankDepth: 20 })).toBe('m');
    expect(
      RERANKERS.http.pricedModel('https://host/v1', {
        rerankDepth: 20,
        rerankModel: 'rerank-v3',
        rerankKeyEnv: undefined,
      }),
    ).toBe('rerank-v3');
    expect(RERANKERS.offline.pricedModel('session-prior', { rerankDepth: 20 })).toBeUndefined();
  });

  it('plan listwise windows of 20 moved by 10, one pointwise call per candidate, one http call', () => {
    // 40 candidates: windows 20-40, 10-30, 0-20.
    expect(RERANKERS.llm.planCalls!(size)).toEqual({
      calls: 3,
      promptTokens: 3 * (20 * 100 + 2 * 10 + 160),
      completionTokens: 3 * (8 * 20 + 16),
    });
    expect(RERANKERS.llm.planCalls!({ ...size, depth: 15 }).calls).toBe(1);
    expect(RERANKERS['llm-pointwise'].planCalls!(size)).toEqual({
      calls: 40,
      promptTokens: 40 * (100 + 10 + 90),
      completionTokens: 40,
    });
    expect(RERANKERS.http.planCalls!(size)).toEqual({
      calls: 1,
      promptTokens: 40 * 110,
      completionTokens: 0,
    });
    expect('planCalls' in RERANKERS.offline).toBe(false);
  });

  it('probe an http service at its rerank URL with the key the named variable holds', () => {
    const options = { rerankDepth: 20, rerankModel: 'rerank-v3', rerankKeyEnv: 'RK' };
    const probe = RERANKERS.http.probe!('https://host/v1', options, {
      environment: { RK: 'rk-secret-0123456789' },
      checkEndpointUrl: (url) => url,
    });
    expect(probe).toEqual({
      who: 'the reranker (rerank-v3)',
      named: '--reranker http:https://host/v1',
      url: 'https://host/v1/rerank',
      headers: { authorization: 'Bearer rk-secret-0123456789' },
      secrets: ['rk-secret-0123456789'],
      keyHint: 'check the key in RK (--rerank-key-env)',
    });
  });
});
