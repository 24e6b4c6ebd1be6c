import { describe, expect, it } from 'vitest';
import { pyAdd, pyFloat, pyInt, pyRound3, pyStr, roundFloat3 } from './python-number.js';

describe('Python numbers', () => {
  it('rounds to 3 places as round(x, 3): exact binary value, ties to even', () => {
    // round(0.0625, 3) == 0.062 and round(0.1875, 3) == 0.188 (exact ties); round(2.675, 3) == 2.675;
    // round(1/3, 3) == 0.333; round(0.0005, 3) == 0.001 (0.0005 is slightly above the tie).
    expect([0.0625, 0.1875, 2.675, 1 / 3, 0.0005, 0.3125].map(roundFloat3)).toEqual([
      0.062, 0.188, 2.675, 0.333, 0.001, 0.312,
    ]);
  });

  it('keeps ints ints and prints them without a decimal point', () => {
    expect(pyRound3(pyInt(1))).toEqual(pyInt(1));
    expect(pyStr(pyAdd(pyInt(0), pyInt(2)))).toBe('2');
    expect(pyStr(pyAdd(pyInt(0), pyFloat(70)))).toBe('70.0');
  });

  it('prints floats as Python repr does', () => {
    expect(
      [0.7235644511581067, 89.029, 0, 1e-5, 1.5e16, 0.0001].map((value) => pyStr(pyFloat(value))),
    ).toEqual(['0.7235644511581067', '89.029', '0.0', '1e-05', '1.5e+16', '0.0001']);
  });
});
