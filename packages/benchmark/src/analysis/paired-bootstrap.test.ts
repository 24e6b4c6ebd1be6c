import { describe, expect, it } from 'vitest';
import { createMulberry32 } from '../dataset/seeded-random.js';
import { pairedBootstrap } from './paired-bootstrap.js';

function noisyPairs(n: number, shift: number, seed: number): { base: number[]; other: number[] } {
  const random = createMulberry32(seed);
  const base = Array.from({ length: n }, () => random());
  const other = base.map((value) => value + shift + (random() - 0.5) * 0.4);
  return { base, other };
}

describe('pairedBootstrap', () => {
  it('gives the same result for the same seed and records the seed', () => {
    const { base, other } = noisyPairs(200, 0.02, 1);
    const first = pairedBootstrap(base, other, { seed: 7, resamples: 2000 });
    expect(pairedBootstrap(base, other, { seed: 7, resamples: 2000 })).toEqual(first);
    expect(first.seed).toBe(7);
    expect(first.resamples).toBe(2000);
    expect(pairedBootstrap(base, other, { seed: 8, resamples: 2000 }).ci95).not.toEqual(first.ci95);
  });

  it('finds a known shift: the CI brackets it and excludes 0', () => {
    const { base, other } = noisyPairs(400, 0.1, 3);
    const result = pairedBootstrap(base, other);
    expect(result.resamples).toBe(10_000);
    expect(result.meanDiff).toBeCloseTo(0.1, 1);
    expect(result.ci95[0]).toBeLessThan(result.meanDiff);
    expect(result.ci95[1]).toBeGreaterThan(result.meanDiff);
    expect(result.ci95[0]).toBeGreaterThan(0.08);
    expect(result.ci95[1]).toBeLessThan(0.12);
    expect(result.pValue).toBe(0);
  });

  it('finds no difference when there is none', () => {
    const { base, other } = noisyPairs(300, 0, 5);
    const result = pairedBootstrap(base, other);
    expect(result.ci95[0]).toBeLessThan(0);
    expect(result.ci95[1]).toBeGreaterThan(0);
    expect(result.pValue).toBeGreaterThan(0.05);
    expect(pairedBootstrap([0.5, 0.25], [0.5, 0.25]).pValue).toBe(1);
  });

  it('rejects unpaired values', () => {
    expect(() => pairedBootstrap([1, 2], [1])).toThrow(/paired/);
  });
});
