import { describe, expect, it } from 'vitest';
import {
  BENCHMARKS,
  benchmarkNamed,
  benchmarkOfRecord,
  orderQuestionTypes,
  recognizeBenchmark,
} from './benchmark-registry.js';

describe('the benchmark registry', () => {
  it('fails on an unknown name, listing the known ones', () => {
    expect(() => benchmarkNamed('membench')).toThrow(
      'Unknown benchmark "membench"; known: longmemeval, realtalk, locomo, locomo-plus, beam.',
    );
  });

  it('finds a record by its question type, and no benchmark for an unknown type', () => {
    expect(benchmarkOfRecord({ question_type: 'multi-session' })?.name).toBe('longmemeval');
    expect(benchmarkOfRecord({ question_type: 'locomo-2-temporal' })?.name).toBe('locomo');
    expect(benchmarkOfRecord({ question_type: 'locomo-9-other' })).toBeUndefined();
  });

  it('recognises a LoCoMo sample and leaves anything else to LongMemEval', () => {
    expect(recognizeBenchmark([{ conversation: {}, qa: [] }])).toBe('locomo');
    expect(recognizeBenchmark({ conversation: {}, qa: [] })).toBe('locomo');
    expect(recognizeBenchmark([{ question_id: 'q1' }])).toBe('longmemeval');
  });

  it('orders question types benchmark by benchmark, unknown types last in the order met', () => {
    expect(
      orderQuestionTypes([
        'zeta',
        'locomo-1-multi-hop',
        'temporal-reasoning',
        'locomo-4-single-hop',
        'alpha',
      ]),
    ).toEqual(['temporal-reasoning', 'locomo-4-single-hop', 'locomo-1-multi-hop', 'zeta', 'alpha']);
  });

  it('gives every benchmark a name equal to its key, and question types no other benchmark has', () => {
    const seen = new Set<string>();
    for (const [key, benchmark] of Object.entries(BENCHMARKS)) {
      expect(benchmark.name).toBe(key);
      for (const type of benchmark.questionTypes) {
        expect(seen.has(type)).toBe(false);
        seen.add(type);
      }
    }
  });
});
