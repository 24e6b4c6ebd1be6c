import { describe, expect, it } from 'vitest';
import { createHostedHitMapper, mapHostedHits, resultsToAsk } from './map-hosted-hits.js';

describe('mapHostedHits', () => {
  it('keeps the service order, one hit per session, and drops and counts results naming no session', () => {
    const mapped = mapHostedHits(
      [
        { sessionId: 's2', score: 0.9 },
        { sessionId: undefined, score: 0.8 },
        { sessionId: 's2', score: 0.7 },
        { sessionId: 's1' },
        { sessionId: 42 },
      ],
      { granularity: 'session', topK: 10 },
    );
    expect(mapped.hits).toEqual([
      { session_id: 's2', score: 0.9 },
      { session_id: 's1', score: 1 / 4 },
    ]);
    expect(mapped.dropped).toBe(2);
  });

  it('at turn granularity reads turn indices given as numbers or decimal text, drops results without one, and keeps topK', () => {
    const mapped = mapHostedHits(
      [
        { sessionId: 's1', turnIndex: '2', score: 3 },
        { sessionId: 's1', turnIndex: 2, score: 2 },
        { sessionId: 's1', score: 1 },
        { sessionId: 's1', turnIndex: '-1', score: 1 },
        { sessionId: 's2', turnIndex: 0, score: 0.5 },
        { sessionId: 's3', turnIndex: 4, score: 0.4 },
      ],
      { granularity: 'turn', topK: 2 },
    );
    expect(mapped.hits).toEqual([
      { session_id: 's1', turn_index: 2, score: 3 },
      { session_id: 's2', turn_index: 0, score: 0.5 },
    ]);
    expect(mapped.dropped).toBe(2);
  });

  it('asks a service for three times the hits wanted, within its limit', () => {
    expect(resultsToAsk(10, 50)).toBe(30);
    expect(resultsToAsk(40, 50)).toBe(50);
  });
});

describe('createHostedHitMapper', () => {
  it('maps each search as mapHostedHits does and adds up what every search dropped', () => {
    const mapper = createHostedHitMapper();
    expect(mapper.dropped()).toBe(0);
    expect(
      mapper.map([{ sessionId: 's1', score: 0.5 }, { sessionId: '' }], { granularity: 'session', topK: 5 }),
    ).toEqual({ hits: [{ session_id: 's1', score: 0.5 }] });
    expect(mapper.dropped()).toBe(1);
    mapper.map([{}, { sessionId: 's2', score: 1 }, { sessionId: 's2' }], { granularity: 'turn', topK: 5 });
    expect(mapper.dropped()).toBe(4);
  });
});
