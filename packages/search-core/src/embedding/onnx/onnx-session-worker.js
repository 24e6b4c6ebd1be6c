// @ts-check
/**
 * One ONNX Runtime session on a worker thread: the task handler of the ONNX embedder's tinypool
 * workers (onnx-embedder.ts). A task is one text's token ids; the answer is its pooled,
 * L2-normalised vector (a few KiB back, rather than the model's whole `[1, tokens, hidden]` output).
 *
 * Why JavaScript: a worker file must be loadable by plain Node, and this package runs from its
 * TypeScript sources under vitest and tsx (Node 20 cannot run a `.ts` worker without a loader in
 * the worker) and from `dist/` after `tsc -b`. The package's tsconfig allows JavaScript, so tsc
 * copies this file into `dist/` beside the compiled embedder, and `./onnx-session-worker.js`
 * resolves from either. `// @ts-check` keeps it type-checked.
 *
 * The session is made on the worker's first task (so a model that fails to load rejects that task,
 * and the next task tries again) and kept for the worker's life.
 *
 * onnxruntime-node 1.30 loads a model and runs it synchronously on this thread, and a worker
 * stopped during such a call aborts the whole process when the call returns ("terminate called
 * after throwing an instance of 'Napi::Error'", exit code 134). So every ONNX Runtime call is
 * counted in `gate`, shared with the embedder's thread, which waits for the count to reach 0 before
 * the process exits; once it has said the process is exiting, no new call starts.
 */
import { threadId } from 'node:worker_threads';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import Tinypool from 'tinypool';

/**
 * What the embedder gives its workers (tinypool's `workerData`).
 * @typedef {{ model: string, pooling: 'mean' | 'cls', gate: Int32Array }} WorkerConfig
 * A task: one text's token ids, special tokens included, already cut to the model's limit.
 * @typedef {{ ids: readonly number[] }} ModelCall
 * @typedef {{ vector: Float32Array, threadId: number }} ModelCallResult
 */

/** `gate` slots (the embedder's ONNX_CALLS and EXITING). */
const ONNX_CALLS = 0;
const EXITING = 1;

/** @type {Promise<InferenceSession> | undefined} */
let loading;

/** @returns {WorkerConfig} */
function config() {
  return Tinypool.workerData;
}

/**
 * Runs `call` (one ONNX Runtime call) counted in the gate, unless the process is exiting.
 * @template T
 * @param {() => Promise<T>} call
 * @returns {Promise<T>}
 */
async function counted(call) {
  const { gate } = config();
  Atomics.add(gate, ONNX_CALLS, 1);
  try {
    if (Atomics.load(gate, EXITING) === 1) throw new Error('the process is exiting');
    return await call();
  } finally {
    Atomics.sub(gate, ONNX_CALLS, 1);
    Atomics.notify(gate, ONNX_CALLS);
  }
}

function session() {
  if (!loading) {
    const created = counted(() =>
      InferenceSession.create(config().model, {
        // One thread per call: a text's arithmetic never depends on how work is split.
        intraOpNumThreads: 1,
        interOpNumThreads: 1,
        graphOptimizationLevel: 'all',
      }),
    );
    loading = created;
    created.catch(() => {
      if (loading === created) loading = undefined;
    });
  }
  return loading;
}

/**
 * Runs one text alone (a batch of one, unpadded: int64 input ids, attention mask and, when the
 * model takes them, token type ids) and pools its `last_hidden_state`.
 * @param {ModelCall} call
 * @returns {Promise<ModelCallResult>}
 */
export default async function embedTokens({ ids }) {
  const model = await session();
  const width = ids.length;
  const input = new BigInt64Array(width);
  const mask = new BigInt64Array(width);
  for (let c = 0; c < width; c++) {
    input[c] = BigInt(/** @type {number} */ (ids[c]));
    mask[c] = 1n;
  }
  const dims = [1, width];
  /** @type {Record<string, Tensor>} */
  const feeds = {
    input_ids: new Tensor('int64', input, dims),
    attention_mask: new Tensor('int64', mask, dims),
  };
  if (model.inputNames.includes('token_type_ids')) {
    feeds['token_type_ids'] = new Tensor('int64', new BigInt64Array(width), dims);
  }
  const outputs = await counted(() => model.run(feeds));
  const hidden = outputs['last_hidden_state'] ?? outputs[/** @type {string} */ (model.outputNames[0])];
  if (!hidden) throw new Error(`model ${config().model} returned no output`);
  const [rows, tokens, size] = /** @type {[number, number, number]} */ (hidden.dims);
  if (rows !== 1 || tokens !== width) {
    throw new Error(`model returned [${hidden.dims.join(', ')}] for one text of ${width} tokens`);
  }
  return { vector: pool(/** @type {Float32Array} */ (hidden.data), width, size, config().pooling), threadId };
}

/**
 * Pools one text's `[1, tokens, size]` output to an L2-normalised vector: the mean over its tokens
 * (none is padding), or the first token.
 * @param {Float32Array} data
 * @param {number} tokens
 * @param {number} size
 * @param {'mean' | 'cls'} pooling
 */
function pool(data, tokens, size, pooling) {
  const vector = new Float32Array(size);
  const pooled = pooling === 'cls' ? 1 : tokens;
  for (let t = 0; t < pooled; t++) {
    const offset = t * size;
    for (let d = 0; d < size; d++) vector[d] = (vector[d] ?? 0) + (data[offset + d] ?? 0);
  }
  let norm = 0;
  for (const value of vector) norm += value * value;
  // Mean then normalise equals normalising the sum: the division by the token count cancels.
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let d = 0; d < size; d++) vector[d] = (vector[d] ?? 0) * scale;
  return vector;
}
