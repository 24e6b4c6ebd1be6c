import pLimit from 'p-limit';
import { loadOpenAi } from '../core/load-openai.js';
import { redactSecrets } from '../core/redact-secrets.js';
import { unitVector } from '../core/vector-math.js';
import { cappedRetryFetch } from '../http/capped-retry-fetch.js';
import { isRetryableStatus, ServiceError } from '../http/service-error.js';
import type { EmbedDocumentsOptions, Embedder, EmbedQueryOptions } from './embedder.js';

export type OpenAiEmbedderOptions = {
  /** e.g. `text-embedding-3-small`, or whatever model an OpenAI-compatible server serves. */
  model: string;
  /** Default: the OpenAI API. The environment is never read here: the caller resolves it. */
  baseURL?: string;
  /** May be omitted for a custom `baseURL` that needs no key. */
  apiKey?: string;
  /** Texts per request. Default 128. */
  batchSize?: number;
  /** Requests in flight at once. Default 4. */
  concurrency?: number;
  /** Retries by the openai client (429, 5xx, timeouts, honouring retry-after up to 30 s). Default 4. */
  maxRetries?: number;
  /** Per-request timeout. Default 60 s. */
  timeoutMs?: number;
  /** The wait before a retry a server asked for, capped at 30 s (`cappedRetryFetch`); tests record it. */
  retrySleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  /**
   * Requested output size (sent as `dimensions`, for models that can shorten their vectors).
   * Then every response must have it, and the embedder id becomes `openai:<model>@<dimensions>`
   * so shortened vectors never share cache keys with full ones. Without it, the dimensions are
   * learned from the first response (`dimensions` reads 0 until then, unless the model is a known
   * OpenAI model).
   */
  dimensions?: number;
};

const DEFAULT_BATCH_SIZE = 128;
const DEFAULT_CONCURRENCY = 4;
const DEFAULT_MAX_RETRIES = 4;
const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** Output sizes of OpenAI's own models, so `dimensions` is right before the first request. */
const KNOWN_DIMENSIONS: Readonly<Record<string, number>> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

/** Embeddings from any OpenAI-compatible `/embeddings` endpoint, L2-normalised. */
export function createOpenAiEmbedder(options: OpenAiEmbedderOptions): Embedder {
  const { model } = options;
  if (!model) throw new Error('createOpenAiEmbedder needs a model name (e.g. text-embedding-3-small).');
  const id = options.dimensions === undefined ? `openai:${model}` : `openai:${model}@${options.dimensions}`;
  const batchSize = positiveInteger(options.batchSize ?? DEFAULT_BATCH_SIZE, 'batchSize', id);
  const concurrency = positiveInteger(options.concurrency ?? DEFAULT_CONCURRENCY, 'concurrency', id);
  if (options.dimensions !== undefined) positiveInteger(options.dimensions, 'dimensions', id);
  const baseURL = options.baseURL ?? DEFAULT_BASE_URL;
  const apiKey = options.apiKey ?? (options.baseURL ? 'none' : undefined);
  if (!apiKey) {
    throw new Error(`${id} needs an API key: set OPENAI_API_KEY (or OPENAI_BASE_URL for a local server).`);
  }
  // Every setting explicit: the package would otherwise read OPENAI_* variables itself.
  const client = new (loadOpenAi())({
    apiKey,
    baseURL,
    organization: null,
    project: null,
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    // A server's retry-after honoured up to 30 s, the wait ended by the request's signal.
    fetch: cappedRetryFetch({
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      ...(options.retrySleep ? { sleep: options.retrySleep } : {}),
    }),
    // The core never prints.
    logLevel: 'off',
  });
  let dimensions = options.dimensions ?? KNOWN_DIMENSIONS[model] ?? 0;
  let dimensionsConfirmed = options.dimensions !== undefined;

  /** Error text without the key (or any start of it), whatever a server chose to echo. */
  function redact(text: string): string {
    return redactSecrets(text, [apiKey!]);
  }

  async function embedBatch(
    texts: readonly string[],
    signal: AbortSignal | undefined,
  ): Promise<Float32Array[]> {
    let response: unknown;
    try {
      response = await client.embeddings.create(
        {
          model,
          // The API rejects empty strings; a space embeds as "nothing" just as well.
          input: texts.map((text) => (text.length === 0 ? ' ' : text)),
          // Floats, not the SDK's default base64: every OpenAI-compatible server speaks floats.
          encoding_format: 'float',
          ...(options.dimensions === undefined ? {} : { dimensions: options.dimensions }),
        },
        { signal },
      );
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      const code = error instanceof loadOpenAi().APIError ? error.status : undefined;
      const status = code ? ` (HTTP ${code})` : '';
      const message = error instanceof Error ? error.message : String(error);
      // The SDK has made its retries; `retryable` says whether a later attempt could still succeed.
      throw new ServiceError(redact(`${id} embeddings request failed${status}: ${message}`), {
        retryable: code ? isRetryableStatus(code) : error instanceof loadOpenAi().APIConnectionError,
        status: code || undefined,
      });
    }
    const vectors = parseEmbeddings(response, texts.length, (problem) => {
      throw new Error(redact(`${id} returned a malformed embeddings response: ${problem}.`));
    });
    const size = vectors[0]?.length ?? 0;
    if (dimensionsConfirmed && size !== dimensions) {
      throw new Error(
        redact(
          `${id} returned a malformed embeddings response: vectors have ${size} dimensions, expected ${dimensions}.`,
        ),
      );
    }
    dimensions = size;
    dimensionsConfirmed = true;
    return vectors;
  }

  async function embedAll(
    texts: readonly string[],
    signal: AbortSignal | undefined,
    onProgress: ((done: number) => void) | undefined,
  ): Promise<Float32Array[]> {
    signal?.throwIfAborted();
    const batches: number[] = [];
    for (let start = 0; start < texts.length; start += batchSize) batches.push(start);
    const vectors = new Array<Float32Array>(texts.length);
    // One failed batch stops the others: no point paying for a call that will be thrown away.
    const stop = new AbortController();
    const combined = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
    const limit = pLimit(concurrency);
    let done = 0;
    let firstError: unknown;
    await Promise.all(
      batches.map((start) =>
        limit(async () => {
          if (firstError !== undefined) return;
          const slice = texts.slice(start, start + batchSize);
          try {
            const batchVectors = await embedBatch(slice, combined);
            batchVectors.forEach((vector, offset) => {
              vectors[start + offset] = vector;
            });
            done += slice.length;
            onProgress?.(done);
          } catch (error) {
            if (firstError === undefined) firstError = error;
            stop.abort();
          }
        }),
      ),
    );
    if (firstError !== undefined) throw signal?.aborted ? (signal.reason ?? firstError) : firstError;
    return vectors;
  }

  return {
    id,
    get dimensions() {
      return dimensions;
    },
    embedDocuments({ texts, signal, onProgress }: EmbedDocumentsOptions): Promise<Float32Array[]> {
      return embedAll(texts, signal, onProgress);
    },
    async embedQuery({ text, signal }: EmbedQueryOptions): Promise<Float32Array> {
      const [vector] = await embedAll([text], signal, undefined);
      return vector!;
    },
    async close(): Promise<void> {
      // The client holds no resources beyond keep-alive sockets that close on their own.
    },
  };
}

/**
 * Checks an `/embeddings` response: `data` holds one item per input, every `index` in range and
 * used once, every `embedding` a non-empty array of finite numbers of one common length.
 * Returns the vectors in input order, L2-normalised.
 */
function parseEmbeddings(
  response: unknown,
  expected: number,
  fail: (problem: string) => never,
): Float32Array[] {
  if (typeof response !== 'object' || response === null) fail('the body is not a JSON object');
  const data = (response as { data?: unknown }).data;
  if (!Array.isArray(data)) fail('it has no "data" array');
  if (data.length !== expected) fail(`expected ${expected} embeddings, got ${data.length}`);
  const vectors = new Array<Float32Array | undefined>(expected);
  let size = -1;
  data.forEach((item: unknown, position) => {
    const index = (item as { index?: unknown } | null)?.index;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= expected) {
      fail(
        `data[${position}].index is ${JSON.stringify(index)}, expected an integer from 0 to ${expected - 1}`,
      );
    }
    if (vectors[index]) fail(`index ${index} appears twice`);
    const embedding = (item as { embedding?: unknown }).embedding;
    if (!Array.isArray(embedding) || embedding.length === 0) {
      fail(`data[${position}].embedding is not a non-empty array of numbers`);
    }
    if (size === -1) size = embedding.length;
    if (embedding.length !== size) {
      fail(`data[${position}].embedding has ${embedding.length} dimensions, data[0] has ${size}`);
    }
    const vector = new Float32Array(size);
    for (let d = 0; d < size; d++) {
      const value = embedding[d];
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        fail(`data[${position}].embedding[${d}] is ${JSON.stringify(value)}, not a finite number`);
      }
      vector[d] = value;
    }
    vectors[index] = unitVector(vector);
  });
  return vectors as Float32Array[];
}

function positiveInteger(value: number, name: string, id: string): number {
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${id}: ${name} must be a positive integer, got ${value}.`);
  return value;
}
