import { describe, expect, it } from 'vitest';
import { addQaTaskAverages, qaSampleMetrics } from './qa-metrics.js';

describe('QA metrics', () => {
  it('counts a judge error as wrong in the strict (official) accuracy and leaves it out of the lenient one', () => {
    expect(qaSampleMetrics(true)).toEqual({ 'qa.accuracy_strict': 1, 'qa.accuracy': 1 });
    expect(qaSampleMetrics(false)).toEqual({ 'qa.accuracy_strict': 0, 'qa.accuracy': 0 });
    expect(qaSampleMetrics(null)).toEqual({ 'qa.accuracy_strict': 0 });
  });

  it('averages the per-type strict accuracies for the official task average, the lenient ones for lme’s own', () => {
    const overall = { metrics: {}, counts: {} } as {
      metrics: Record<string, number>;
      counts: Record<string, number>;
    };
    addQaTaskAverages(overall, {
      'single-session-user': { metrics: { 'qa.accuracy_strict': 0.5, 'qa.accuracy': 1 }, counts: {} },
      'multi-session': { metrics: { 'qa.accuracy_strict': 0.25, 'qa.accuracy': 0.5 }, counts: {} },
      'knowledge-update': { metrics: { 'session.recall_any@5': 1 }, counts: {} },
    });
    expect(overall.metrics).toEqual({ 'qa.accuracy_task_avg': 0.375, 'qa.accuracy_lenient_task_avg': 0.75 });
    expect(overall.counts).toEqual({ 'qa.accuracy_task_avg': 2, 'qa.accuracy_lenient_task_avg': 2 });
  });

  it('adds nothing when no question was graded', () => {
    const overall = { metrics: {}, counts: {} };
    addQaTaskAverages(overall, { 'multi-session': { metrics: { 'session.mrr': 1 }, counts: {} } });
    expect(overall.metrics).toEqual({});
  });
});
