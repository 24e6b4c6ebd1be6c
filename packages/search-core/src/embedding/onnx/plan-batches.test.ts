import { describe, expect, it } from 'vitest';
import { planBatches } from './onnx-embedder.js';

describe('planBatches', () => {
  it('sorts longest first and cuts by text count and by padded tokens', () => {
    // Token counts of six texts; at most 3 texts and 100 padded tokens a call.
    const lengths = [10, 60, 12, 9, 40, 11];
    expect(planBatches(lengths, 3, 100)).toEqual([[1], [4, 2], [5, 0, 3]]);
  });

  it('runs a text longer than the budget alone and returns nothing for no texts', () => {
    expect(planBatches([600, 5], 32, 512)).toEqual([[0], [1]]);
    expect(planBatches([], 32, 512)).toEqual([]);
  });
});
