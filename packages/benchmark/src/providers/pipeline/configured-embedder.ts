import {
  type CachedEmbedder,
  concatEmbedders,
  type Embedder,
  type EmbeddingCacheStats,
  withDiskCache,
} from '@lme/search-core';
import { ownOptions } from '../../components/component.js';
import type { EmbedderDependencies } from '../../components/embedders/embedder-descriptor.js';
import { resolveEmbedder, unknownEmbedder } from '../../config/component-ids.js';
import { type EndpointSettings, resolveOpenAiEndpoint } from '../../config/openai-endpoints.js';
import { embedderParts } from '../../config/run-config.js';
import type { EmbedderOptionValues, EmbeddingSection } from '../../config/sections/embedding-section.js';
import type { RunSection } from '../../config/sections/run-section.js';
import { onnxModelResolver } from '../../models/onnx-model-resolver.js';
import { checkEmbedThreads } from './embed-threads-bound.js';

/** An embedder, with what its disk cache tells when it has one. */
export type ConfiguredEmbedder = Embedder &
  Partial<Pick<CachedEmbedder, 'stats' | 'cachedTexts' | 'countCached' | 'flush'>>;

export type PipelineResources = {
  /** An embedder shared with other pipelines (ablation variants); this pipeline never closes it. */
  embedder?: ConfiguredEmbedder;
};

/**
 * What an embedder is made from: `--embedder`, the cache, the run's OpenAI-compatible endpoint
 * (for hosted families) and the families' own options (components/embedders/).
 */
export type EmbedderSettings = Pick<EmbeddingSection, 'embedder'> &
  Pick<RunSection, 'cache' | 'cacheDir'> &
  EndpointSettings &
  Partial<EmbedderOptionValues>;

/** What an embedder family's factory gets from the run: the endpoint, and the model store. */
function embedderDependencies(
  settings: EmbedderSettings,
  environment: NodeJS.ProcessEnv,
): EmbedderDependencies {
  return {
    // --base-url, --timeout and --max-retries reach a hosted embedder as they reach the reader.
    openAiEndpoint: () => resolveOpenAiEndpoint(settings, 'pipeline', environment),
    // ONNX models come from --model-dir, the model store, or are fetched on first use.
    onnxModels: ({ modelDir }) =>
      onnxModelResolver({
        cacheDir: settings.cacheDir,
        modelDir,
        onMessage: (message) => process.stderr.write(`lme: model: ${message}\n`),
      }),
  };
}

/** The cached embedder the settings name (the caller closes it). */
export function createConfiguredEmbedder(
  settings: EmbedderSettings,
  environment: NodeJS.ProcessEnv = process.env,
): ConfiguredEmbedder {
  const names = embedderParts(settings.embedder);
  // Refused before a thread starts when the threads asked for would not fit in memory.
  checkEmbedThreads(settings);
  if (names.length > 1) {
    // Each part is created (and cached) as if named alone, so its vectors serve runs of it alone too.
    const parts = names.map((embedder) => createConfiguredEmbedder({ ...settings, embedder }, environment));
    const joined = concatEmbedders(parts);
    if (!settings.cache) return joined;
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
  // The family's factory gets its own options (components/embedders/<family>/) and the run's parts.
  const { descriptor, model } = resolveEmbedder(settings.embedder);
  const base = descriptor.create(
    model,
    ownOptions(descriptor, settings),
    embedderDependencies(settings, environment),
  );
  if (!base) throw unknownEmbedder(settings.embedder);
  return settings.cache ? withDiskCache(base, { dir: settings.cacheDir }) : base;
}
