import { describe, expect, it } from 'vitest';
import type { MemoryDocument } from '../core/retriever.js';
import { createHashingEmbedder } from '../testing/hashing-embedder.js';
import { createMemoryVectorIndex } from '../vector-index/memory-vector-index.js';
import { createDenseScorer, type DenseFeedback, expandQuery } from './dense-scorer.js';

const session = (id: string, parts: string[]): MemoryDocument => ({
  id,
  sessionId: id,
  text: parts.join(' '),
  parts,
});

// Only `baby` sessions share words with the query; `cousin` shares words with the best part of the
// top session but none with the query; `tax` shares words with the top session's other part.
const documents = [
  session('baby', ['my cousin Rachel had a new baby girl named Ava', 'we filled in tax forms together']),
  session('weather', ['the weather forecast for tomorrow looks grim']),
  session('cousin', ['Rachel my cousin named her girl Ava']),
  session('tax', ['tax forms are due in April']),
];

async function scores(feedback?: DenseFeedback) {
  const scorer = createDenseScorer({
    embedder: createHashingEmbedder({ dimensions: 512 }),
    createIndex: (options) => createMemoryVectorIndex(options),
    ...(feedback ? { feedback } : {}),
  });
  await scorer.index({ documents, namespace: 'q1' });
  const all = await scorer.scoreAll({ query: 'a new baby' });
  return Object.fromEntries(documents.map((document, position) => [document.id, all[position]!]));
}

describe('dense feedback', () => {
  it('scores a document by its best part, and leaves unrelated ones at 0 without feedback', async () => {
    const plain = await scores();
    expect(plain['baby']).toBeGreaterThan(0);
    expect(plain['cousin']).toBe(0);
    expect(plain['weather']).toBe(0);
  });

  it("lifts documents like the top hit's best part, and not those like its other parts", async () => {
    const expanded = await scores({ documents: 1, weight: 0.5 });
    expect(expanded['baby']).toBeGreaterThan(expanded['cousin']!);
    expect(expanded['cousin']).toBeGreaterThan(0);
    expect(expanded['tax']).toBe(0);
    expect(expanded['weather']).toBe(0);
  });

  it('is off with no documents or no weight', async () => {
    const plain = await scores();
    expect(await scores({ documents: 0, weight: 0.5 })).toEqual(plain);
    expect(await scores({ documents: 2, weight: 0 })).toEqual(plain);
  });

  it('moves the query towards the feedback direction and keeps it a unit vector', () => {
    const query = Float32Array.from([1, 0, 0]);
    const expanded = expandQuery(query, [Float32Array.from([0, 1, 0]), Float32Array.from([0, 1, 0])], 1);
    expect(Array.from(expanded)).toEqual([Math.fround(Math.SQRT1_2), Math.fround(Math.SQRT1_2), 0]);
    expect(Array.from(expandQuery(query, [Float32Array.from([0, 0, 1])], 0))).toEqual([1, 0, 0]);
  });
});
