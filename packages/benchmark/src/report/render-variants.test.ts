import { describe, expect, it } from 'vitest';
import type { MetricMeans, Summary } from '../results/summary.js';
import { renderVariantsTable } from './render-variants.js';

const means = (n: number, metrics: Record<string, number>): MetricMeans => ({
  n,
  metrics,
  counts: Object.fromEntries(Object.keys(metrics).map((name) => [name, name.startsWith('qa.') ? n + 1 : n])),
});

function summary(recall: number, accuracy: number): Summary {
  return {
    run_id: 'r',
    dataset: 'sample',
    convention: 'official',
    exclusion: 'A',
    n: 4,
    errors: 0,
    metrics: {
      overall: means(3, { 'session.recall_any@5': recall, 'qa.accuracy_strict': accuracy }),
      by_type: {
        'single-session-user': means(3, { 'session.recall_any@5': recall, 'qa.accuracy_strict': accuracy }),
      },
      abstention: means(1, { 'session.recall_any@5': 1, 'qa.accuracy_strict': 0 }),
    },
  };
}

describe('renderVariantsTable', () => {
  it('labels the abstention row "not in overall" for retrieval only: QA counts it in its type and overall', () => {
    const table = renderVariantsTable(
      [
        { variant: '', summary: summary(0.5, 0.75) },
        { variant: 'k=20', summary: summary(0.6, 0.5) },
      ],
      'ablation',
    );
    const lines = table.split('\n');
    const retrievalAbstention = lines.filter((line) => line.includes('abstention (not in overall)'));
    expect(retrievalAbstention).toHaveLength(2);
    for (const line of retrievalAbstention) expect(line).not.toContain('0.0000');
    const qaAbstention = lines.filter((line) => line.includes('abstention (also in its type and overall)'));
    expect(qaAbstention).toHaveLength(2);
    // The QA row: n is the graded questions, the value the QA accuracy.
    expect(qaAbstention[0]).toMatch(/\| +base \| 2 \| +0\.0000 \|$/);
    expect(table).toMatch(/\| question_type +\| variant \| +n \| qa\.accuracy_strict \|/);
  });
});
