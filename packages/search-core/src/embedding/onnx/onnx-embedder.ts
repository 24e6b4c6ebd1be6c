import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import Tinypool from 'tinypool';
import type { EmbedDocumentsOptions, Embedder, EmbedQueryOptions } from '../embedder.js';
import { machineKernelFamily } from './cpu-kernels.js';
import type { ModelCall, ModelCallResult, WorkerConfig } from './onnx-session-worker.js';
import { createTokenEncoder, type TokenEncoder } from './token-encoder.js';

/** How token vectors become one text vector. */
export type Pooling = 'mean' | 'cls';

export type OnnxModelFiles = {
  /** The `.onnx` file (a sentence-transformers / BERT-style encoder with `last_hidden_state`). */
  model: string;
  /** The tokenizer's `tokenizer.json`. */
  tokenizer: string;
};

export type OnnxEmbedderOptions = {
  /** The embedder's name, e.g. `hf:Xenova/bge-small-en-v1.5@q8`. */
  id: string;
  /**
   * What makes two embedders' vectors the same: model id, file checksum, dtype, pooling, token limit
   * and prefixes. Keys the disk cache, so vectors of two models (or two prefixes) never mix.
   */
  cacheIdentity: string;
  dimensions: number;
  pooling: Pooling;
  /** The model's token limit, special tokens included; longer texts are cut (and counted). */
  maxTokens: number;
  /** Put before every query (e5: `query: `; bge: its retrieval instruction). */
  queryPrefix?: string;
  /** Put before every document (e5: `passage: `). */
  documentPrefix?: string;
  /** Finds (or fetches) the files on first use, so creating the embedder costs nothing. */
  files: () => Promise<OnnxModelFiles>;
  /**
   * Worker threads that run model calls at once, each with its own ONNX Runtime session of one
   * thread. Default: available cores, at most 4. Every text runs alone in a one-thread call, so the
   * count changes the speed, never a vector.
   */
  threads?: number;
};

/**
 * An ONNX embedder always tells how many texts it had to cut at the model's token limit, and how
 * many model calls each thread ran (by `threadId` of node:worker_threads; none run on the thread
 * that made the embedder).
 */
export type OnnxEmbedder = Embedder & {
  truncated(): number;
  callsByThread(): ReadonlyMap<number, number>;
};

const MAX_DEFAULT_THREADS = 4;

/**
 * Appended to the model's cache identity: vectors made one text per call. Vectors cached by the
 * batching embedder before it (which depended on their batch-mates) sit under the old identity and
 * are never mixed with these.
 */
export const ONE_TEXT_PER_CALL = '#calls:one-text';

type Loaded = {
  encoder: TokenEncoder;
  workers: Tinypool;
  /** Shared with the workers: their ONNX Runtime calls under way, and whether the process exits. */
  gate: Int32Array;
};

/** The slots of `gate` (onnx-session-worker.js reads the same). */
const ONNX_CALLS = 0;
const EXITING = 1;
/** How long an exiting process waits for the model calls under way (one text takes milliseconds). */
const EXIT_WAIT_MS = 10_000;

/** The gates of the pools not closed yet; one 'exit' listener serves them all. */
const openGates = new Set<Int32Array>();

/**
 * Node stops worker threads when the process exits (process.exit, e.g. on a second Ctrl-C), and a
 * worker stopped inside an ONNX Runtime call aborts the process when the call returns ("terminate
 * called after throwing an instance of 'Napi::Error'", exit code 134 instead of the one given). So
 * the exit first tells every worker to start no new call, then waits for the calls under way.
 */
function waitForModelCalls(): void {
  const deadline = Date.now() + EXIT_WAIT_MS;
  for (const gate of openGates) Atomics.store(gate, EXITING, 1);
  for (const gate of openGates) {
    let running = Atomics.load(gate, ONNX_CALLS);
    while (running > 0) {
      const left = deadline - Date.now();
      if (left <= 0) return;
      Atomics.wait(gate, ONNX_CALLS, running, left);
      running = Atomics.load(gate, ONNX_CALLS);
    }
  }
}

/** The worker's task handler: plain JavaScript beside this file, in `src/` and in `dist/` alike. */
const WORKER_FILE = new URL('./onnx-session-worker.js', import.meta.url);

/**
 * A sentence embedder run by ONNX Runtime (onnxruntime-node) with the model's own tokenizer
 * (`@huggingface/tokenizers`, the tokenizer of transformers.js). Driven directly rather than
 * through the transformers.js `feature-extraction` pipeline: on the same inputs the pipeline was
 * slower (scripts/bench-embedders.ts prints both).
 *
 * Every text runs alone: one text per model call, unpadded, in a session of one thread. A vector
 * then depends on the text, the model and its settings only. Batched calls made it depend on its
 * batch-mates: an int8 model quantizes its activations per call (DynamicQuantizeLinear takes one
 * scale over the whole input tensor, padding included), which moved a text's vector (cosine
 * 0.97-0.999 against the text alone) and a question's rankings with whatever shared its call, so a
 * run's figures depended on what the disk cache held (issue 35).
 *
 * Speed comes from `threads` worker threads (a tinypool pool, started on first use), each with its
 * own one-thread session (onnx-session-worker.js), which runs a text and pools its vector. Sessions
 * on this thread would not help: onnxruntime-node 1.30 runs `InferenceSession.run` synchronously on
 * the calling JS thread, so two sessions here took turns on one core. This thread tokenizes (about
 * 0.1 ms a text, against milliseconds of model time, and the truncation count stays here); two
 * loops per worker hand the next texts to the pool, so a query waits behind at most two texts per
 * busy worker, never behind a whole call.
 */
export function createOnnxEmbedder(options: OnnxEmbedderOptions): OnnxEmbedder {
  const parallel = Math.max(
    1,
    Math.floor(options.threads ?? Math.min(availableParallelism(), MAX_DEFAULT_THREADS)),
  );
  let loading: Promise<Loaded> | undefined;
  // Tasks the workers hold. A worker stopped inside an ONNX Runtime call aborts the process (see
  // waitForModelCalls), so no task gets an abort signal (which would stop its worker: abort stops
  // the loops instead), and close() waits for these before it stops the workers.
  const inFlight = new Set<Promise<unknown>>();
  let truncated = 0;
  const calls = new Map<number, number>();
  let closed = false;

  function load(): Promise<Loaded> {
    loading ??= (async () => {
      const files = await options.files();
      const tokenizerJson = await readFile(files.tokenizer, 'utf8');
      const encoder = createTokenEncoder(JSON.parse(tokenizerJson) as object, options.maxTokens);
      const gate = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
      const workerData: WorkerConfig = { model: files.model, pooling: options.pooling, gate };
      const workers = new Tinypool({
        filename: WORKER_FILE.href,
        minThreads: parallel,
        maxThreads: parallel,
        workerData,
      });
      if (openGates.size === 0) process.on('exit', waitForModelCalls);
      openGates.add(gate);
      return { encoder, workers, gate };
    })();
    loading.catch(() => {
      loading = undefined;
    });
    return loading;
  }

  /** Runs one text's token ids through the model on a free worker. */
  async function infer(loaded: Loaded, ids: readonly number[]): Promise<Float32Array> {
    if (closed) throw new Error(`${options.id} embedder is closed`);
    const call: ModelCall = { ids };
    const task = loaded.workers.run(call) as Promise<ModelCallResult>;
    inFlight.add(task);
    let result: ModelCallResult;
    try {
      result = await task;
    } finally {
      inFlight.delete(task);
    }
    calls.set(result.threadId, (calls.get(result.threadId) ?? 0) + 1);
    return result.vector;
  }

  async function embed(
    texts: readonly string[],
    prefix: string,
    signal?: AbortSignal,
    onProgress?: (done: number) => void,
  ) {
    if (closed) throw new Error(`${options.id} embedder is closed`);
    signal?.throwIfAborted();
    const loaded = await load();
    const vectors = new Array<Float32Array>(texts.length);
    let next = 0;
    let done = 0;
    // Two loops per worker each tokenize and hand over the next text until none is left: a worker
    // that finishes a text finds the next one already queued instead of waiting for this thread to
    // wake, read its result and tokenize (3,000 S user turns on 2 cores: 176.7 texts/s with one
    // loop per worker, 182.0 with two), and no more than one text per worker waits in the pool's
    // queue beyond the one it runs. A failure stops the others' loops.
    let failed = false;
    const work = Array.from({ length: Math.min(2 * parallel, texts.length) }, async () => {
      while (!failed && next < texts.length) {
        signal?.throwIfAborted();
        const index = next++;
        try {
          const encoded = loaded.encoder.encode(prefix + texts[index]!);
          if (encoded.truncated) truncated += 1;
          vectors[index] = await infer(loaded, encoded.ids);
        } catch (error) {
          failed = true;
          throw error;
        }
        done += 1;
        onProgress?.(done);
      }
    });
    await Promise.all(work);
    return vectors;
  }

  return {
    id: options.id,
    cacheIdentity: `${options.cacheIdentity}${ONE_TEXT_PER_CALL}#cpu:${machineKernelFamily()}`,
    dimensions: options.dimensions,
    truncated: () => truncated,
    callsByThread: () => calls,
    embedDocuments: ({ texts, signal, onProgress }: EmbedDocumentsOptions) =>
      embed(texts, options.documentPrefix ?? '', signal, onProgress),
    async embedQuery({ text, signal }: EmbedQueryOptions) {
      const [vector] = await embed([text], options.queryPrefix ?? '', signal);
      return vector!;
    },
    async close() {
      if (closed) return;
      closed = true;
      const loaded = await loading?.catch(() => undefined);
      await Promise.allSettled([...inFlight]);
      if (!loaded) return;
      openGates.delete(loaded.gate);
      if (openGates.size === 0) process.off('exit', waitForModelCalls);
      await loaded.workers.destroy();
    },
  };
}
