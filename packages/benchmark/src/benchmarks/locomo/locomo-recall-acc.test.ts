import { describe, expect, it } from 'vitest';
import { locomoRecallAcc } from './locomo-recall-acc.js';

describe('official LoCoMo recall_acc', () => {
  it('is int 1 without context or without evidence', () => {
    expect(locomoRecallAcc(['D1:3'], undefined)).toEqual({ value: 1, isInt: true });
    expect(locomoRecallAcc([], ['D1:3'])).toEqual({ value: 1, isInt: true });
  });

  it('matches dialog ids exactly: a repeated evidence id counts twice, malformed ids never match', () => {
    expect(locomoRecallAcc(['D1:3', 'D2:4'], ['D1:3', 'D9:9']).value).toBe(0.5);
    expect(locomoRecallAcc(['D1:3', 'D1:3', 'D2:4'], ['D1:3', 'D1:3']).value).toBe(2 / 3);
    expect(locomoRecallAcc(['D19:02'], ['D19:2']).value).toBe(0);
    expect(locomoRecallAcc(['D8:6; D9:17'], ['D8:6', 'D9:17']).value).toBe(0);
  });

  it('reads sessions when the FIRST context element starts with S, the part before ":" of each evidence id', () => {
    expect(locomoRecallAcc(['D8:6; D9:17', 'D3:1'], ['S8', 'S4']).value).toBe(0.5);
    expect(locomoRecallAcc(['D', 'D:11:26'], ['S1']).value).toBe(0);
    // Mode from the first element only: a dialog list with a session id later stays dialog mode.
    expect(locomoRecallAcc(['D3:1'], ['D1:1', 'S3']).value).toBe(0);
    expect(locomoRecallAcc(['D3:1'], ['S1', 'D3:1']).value).toBe(0);
  });

  it('throws for an empty context with evidence, as the official IndexError', () => {
    expect(() => locomoRecallAcc(['D1:3'], [])).toThrow(/context is empty/);
  });
});
