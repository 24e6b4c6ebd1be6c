import { describe, expect, it } from 'vitest';
import type { CategoryComparison } from './comparison-result.js';
import { givenDifferences, noiseWarning } from './equal-terms.js';
import type { Run } from './read-run.js';

const run = (runId: string, config: Record<string, unknown>) =>
  ({ config: { run_id: runId, config } }) as unknown as Run;

const overall = (nPaired: number, delta: number, pValue: number): CategoryComparison[] => [
  {
    category: 'overall',
    nBase: nPaired,
    nOther: nPaired,
    nPaired,
    metrics: [
      {
        metric: 'session.recall_any@5',
        base: 0.5,
        other: 0.5 + delta,
        delta,
        nBase: nPaired,
        nOther: nPaired,
        nPaired,
        test: { kind: 'mcnemar', b: 0, c: 0, pValue },
      },
    ],
  },
];

// Issue 60, item 3: lme's preset against mem0 compared user turns with every role, and 3 questions
// at 1.0000 each with no word that 3 questions tell nothing.
describe('comparisons on equal terms', () => {
  it('says when the systems were given other turns or ranked at another granularity, with the flag that evens it', () => {
    const hybrid = run('hybrid', { indexRoles: 'user', granularity: 'session' });
    const mem0 = run('mem0', { indexRoles: 'all', granularity: 'turn' });
    expect(givenDifferences(hybrid, mem0)).toEqual([
      'The systems were given different turns: hybrid indexed user turns only, mem0 every role; run the one with user turns only again with --index-roles all to compare on equal terms.',
      'The runs rank at different granularities (hybrid session, mem0 turn): session and turn figures measure different things.',
    ]);
    expect(givenDifferences(hybrid, run('again', { indexRoles: 'user', granularity: 'session' }))).toEqual(
      [],
    );
  });

  it('says when too few questions are shared for any test, and when every difference is inside the noise', () => {
    expect(noiseWarning(overall(3, 0, 1))).toBe(
      'Only 3 questions are shared and scored: too few for any paired test to reach p < 0.05, so neither equal nor different figures tell the systems apart; compare on more questions (--limit, or the whole dataset).',
    );
    expect(noiseWarning(overall(40, 0.05, 0.4))).toMatch(/^Every overall difference is inside the noise/);
    expect(noiseWarning(overall(40, 0.2, 0.01))).toBeUndefined();
  });
});
