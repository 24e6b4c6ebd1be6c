import { describe, expect, it } from 'vitest';
import { holmAdjust } from './holm.js';

describe('holmAdjust', () => {
  it('multiplies the i-th smallest p-value by m - i, keeps the order monotone and caps at 1', () => {
    // statsmodels multipletests([0.01, 0.04, 0.03, 0.005], method='holm'): 0.03, 0.06, 0.06, 0.02
    const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    expect(adjusted.map((value) => Number(value.toFixed(10)))).toEqual([0.03, 0.06, 0.06, 0.02]);
    expect(holmAdjust([0.5, 0.9])).toEqual([1, 1]);
  });

  it('leaves a single p-value as it is and an empty family empty', () => {
    expect(holmAdjust([0.04])).toEqual([0.04]);
    expect(holmAdjust([])).toEqual([]);
  });
});
