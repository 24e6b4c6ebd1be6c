// @ts-check
/**
 * One ONNX Runtime session on a worker thread: the task handler of the ONNX embedder's tinypool
 * workers (onnx-embedder.ts). A task is one text's token ids; the answer is the model's
 * `last_hidden_state` for it, which the embedder pools on its own thread.
 *
 * Why JavaScript: a worker file must be loadable by plain Node, and this package runs from its
 * TypeScript sources under vitest and tsx (Node 20 cannot run a `.ts` worker without a loader in
 * the worker) and from `dist/` after `tsc -b`. The package's tsconfig allows JavaScript, so tsc
 * copies this file into `dist/` beside the compiled embedder, and `./onnx-session-worker.js`
 * resolves from either. `// @ts-check` keeps it type-checked.
 *
 * The session is made on the worker's first task (so a model that fails to load rejects that task,
 * and the next task tries again) and kept for the worker's life; the workers are the embedder's
 * own, so they only ever see one model file.
 *
 * onnxruntime-node 1.30 loads a model and runs it synchronously on this thread, and a worker
 * terminated during such a call aborts the whole process when the call returns ("terminate called
 * after throwing an instance of 'Napi::Error'", exit code 134). So every ONNX Runtime call is
 * counted in `gate`, shared with the embedder's thread, which waits for the count to reach 0 before
 * the process exits (and before it stops the workers); once it has said the process is exiting, no
 * new call starts.
 */
import { threadId } from 'node:worker_threads';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import Tinypool from 'tinypool';

/** `gate` slots (the embedder's ONNX_CALLS and EXITING). */
const ONNX_CALLS = 0;
const EXITING = 1;
const gate = /** @type {{ gate: Int32Array }} */ (Tinypool.workerData).gate;

/**
 * Runs `call` (one ONNX Runtime call) counted in `gate`, unless the process is exiting.
 * @template T
 * @param {() => Promise<T>} call
 * @returns {Promise<T>}
 */
async function counted(call) {
  Atomics.add(gate, ONNX_CALLS, 1);
  try {
    if (Atomics.load(gate, EXITING) === 1) throw new Error('the process is exiting');
    return await call();
  } finally {
    Atomics.sub(gate, ONNX_CALLS, 1);
    Atomics.notify(gate, ONNX_CALLS);
  }
}

/**
 * @typedef {{ model: string, ids: readonly number[] }} ModelCall
 * @typedef {{ data: Float32Array, dims: readonly number[], threadId: number }} ModelCallResult
 */

/** @type {{ model: string, session: Promise<InferenceSession> } | undefined} */
let loaded;

/** @param {string} model */
function sessionFor(model) {
  if (loaded?.model !== model) {
    const session = counted(() =>
      InferenceSession.create(model, {
        // One thread per call: a text's arithmetic never depends on how work is split.
        intraOpNumThreads: 1,
        interOpNumThreads: 1,
        graphOptimizationLevel: 'all',
      }),
    );
    const current = { model, session };
    loaded = current;
    session.catch(() => {
      if (loaded === current) loaded = undefined;
    });
  }
  return loaded.session;
}

/**
 * Runs one text alone (batch of one, unpadded): int64 input ids, attention mask and, when the
 * model takes them, token type ids.
 * @param {ModelCall} call
 * @returns {Promise<ModelCallResult>}
 */
export default async function runModel({ model, ids }) {
  const session = await sessionFor(model);
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
  if (session.inputNames.includes('token_type_ids')) {
    feeds['token_type_ids'] = new Tensor('int64', new BigInt64Array(width), dims);
  }
  const outputs = await counted(() => session.run(feeds));
  const hidden = outputs['last_hidden_state'] ?? outputs[/** @type {string} */ (session.outputNames[0])];
  if (!hidden) throw new Error(`model ${model} returned no hidden state`);
  return { data: /** @type {Float32Array} */ (hidden.data), dims: hidden.dims, threadId };
}
