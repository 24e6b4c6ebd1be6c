import { describe, expect, it } from 'vitest';
import { sessionInstant } from './session-text.js';

describe('sessionInstant', () => {
  it('reads the benchmark date form and ISO dates as UTC, and nothing else', () => {
    expect(sessionInstant('2023/05/20 (Sat) 02:21')?.toISOString()).toBe('2023-05-20T02:21:00.000Z');
    expect(sessionInstant('2024-01-02T03:04:05Z')?.toISOString()).toBe('2024-01-02T03:04:05.000Z');
    expect(sessionInstant('last Tuesday')).toBeUndefined();
    expect(sessionInstant('')).toBeUndefined();
  });
});
