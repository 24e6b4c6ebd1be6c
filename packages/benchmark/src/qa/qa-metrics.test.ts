import { describe, expect, it } from 'vitest';
import { addQaTaskAverages, qaAccuracyIntervals, qaSampleMetrics, wilsonInterval } from './qa-metrics.js';

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

describe('the 95% Wilson interval of an accuracy', () => {
  // Reference values from the textbook formula, computed apart in Python (Wilson 1927; 0 of 10 gives the
  // well-known upper bound 0.2775).
  it.each([
    [12, 17, 0.4686689, 0.8672001],
    [0, 10, 0, 0.2775328],
    [10, 10, 0.7224672, 1],
    [250, 500, 0.4563413, 0.5436587],
  ])('gives %i of %i as [%f, %f]', (right, n, low, high) => {
    const interval = wilsonInterval(right / n, n)!;
    expect(interval.low).toBeCloseTo(low, 6);
    expect(interval.high).toBeCloseTo(high, 6);
  });

  it('is undefined over no question, and given for the strict and lenient accuracy over their own counts', () => {
    expect(wilsonInterval(0, 0)).toBeUndefined();
    const intervals = qaAccuracyIntervals({
      metrics: { 'qa.accuracy_strict': 0.5, 'qa.accuracy': 1, 'session.recall_any@5': 1 },
      counts: { 'qa.accuracy_strict': 4, 'qa.accuracy': 2, 'session.recall_any@5': 4 },
    });
    expect(Object.keys(intervals)).toEqual(['qa.accuracy_strict', 'qa.accuracy']);
    expect(intervals['qa.accuracy']!.low).toBeCloseTo(wilsonInterval(1, 2)!.low, 12);
  });
});
