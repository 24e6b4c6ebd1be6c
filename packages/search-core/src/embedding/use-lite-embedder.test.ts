import { afterAll, describe, expect, it } from 'vitest';
import { createUseLiteEmbedder } from './use-lite-embedder.js';

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let d = 0; d < a.length; d++) sum += a[d]! * b[d]!;
  return sum;
}

// The real model (bundled weights, no network), on two worker threads with tiny batches so that
// batching, both threads and re-ordering are all exercised.
describe('createUseLiteEmbedder', () => {
  const embedder = createUseLiteEmbedder({ threads: 2, batchSize: 2 });
  afterAll(() => embedder.close?.());

  const texts = [
    'I adopted a golden retriever puppy last weekend.',
    'Last weekend I got a new dog, a young golden retriever.',
    'The quarterly tax filing deadline is next Tuesday.',
    'Can you recommend a good recipe for vegan lasagna?',
    'By the way, I turned 32 in March.',
    '',
  ];

  it('embeds real sentences into normalised 512-d vectors, paraphrases closest', async () => {
    expect(embedder.id).toBe('local:use-lite');
    expect(embedder.dimensions).toBe(512);
    const progress: number[] = [];
    const vectors = await embedder.embedDocuments({ texts, onProgress: (done) => progress.push(done) });
    expect(vectors).toHaveLength(texts.length);
    for (const vector of vectors) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector).toHaveLength(512);
      expect(Math.sqrt(dot(vector, vector))).toBeCloseTo(1, 4);
    }
    const [dog, paraphrase, taxes, recipe] = vectors as [
      Float32Array,
      Float32Array,
      Float32Array,
      Float32Array,
    ];
    expect(dot(dog, paraphrase)).toBeGreaterThan(dot(dog, taxes) + 0.2);
    expect(dot(dog, paraphrase)).toBeGreaterThan(dot(dog, recipe) + 0.2);
    expect(progress.at(-1)).toBe(texts.length);
  });

  it('gives each text the same vector alone as in a batch, in input order', async () => {
    const batch = await embedder.embedDocuments({ texts });
    const alone = await Promise.all(texts.map((text) => embedder.embedQuery({ text })));
    alone.forEach((vector, at) => {
      expect(dot(vector, batch[at]!)).toBeCloseTo(1, 5);
    });
  });

  it('rejects when aborted and after close', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(embedder.embedDocuments({ texts, signal: controller.signal })).rejects.toThrow('stop');
    const closed = createUseLiteEmbedder({ threads: 1 });
    await closed.close?.();
    await closed.close?.();
    await expect(closed.embedQuery({ text: 'x' })).rejects.toThrow(/closed/);
  });
});
