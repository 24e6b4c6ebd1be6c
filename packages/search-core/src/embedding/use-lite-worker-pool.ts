import { Worker } from 'node:worker_threads';

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

export type UseLiteWorkerPoolOptions = {
  /** At most this many worker threads, started on first use. */
  threads: number;
  /** Absolute paths of the model packages, resolved by the caller. */
  workerData: { embeddingsPath: string; modelPath: string };
  /** The embedder id, named in error messages. */
  id: string;
};

/** Worker threads that embed chunks of texts, one chunk per worker at a time, in queue order. */
export type UseLiteWorkerPool = {
  /** Runs the chunks (ahead of the queue if `priority`), rejecting early on abort. */
  run(
    chunks: string[][],
    signal: AbortSignal | undefined,
    priority: boolean,
    onChunk: (index: number, vectors: Float32Array[]) => void,
  ): Promise<void>;
  /** Rejects every queued and running chunk and stops the workers. */
  close(): Promise<void>;
};

/** The USE-lite workers: idle workers are unref'd, so a pool left open does not keep Node alive. */
export function createUseLiteWorkerPool({
  threads,
  workerData,
  id,
}: UseLiteWorkerPoolOptions): UseLiteWorkerPool {
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
      task?.reject(new Error(`${id} worker failed: ${describe(error)}`, { cause: error }));
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
      task.reject(new Error(`${id} failed to embed ${task.texts.length} texts: ${reply.error}`));
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

  function run(
    chunks: string[][],
    signal: AbortSignal | undefined,
    priority: boolean,
    onChunk: (index: number, vectors: Float32Array[]) => void,
  ): Promise<void> {
    if (closed) return Promise.reject(new Error(`${id} embedder is closed`));
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
    run,
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      const pending = queue.splice(0);
      const error = new Error(`${id} embedder is closed`);
      for (const task of pending) task.reject(error);
      for (const entry of pool) entry.task?.reject(error);
      await Promise.all(pool.splice(0).map((entry) => entry.worker.terminate()));
    },
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
