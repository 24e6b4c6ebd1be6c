import { createHashingEmbedder } from '@lme/search-core/testing';
import { describe, expect, it } from 'vitest';
import { parseRunSections } from '../../config/run-sections.js';
import type { ConfiguredEmbedder } from './configured-embedder.js';
import { createTimedEmbedder } from './timed-embedder.js';

/** An embedder whose calls end when the test says so, on a clock the test moves. */
function manualEmbedder() {
  const inner = createHashingEmbedder({ dimensions: 8 });
  const waiting: (() => void)[] = [];
  const embedder = {
    ...inner,
    embedDocuments: async (options: { texts: readonly string[] }) => {
      await new Promise<void>((resolve) => waiting.push(resolve));
      return inner.embedDocuments(options);
    },
  } as unknown as ConfiguredEmbedder;
  return { embedder, finishOldest: () => waiting.shift()!() };
}

// Issue 52, item 7: embedSeconds summed the time of concurrent workers (60.7 s for 30 s of wall time).
describe('the embedding time of a run', () => {
  it('is wall time with a call in flight, overlapping calls counted once; each retriever keeps its own sum', async () => {
    let clock = 0;
    const { embedder, finishOldest } = manualEmbedder();
    const timed = createTimedEmbedder(parseRunSections({}), {}, embedder, () => clock);
    const left = { seconds: 0 };
    const right = { seconds: 0 };
    // Two workers: one embeds from 0 s to 10 s, the other from 5 s to 15 s.
    const first = timed.embedder(left).embedDocuments({ texts: ['a'] });
    clock = 5_000;
    const second = timed.embedder(right).embedDocuments({ texts: ['b'] });
    clock = 10_000;
    finishOldest();
    await first;
    expect(timed.seconds()).toBe(10);
    clock = 15_000;
    finishOldest();
    await second;
    expect(timed.seconds()).toBe(15);
    expect([left.seconds, right.seconds]).toEqual([10, 10]);
    // Idle from 15 s to 20 s, then one call of 2 s.
    clock = 20_000;
    const third = timed.embedder(left).embedDocuments({ texts: ['c'] });
    clock = 21_000;
    expect(timed.seconds()).toBe(16);
    clock = 22_000;
    finishOldest();
    await third;
    expect(timed.seconds()).toBe(17);
    expect(left.seconds).toBe(12);
  });
});
