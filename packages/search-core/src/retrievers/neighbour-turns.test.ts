import { describe, expect, it } from 'vitest';
import { smoothWithNeighbours } from './neighbour-turns.js';

describe('smoothWithNeighbours', () => {
  const documents = [
    { sessionId: 'a', turnIndex: 0 },
    { sessionId: 'a', turnIndex: 1 },
    { sessionId: 'a', turnIndex: 2 },
    { sessionId: 'b', turnIndex: 3 },
    { sessionId: 'b' },
  ];

  it('mixes a turn with the mean of the turns before and after it in its session', () => {
    const smoothed = smoothWithNeighbours([1, 0.2, 0.6, 0.9, 0.5], documents, 0.5);
    expect(smoothed[1]).toBeCloseTo(0.5 * 0.2 + 0.5 * 0.8, 12);
    expect(smoothed[0]).toBeCloseTo(0.5 * 1 + 0.5 * 0.2, 12);
    // Turn 3 of session b has no indexed neighbour; a session document has no turn index.
    expect(smoothed[3]).toBe(0.9);
    expect(smoothed[4]).toBe(0.5);
  });

  it('changes nothing at weight 0 and refuses mismatched lengths', () => {
    expect([...smoothWithNeighbours([1, 2, 3, 4, 5], documents, 0)]).toEqual([1, 2, 3, 4, 5]);
    expect(() => smoothWithNeighbours([1], documents, 0.5)).toThrow(
      'neighbour turns: 1 scores for 5 documents',
    );
  });
});
