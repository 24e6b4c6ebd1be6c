import { describe, expect, it } from 'vitest';
import { METRIC_VARIANTS, parseVariant, type VariantQuestion } from './metric-variants.js';

function question(
  rankedSessions: string[],
  gold: string[],
  extra: Partial<VariantQuestion> = {},
): VariantQuestion {
  return { rankedSessions, gold: new Set(gold), judged: null, metrics: {}, abstention: false, ...extra };
}

const value = (name: string, input: VariantQuestion, k = 0) => METRIC_VARIANTS[name]!.value(input, k);

describe('metric variants, each against its author definition on a hand-worked case', () => {
  it('recall_any_all_questions: any answer_session_ids session in the top k, abstention counted', () => {
    // MemPalace evaluate_retrieval: top_k_ids = set(corpus_ids[idx] for idx in rankings[:k]); any(...)
    const ranked = ['s1', 's2', 's3', 's4', 's5', 's6'];
    expect(value('recall_any_all_questions', question(ranked, ['s6', 's9']), 5)).toBe(0);
    expect(value('recall_any_all_questions', question(ranked, ['s6', 's9']), 10)).toBe(1);
    expect(value('recall_any_all_questions', question(ranked, ['s2'], { abstention: true }), 5)).toBe(1);
    // any() over an empty gold set is False: the question counts 0, not skipped.
    expect(value('recall_any_all_questions', question(ranked, []), 5)).toBe(0);
  });

  it('recall_any_with_evidence: as recall any, but a question without evidence is skipped', () => {
    expect(value('recall_any_with_evidence', question(['a', 'b'], []), 10)).toBeNull();
    expect(value('recall_any_with_evidence', question(['a', 'b'], ['b']), 10)).toBe(1);
  });

  it('recall_any_unique_sessions: the first k distinct sessions of a turn ranking', () => {
    // Turns of s1 fill the top 5 hits; the 5 unique sessions reach s3, s4, s5 and s9.
    const turns = ['s1', 's1', 's1', 's2', 's1', 's3', 's4', 's9', 's5'];
    expect(value('recall_any_all_questions', question(turns, ['s9']), 5)).toBe(0);
    expect(value('recall_any_unique_sessions', question(turns, ['s9']), 5)).toBe(1);
    expect(value('recall_any_unique_sessions', question(turns, ['s5']), 5)).toBe(0);
  });

  it('recall_fraction: evidence sessions found over evidence sessions, none counts 1', () => {
    // MemPalace locomo compute_retrieval_recall: found / len(evidence_ids); no evidence: 1.0
    expect(value('recall_fraction', question(['a', 'b', 'c'], ['a', 'c', 'z']), 3)).toBeCloseTo(2 / 3, 12);
    expect(value('recall_fraction', question(['a', 'b', 'c'], ['a', 'c', 'z']), 1)).toBeCloseTo(1 / 3, 12);
    expect(value('recall_fraction', question(['a'], []), 3)).toBe(1);
  });

  it('ndcg_retrieved_ideal: MemPalace NDCG, ideal from the retrieved top k, not the corpus', () => {
    // relevances [0, 1, 0, 1] at k=4: dcg = 1/log2(3) + 1/log2(5); ideal [1, 1, 0, 0] = 1 + 1/log2(3)
    const expected = (1 / Math.log2(3) + 1 / Math.log2(5)) / (1 + 1 / Math.log2(3));
    expect(
      value('ndcg_retrieved_ideal', question(['x', 'g1', 'y', 'g2', 'g3'], ['g1', 'g2', 'g3']), 4),
    ).toBeCloseTo(expected, 12);
    // One gold in the top k at rank 3 (of three gold in the corpus): the official ideal would be
    // 1 + 1/log2(3) + 1/log2(4); MemPalace's ideal holds that one relevance only, so 1/log2(4) / 1.
    expect(
      value('ndcg_retrieved_ideal', question(['x', 'y', 'g1', 'g2'], ['g1', 'g2', 'g3']), 3),
    ).toBeCloseTo(0.5, 12);
    expect(value('ndcg_retrieved_ideal', question(['x', 'y'], ['g1']), 2)).toBe(0);
  });

  it('official_recall_all: the run graded value, abstention questions skipped', () => {
    const graded = { 'session.recall_all@5': 1 };
    expect(value('official_recall_all', question([], [], { metrics: graded }), 5)).toBe(1);
    expect(
      value('official_recall_all', question([], [], { metrics: graded, abstention: true }), 5),
    ).toBeNull();
  });

  it('judged_accuracy: the judge score, an unjudged question counting 0', () => {
    expect(value('judged_accuracy', question([], [], { judged: 1 }))).toBe(1);
    expect(value('judged_accuracy', question([], []))).toBe(0);
  });

  it('refuses an unknown variant or a cutoff where none or one is due, listing the known ones', () => {
    expect(parseVariant('recall_fraction@10').k).toBe(10);
    expect(() => parseVariant('recall_any@5')).toThrow(
      /unknown metric variant "recall_any@5" \(known: recall_any_all_questions@k/,
    );
    expect(() => parseVariant('recall_fraction')).toThrow(/unknown metric variant/);
    expect(() => parseVariant('judged_accuracy@5')).toThrow(/unknown metric variant/);
    expect(() => parseVariant('recall_fraction@0')).toThrow(/unknown metric variant/);
  });
});
