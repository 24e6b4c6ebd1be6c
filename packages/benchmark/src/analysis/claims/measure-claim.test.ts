import { describe, expect, it } from 'vitest';
import type { Sample } from '../../results/sample.js';
import type { Claim } from './claim-schema.js';
import { measureClaim } from './measure-claim.js';

/** A finished question whose top hit is `session` (its gold is `s-<index>`). */
function sample(index: number, type: string, session: string): Sample {
  return {
    question_id: `q${index}`,
    position: index,
    question_type: type,
    abstention: false,
    no_target: false,
    gold_sessions: [],
    hits: [{ id: session, session_id: session, rank: 1, score: 1, routes: {} }],
    metrics: { 'session.recall_all@5': 0 },
    hypothesis: null,
    judge: null,
    usage: {},
    latency_ms: { index: 0, retrieve: 0 },
    error: null,
  };
}

const claim = (overall: number, byType: Record<string, number>) =>
  ({
    id: 'toy',
    path: 'toy.json',
    questions: { count: 40, rule: 'all' },
    benchmark: { name: 'toy', dataset: { name: 'toy.json', sha256: 'a'.repeat(64) } },
    published: [{ metric: 'recall_any_all_questions@1', overall, by_type: byType }],
    official: 'session.recall_all@5',
  }) as unknown as Claim;

// 20 questions of type a, all found; 20 of type b, 10 found: 30 of 40 overall.
const samples = Array.from({ length: 40 }, (_, index) =>
  sample(index, index < 20 ? 'a' : 'b', index < 20 || index % 2 === 0 ? `s-${index}` : 'other'),
);
const gold = new Map(samples.map((each, index) => [each.question_id, [`s-${index}`]]));

describe('a claim measured against a run', () => {
  it('reproduces when the published figure lies inside the Wilson interval of the measured mean', () => {
    const measured = measureClaim(claim(0.7, { a: 0.95, b: 0.5 }), { run_id: 'r', samples }, gold);
    const head = measured.figures[0]!;
    expect(head.measured!.value).toBe(0.75);
    expect(head.measured!.n).toBe(40);
    // Wilson 95% for 30/40: [0.5981, 0.8581].
    expect(head.measured!.ci95!.low).toBeCloseTo(0.5981, 3);
    expect(head.measured!.ci95!.high).toBeCloseTo(0.8581, 3);
    expect(measured.verdict).toBe('reproduced');
    expect(measured.explanation).toBe('published figure inside the 95% interval');
  });

  it('says by how much it is off, and on which types', () => {
    const measured = measureClaim(claim(0.95, { a: 0.95, b: 0.9 }), { run_id: 'r', samples }, gold);
    expect(measured.verdict).toBe('not reproduced');
    expect(measured.explanation).toBe('off by -20.0 pp; outside on b -40.0 pp');
    expect(measured.figures[0]!.by_type.map((row) => row.measured!.value)).toEqual([1, 0.5]);
  });

  it('leaves failed questions out and reads the official metric from the summary', () => {
    const failed = [...samples, { ...sample(40, 'a', 'other'), error: 'boom' }];
    const summary = {
      metrics: {
        overall: { metrics: { 'session.recall_all@5': 0.5 }, counts: { 'session.recall_all@5': 38 } },
      },
    };
    const measured = measureClaim(
      claim(0.7, {}),
      { run_id: 'r', samples: failed, summary: summary as never },
      gold,
    );
    expect(measured.figures[0]!.measured!.n).toBe(40);
    expect(measured.official).toEqual({ metric: 'session.recall_all@5', value: 0.5, n: 38 });
    expect(measured.dataset).toEqual({ claimed: 'a'.repeat(64), measured: null });
  });
});
