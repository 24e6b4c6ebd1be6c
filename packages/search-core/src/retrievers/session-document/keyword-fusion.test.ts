import { describe, expect, it } from 'vitest';
import { convexFusion, topPool } from './keyword-fusion.js';

// Worked by hand from memini's description of its hybrid (bench/README.md: each leg's pool min-max
// normalized to [0, 1], then 0.5 × vector + 0.5 × keyword).
describe("memini's convex score fusion", () => {
  it('keeps each leg to its pool, best first, and a keyword leg to documents that match', () => {
    expect([...topPool([0.2, 0.9, 0.5, 0.9], 3)]).toEqual([
      [1, 0.9],
      [3, 0.9],
      [2, 0.5],
    ]);
    expect([...topPool([0, 2, 0, 1], 3, (score) => score > 0)]).toEqual([
      [1, 2],
      [3, 1],
    ]);
  });

  it('normalizes each leg over its pool and weighs them; a document outside a pool gets 0 from it', () => {
    // vector: 0 → 1.0, 1 → 0.0, 2 → 0.5 after min-max of (-1, -3, -2); keyword: 1 → 1, 3 → 0.
    const fused = convexFusion(
      new Map([
        [0, -1],
        [1, -3],
        [2, -2],
      ]),
      new Map([
        [1, 6],
        [3, 2],
      ]),
      0.5,
    );
    expect(Object.fromEntries(fused)).toEqual({ 0: 0.5, 1: 0.5, 2: 0.25, 3: 0 });
  });

  it('gives a leg whose pool holds one score (or equal scores) a full 1', () => {
    expect(Object.fromEntries(convexFusion(new Map([[4, -7]]), new Map(), 0.3))).toEqual({ 4: 0.7 });
  });
});
