import { describe, expect, it } from 'vitest';
import type { CategoryComparison, ComparisonResult, MetricComparison } from './compare-runs.js';
import { renderComparison } from './render-comparison.js';
import { renderComparisonTable } from './render-comparison-table.js';

const metric = (name: string, base: number, other: number): MetricComparison => ({
  metric: name,
  base,
  other,
  delta: other - base,
  nBase: 2,
  nOther: 2,
  nPaired: 2,
  test: { kind: 'mcnemar', b: 1, c: 0, pValue: 1 },
});

const category = (name: string): CategoryComparison => ({
  category: name,
  nBase: 2,
  nOther: 2,
  nPaired: 2,
  metrics: [metric('session.recall_any@5', 1, 0.5), metric('qa.accuracy_strict', 0.5, 0)],
});

function result(): ComparisonResult {
  const run = { runId: 'a', dir: '/runs/a', errors: 0 };
  return {
    resamples: 100,
    seed: 1,
    comparisons: [
      {
        base: run,
        other: { ...run, runId: 'b', dir: '/runs/b' },
        metrics: ['session.recall_any@5', 'qa.accuracy_strict'],
        binaryMetrics: ['session.recall_any@5', 'qa.accuracy_strict'],
        configDifferences: [],
        categories: [category('abstention'), category('overall')],
        flips: [],
        hiddenDifferences: [],
        warnings: [],
      },
    ],
  } as unknown as ComparisonResult;
}

describe('renderComparisonTable', () => {
  it('labels the abstention rows by what they count: retrieval not in overall, QA in its type and overall', () => {
    const rows = renderComparisonTable(result())
      .split('\n')
      .filter((line) => line.includes('recall_any@5') || line.includes('qa.accuracy_strict'));
    expect(rows[0]).toMatch(/^\| abstention \(not in overall\) +\| session\.recall_any@5/);
    expect(rows[1]).toMatch(/^\| abstention \(also in its type and overall\) \| qa\.accuracy_strict/);
    expect(rows[2]).toMatch(/^\| overall +\| session\.recall_any@5/);
    expect(rows[3]).toMatch(/^\| +\| qa\.accuracy_strict/);
  });
});

describe('renderComparison', () => {
  it('titles abstention "not in overall" for retrieval metrics only: QA counts it in its type and overall', () => {
    const sections = renderComparison(result()).split('### ').slice(1);
    expect(sections.map((section) => section.split('\n')[0])).toEqual([
      'abstention (not in overall)',
      'abstention (also in its type and overall)',
      'overall',
    ]);
    expect(sections[0]).toContain('session.recall_any@5');
    expect(sections[0]).not.toContain('qa.accuracy_strict');
    expect(sections[1]).toContain('qa.accuracy_strict');
    expect(sections[1]).not.toContain('session.recall_any@5');
    expect(sections[2]).toContain('qa.accuracy_strict');
  });
});
