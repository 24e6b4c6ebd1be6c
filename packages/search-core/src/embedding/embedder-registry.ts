import type { Embedder } from './embedder.js';
import { createOnnxEmbedder, type OnnxEmbedderOptions } from './onnx/onnx-embedder.js';
import { createOpenAiEmbedder } from './openai-embedder.js';
import { createUseLiteEmbedder } from './use-lite-embedder.js';

/** Options for any embedder; each takes the ones that apply to it. */
export type CreateEmbedderOptions = {
  /** local: worker threads; hf: model calls at once (one thread each). */
  threads?: number;
  /** Texts per model call (local) or per request (openai); hf: always one text per call. */
  batchSize?: number;
  /**
   * hf: what `hf:<model>` means (its files, pooling, prefixes, cache identity); the caller owns the
   * model catalog and store. Throws for a model it does not know.
   */
  resolveOnnxModel?: (model: string) => Omit<OnnxEmbedderOptions, 'threads'>;
  /** openai: endpoint, default `OPENAI_BASE_URL`. */
  baseURL?: string;
  /** openai: key, default `OPENAI_API_KEY`. */
  apiKey?: string;
  /** openai: requests in flight. */
  concurrency?: number;
  /** openai: client retries. */
  maxRetries?: number;
  /** openai: per-request timeout. */
  timeoutMs?: number;
  /** openai: requested output size (also spelled `openai:<model>@<dimensions>`). */
  dimensions?: number;
};

type EmbedderProvider = {
  /** How names of this provider look, for error messages. */
  form: string;
  /** The embedder for the part after `<provider>:`, or undefined if that part is not valid. */
  create(model: string, options: CreateEmbedderOptions): Embedder | undefined;
};

const embedderProviders = {
  local: {
    form: 'local:use-lite',
    create: (model, options) =>
      model === 'use-lite'
        ? createUseLiteEmbedder({ threads: options.threads, batchSize: options.batchSize })
        : undefined,
  },
  hf: {
    form: 'hf:<owner>/<model>[@<dtype>]',
    create: (model, options) => {
      if (!model) return undefined;
      if (!options.resolveOnnxModel) {
        throw new Error(`Embedder "hf:${model}" needs a model catalog (resolveOnnxModel) to find its files.`);
      }
      return createOnnxEmbedder({
        ...options.resolveOnnxModel(model),
        threads: options.threads,
      });
    },
  },
  openai: {
    form: 'openai:<model>',
    create: (model, options) => {
      // `openai:<model>@<dimensions>` is the id of an embedder created with `dimensions`.
      const match = /^(.+)@(\d+)$/.exec(model);
      const modelName = match ? match[1]! : model;
      const dimensions = match ? Number(match[2]) : options.dimensions;
      if (!modelName) return undefined;
      if (match && options.dimensions !== undefined && options.dimensions !== dimensions) {
        throw new Error(
          `Embedder "openai:${model}" names ${dimensions} dimensions but options ask for ${options.dimensions}.`,
        );
      }
      return createOpenAiEmbedder({
        model: modelName,
        baseURL: options.baseURL,
        apiKey: options.apiKey,
        batchSize: options.batchSize,
        concurrency: options.concurrency,
        maxRetries: options.maxRetries,
        timeoutMs: options.timeoutMs,
        dimensions,
      });
    },
  },
} satisfies Record<string, EmbedderProvider>;

/** The name forms `createEmbedder` accepts, e.g. for `--help`. */
export const embedderNameForms: readonly string[] = Object.values(embedderProviders).map(
  (provider) => provider.form,
);

/**
 * An embedder by name: `local:use-lite`, `hf:<owner>/<model>[@<dtype>]` (an ONNX model, e.g.
 * `hf:Xenova/bge-small-en-v1.5`) or `openai:<model>` (e.g. `openai:text-embedding-3-small`).
 * An unknown name throws, listing the known forms.
 */
export function createEmbedder(name: string, options: CreateEmbedderOptions = {}): Embedder {
  const colon = name.indexOf(':');
  const providerName = colon > 0 ? name.slice(0, colon) : '';
  const provider = Object.hasOwn(embedderProviders, providerName)
    ? embedderProviders[providerName as keyof typeof embedderProviders]
    : undefined;
  const embedder = provider?.create(name.slice(colon + 1), options);
  if (!embedder) {
    throw new Error(
      `Unknown embedder "${name}". Known: ${embedderNameForms.join(', ')} (e.g. openai:text-embedding-3-small).`,
    );
  }
  return embedder;
}
