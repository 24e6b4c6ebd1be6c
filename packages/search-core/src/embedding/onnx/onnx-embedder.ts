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
  /** ONNX Runtime intra-op threads. Default: available cores, at most 4. */
  threads?: number;
  /**
   * Texts are sorted by token length and cut into batches of at most `batchSize` texts and at most
   * `batchTokens` padded tokens (texts x the longest text's tokens), so long texts run in small
   * batches and short ones in large ones. Defaults 32 and 512: on S user turns given in calls of
   * 256, bge-small ran about 1.7x faster than fixed batches of 16 (which pad short texts to the
   * longest one) at a quarter of the memory (scripts/bench-embedders.ts). An int8 model quantizes
   * its activations per call, so a text's vector moves slightly with its batch-mates (cosine
   * 0.97-0.999 against one text per call, exactly as Python's onnxruntime does on the same batch).
   */
  batchSize?: number;
  batchTokens?: number;
};

/** An ONNX embedder always tells how many texts it had to cut at the model's token limit. */
export type OnnxEmbedder = Embedder & { truncated(): number };

const DEFAULT_BATCH_SIZE = 32;
const DEFAULT_BATCH_TOKENS = 512;
const MAX_DEFAULT_THREADS = 4;

type Loaded = { session: InferenceSession; encoder: TokenEncoder; ort: typeof import('onnxruntime-node') };

/**
 * A sentence embedder run by ONNX Runtime (onnxruntime-node) with the model's own tokenizer
 * (`@huggingface/tokenizers`, the tokenizer of transformers.js). Driven directly rather than
 * through the transformers.js `feature-extraction` pipeline: on the same batches the pipeline was
 * slower (scripts/bench-embedders.ts prints both). One model call runs at a time; while it runs,
 * the next batch's tensors are built, so both cores stay busy.
 */
export function createOnnxEmbedder(options: OnnxEmbedderOptions): OnnxEmbedder {
  const threads = Math.max(
    1,
    Math.floor(options.threads ?? Math.min(availableParallelism(), MAX_DEFAULT_THREADS)),
  );
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? DEFAULT_BATCH_SIZE));
  const batchTokens = Math.max(1, Math.floor(options.batchTokens ?? DEFAULT_BATCH_TOKENS));
  let loading: Promise<Loaded> | undefined;
  let turn: Promise<unknown> = Promise.resolve();
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
      const session = await ort.InferenceSession.create(files.model, {
        intraOpNumThreads: threads,
        interOpNumThreads: 1,
        graphOptimizationLevel: 'all',
      });
      return { session, encoder, ort };
    })();
    loading.catch(() => {
      loading = undefined;
    });
    return loading;
  }

  /** Runs one batch of token id lists through the model, one call at a time. */
  function infer(loaded: Loaded, batch: readonly number[][]): Promise<Float32Array[]> {
    const feeds = toFeeds(loaded, batch);
    const result = turn.then(async () => {
      if (closed) throw new Error(`${options.id} embedder is closed`);
      const outputs = await loaded.session.run(feeds);
      const hidden = outputs['last_hidden_state'] ?? outputs[loaded.session.outputNames[0]!]!;
      return pool(hidden, batch, options.pooling);
    });
    turn = result.catch(() => {});
    return result;
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
    const batches = planBatches(
      encoded.map((ids) => ids.length),
      batchSize,
      batchTokens,
    );
    const vectors = new Array<Float32Array>(texts.length);
    let done = 0;
    // Two batches in flight: the second is tokenized into tensors while the first runs.
    const inFlight: Promise<void>[] = [];
    for (const indices of batches) {
      signal?.throwIfAborted();
      const batch = infer(
        loaded,
        indices.map((index) => encoded[index]!),
      ).then((rows) => {
        indices.forEach((index, row) => {
          vectors[index] = rows[row]!;
        });
        done += indices.length;
        onProgress?.(done);
      });
      batch.catch(() => {});
      inFlight.push(batch);
      if (inFlight.length >= 2) await inFlight.shift();
    }
    await Promise.all(inFlight);
    return vectors;
  }

  return {
    id: options.id,
    cacheIdentity: options.cacheIdentity,
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
      await turn;
      await loaded?.session.release();
    },
  };
}

/**
 * The model calls for texts of these token counts: longest first (similar lengths share a batch,
 * and the costliest batch fails first if memory is short), cut into consecutive batches of at most
 * `maxTexts` texts and `maxTokens` padded tokens (texts x the batch's longest text); a text longer
 * than the budget runs alone. Returns batches of indices into `lengths`.
 */
export function planBatches(lengths: readonly number[], maxTexts: number, maxTokens: number): number[][] {
  const order = lengths.map((_, index) => index).sort((a, b) => lengths[b]! - lengths[a]!);
  const batches: number[][] = [];
  let current: number[] = [];
  for (const index of order) {
    const width = current.length > 0 ? lengths[current[0]!]! : lengths[index]!;
    if (current.length > 0 && (current.length >= maxTexts || (current.length + 1) * width > maxTokens)) {
      batches.push(current);
      current = [];
    }
    current.push(index);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** int64 input ids, attention mask and (when the model takes them) token type ids, padded with 0. */
function toFeeds(loaded: Loaded, batch: readonly number[][]): Record<string, Tensor> {
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
  if (loaded.session.inputNames.includes('token_type_ids')) {
    feeds['token_type_ids'] = new loaded.ort.Tensor('int64', new BigInt64Array(size), dims);
  }
  return feeds;
}

/** Pools `[batch, tokens, hidden]` to one L2-normalised row per text (mean over real tokens, or the first token). */
export function pool(hidden: Tensor, batch: readonly number[][], pooling: Pooling): Float32Array[] {
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
