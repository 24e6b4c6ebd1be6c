import { describe, expect, it } from 'vitest';
import { safeIdentifier } from './safe-identifier.js';

describe('safeIdentifier', () => {
  it('keeps an id that fits and hashes one that does not, the same way every time', () => {
    expect(safeIdentifier('run-1.q_2')).toBe('run-1.q_2');
    expect(safeIdentifier('run 1/q2')).toMatch(/^lme-[0-9a-f]{32}$/);
    expect(safeIdentifier('run 1/q2')).toBe(safeIdentifier('run 1/q2'));
    expect(safeIdentifier('x'.repeat(101))).not.toBe(safeIdentifier('x'.repeat(102)));
  });
});
