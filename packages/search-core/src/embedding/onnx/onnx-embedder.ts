import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import type { EmbedDocumentsOptions, Embedder, EmbedQueryOptions } from '../embedder.js';
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
   * Model calls run at once, each in its own ONNX Runtime session of one thread. Default: available
   * cores, at most 4. Every text runs alone in a one-thread call, so the count changes the speed,
   * never a vector.
   */
  threads?: number;
};

/** An ONNX embedder always tells how many texts it had to cut at the model's token limit. */
export type OnnxEmbedder = Embedder & { truncated(): number };

const MAX_DEFAULT_THREADS = 4;

/**
 * Appended to the model's cache identity: vectors made one text per call. Vectors cached by the
 * batching embedder before it (which depended on their batch-mates) sit under the old identity and
 * are never mixed with these.
 */
export const ONE_TEXT_PER_CALL = '#calls:one-text';

type Loaded = {
  sessions: InferenceSession[];
  encoder: TokenEncoder;
  ort: typeof import('onnxruntime-node');
};

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
 * run's figures depended on what the disk cache held (issue 35). Speed comes from `threads`
 * sessions running calls at once instead (no padding waste either).
 */
export function createOnnxEmbedder(options: OnnxEmbedderOptions): OnnxEmbedder {
  const parallel = Math.max(
    1,
    Math.floor(options.threads ?? Math.min(availableParallelism(), MAX_DEFAULT_THREADS)),
  );
  let loading: Promise<Loaded> | undefined;
  const running = new Set<Promise<unknown>>();
  let truncated = 0;
  let closed = false;

  function load(): Promise<Loaded> {
    loading ??= (async () => {
      const files = await options.files();
      const [ort, tokenizerJson] = await Promise.all([
        import('onnxruntime-node'),
        readFile(files.tokenizer, 'utf8'),
      ]);
      const encoder = createTokenEncoder(JSON.parse(tokenizerJson) as object, options.maxTokens);
      const sessions: InferenceSession[] = [];
      try {
        for (let index = 0; index < parallel; index++) {
          sessions.push(
            await ort.InferenceSession.create(files.model, {
              // One thread per call: a text's arithmetic never depends on how work is split.
              intraOpNumThreads: 1,
              interOpNumThreads: 1,
              graphOptimizationLevel: 'all',
            }),
          );
        }
      } catch (error) {
        await Promise.all(sessions.map((session) => session.release()));
        throw error;
      }
      return { sessions, encoder, ort };
    })();
    loading.catch(() => {
      loading = undefined;
    });
    return loading;
  }

  /** Runs one text's token ids through the model in `session`. */
  async function infer(loaded: Loaded, session: InferenceSession, ids: readonly number[]) {
    if (closed) throw new Error(`${options.id} embedder is closed`);
    const outputs = await session.run(toFeeds(loaded, session, [ids]));
    const hidden = outputs['last_hidden_state'] ?? outputs[session.outputNames[0]!]!;
    return pool(hidden, [ids], options.pooling)[0]!;
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
    const encoded = texts.map((text) => {
      const result = loaded.encoder.encode(prefix + text);
      if (result.truncated) truncated += 1;
      return result.ids;
    });
    const vectors = new Array<Float32Array>(texts.length);
    let next = 0;
    let done = 0;
    // Each session takes the next text until none is left; a failure stops the others' loops.
    let failed = false;
    const work = loaded.sessions.map(async (session) => {
      while (!failed && next < encoded.length) {
        signal?.throwIfAborted();
        const index = next++;
        try {
          vectors[index] = await infer(loaded, session, encoded[index]!);
        } catch (error) {
          failed = true;
          throw error;
        }
        done += 1;
        onProgress?.(done);
      }
    });
    const all = Promise.all(work);
    running.add(all);
    try {
      await all;
    } finally {
      running.delete(all);
    }
    return vectors;
  }

  return {
    id: options.id,
    cacheIdentity: options.cacheIdentity + ONE_TEXT_PER_CALL,
    dimensions: options.dimensions,
    truncated: () => truncated,
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
      await Promise.allSettled([...running]);
      await Promise.all(loaded?.sessions.map((session) => session.release()) ?? []);
    },
  };
}

/** int64 input ids, attention mask and (when the model takes them) token type ids, padded with 0. */
function toFeeds(
  loaded: Loaded,
  session: InferenceSession,
  batch: readonly (readonly number[])[],
): Record<string, Tensor> {
  const width = Math.max(...batch.map((ids) => ids.length));
  const size = batch.length * width;
  const ids = new BigInt64Array(size);
  const mask = new BigInt64Array(size);
  batch.forEach((row, r) => {
    for (let c = 0; c < row.length; c++) {
      ids[r * width + c] = BigInt(row[c]!);
      mask[r * width + c] = 1n;
    }
  });
  const dims = [batch.length, width];
  const feeds: Record<string, Tensor> = {
    input_ids: new loaded.ort.Tensor('int64', ids, dims),
    attention_mask: new loaded.ort.Tensor('int64', mask, dims),
  };
  if (session.inputNames.includes('token_type_ids')) {
    feeds['token_type_ids'] = new loaded.ort.Tensor('int64', new BigInt64Array(size), dims);
  }
  return feeds;
}

/** Pools `[batch, tokens, hidden]` to one L2-normalised row per text (mean over real tokens, or the first token). */
export function pool(
  hidden: Tensor,
  batch: readonly (readonly number[])[],
  pooling: Pooling,
): Float32Array[] {
  const [rows, width, size] = hidden.dims as [number, number, number];
  if (rows !== batch.length) throw new Error(`model returned ${rows} rows for ${batch.length} texts`);
  const data = hidden.data as Float32Array;
  return batch.map((ids, r) => {
    const vector = new Float32Array(size);
    const tokens = pooling === 'cls' ? 1 : ids.length;
    for (let t = 0; t < tokens; t++) {
      const offset = (r * width + t) * size;
      for (let d = 0; d < size; d++) vector[d]! += data[offset + d]!;
    }
    let norm = 0;
    for (let d = 0; d < size; d++) norm += vector[d]! * vector[d]!;
    // Mean then normalise equals normalising the sum: the division by the token count cancels.
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let d = 0; d < size; d++) vector[d]! *= scale;
    return vector;
  });
}
