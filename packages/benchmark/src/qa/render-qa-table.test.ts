import { describe, expect, it } from 'vitest';
import type { Summary } from '../results/summary.js';
import { renderSummaryTable } from '../run/outputs/render-table.js';
import { renderQaTable } from './render-qa-table.js';

const means = (strict: number, lenient: number, n: number, graded: number) => ({
  n,
  metrics: { 'qa.accuracy_strict': strict, 'qa.accuracy': lenient },
  counts: { 'qa.accuracy_strict': n, 'qa.accuracy': graded },
});

const summary: Summary = {
  run_id: 'qa-run',
  dataset: 'oracle',
  convention: 'official',
  exclusion: 'A',
  n: 6,
  errors: 0,
  metrics: {
    overall: {
      n: 6,
      metrics: {
        'qa.accuracy_strict': 0.5,
        'qa.accuracy': 0.75,
        'qa.accuracy_task_avg': 0.5,
        'qa.accuracy_lenient_task_avg': 0.75,
      },
      counts: {
        'qa.accuracy_strict': 6,
        'qa.accuracy': 4,
        'qa.accuracy_task_avg': 2,
        'qa.accuracy_lenient_task_avg': 2,
      },
    },
    by_type: { 'multi-session': means(0.5, 1, 4, 2), 'knowledge-update': means(0.5, 0.5, 2, 2) },
    abstention: means(0, 0, 1, 1),
  },
} as Summary;

describe('the QA table', () => {
  it('leads with the official strict accuracy and task average and labels the lenient figures as lme’s own', () => {
    const table = renderQaTable(summary)!;
    const header = table.split('\n').find((line) => line.startsWith('| question_type'))!;
    expect(header.indexOf('accuracy (official, strict)')).toBeLessThan(
      header.indexOf("accuracy w/o judge errors (lme's own)"),
    );
    expect(table).toMatch(/\| multi-session +\| +4 \| +0\.5000 \| +2 \| +1\.0000 \|/);
    expect(table).toContain('Task-averaged accuracy (official): 0.5000 over 2 types');
    expect(table).toContain("lme's own, judge errors left out: 0.7500.");
  });

  it('counts abstention questions in their type and overall, and never says "not in overall"', () => {
    const table = renderQaTable(summary)!;
    expect(table).toContain('abstention (also in its type and overall)');
    expect(table).not.toContain('not in overall');
    expect(renderSummaryTable(summary)).not.toContain('not in overall');
  });

  it('is absent for a retrieval-only run', () => {
    expect(
      renderQaTable({
        ...summary,
        metrics: { ...summary.metrics, overall: { n: 6, metrics: {}, counts: {} } },
      }),
    ).toBeUndefined();
  });
});
