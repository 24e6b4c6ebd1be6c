import {
  type CachedEmbedder,
  concatEmbedders,
  createEmbedder,
  type Embedder,
  type EmbeddingCacheStats,
  withDiskCache,
} from '@lme/search-core';
import { resolveOpenAiEndpoint } from '../../config/openai-endpoints.js';
import { embedderParts, type RunConfig } from '../../config/run-config.js';
import { onnxModelResolver } from '../../models/onnx-model-resolver.js';
import { checkEmbedThreads } from './embed-threads-bound.js';

/** An embedder, with what its disk cache tells when it has one. */
export type ConfiguredEmbedder = Embedder &
  Partial<Pick<CachedEmbedder, 'stats' | 'cachedTexts' | 'countCached' | 'flush'>>;

export type PipelineResources = {
  /** An embedder shared with other pipelines (ablation variants); this pipeline never closes it. */
  embedder?: ConfiguredEmbedder;
};

/** The cached embedder a config names (the caller closes it). */
export function createConfiguredEmbedder(
  config: RunConfig,
  environment: NodeJS.ProcessEnv = process.env,
): ConfiguredEmbedder {
  const names = embedderParts(config.embedder);
  // Refused before a thread starts when the threads asked for would not fit in memory.
  checkEmbedThreads(config);
  if (names.length > 1) {
    // Each part is created (and cached) as if named alone, so its vectors serve runs of it alone too.
    const parts = names.map((embedder) => createConfiguredEmbedder({ ...config, embedder }, environment));
    const joined = concatEmbedders(parts);
    if (!config.cache) return joined;
    const stats = (): EmbeddingCacheStats => {
      const each = parts.map((part) => part.stats!());
      const sum = (key: keyof EmbeddingCacheStats) => each.reduce((total, part) => total + part[key], 0);
      return {
        hits: sum('hits'),
        misses: sum('misses'),
        written: sum('written'),
        pending: sum('pending'),
        corrupt: sum('corrupt'),
        legacy: sum('legacy'),
        raced: sum('raced'),
        truncated: sum('truncated'),
      };
    };
    // A text is cached when every part has it.
    const cachedTexts: CachedEmbedder['cachedTexts'] = async (options) => {
      const [first, ...rest] = await Promise.all(parts.map((part) => part.cachedTexts!(options)));
      return new Set([...first!].filter((text) => rest.every((set) => set.has(text))));
    };
    const countCached: CachedEmbedder['countCached'] = async (options) => (await cachedTexts(options)).size;
    const flush = async () => {
      await Promise.all(parts.map((part) => part.flush?.()));
    };
    return Object.assign(joined, { stats, cachedTexts, countCached, flush });
  }
  // --base-url, --timeout and --max-retries reach the OpenAI embedder as they reach the reader.
  const base = createEmbedder(
    config.embedder,
    config.embedder.startsWith('openai:')
      ? resolveOpenAiEndpoint(config, 'pipeline', environment)
      : {
          maxRetries: config.maxRetries,
          threads: config.embedThreads,
          // hf: models come from --model-dir, the model store, or are fetched on first use.
          resolveOnnxModel: onnxModelResolver({
            cacheDir: config.cacheDir,
            modelDir: config.modelDir,
            onMessage: (message) => process.stderr.write(`lme: model: ${message}\n`),
          }),
        },
  );
  return config.cache ? withDiskCache(base, { dir: config.cacheDir }) : base;
}
