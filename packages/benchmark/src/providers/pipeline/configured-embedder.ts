import {
  type CachedEmbedder,
  concatEmbedders,
  type Embedder,
  type EmbeddingCacheStats,
  withDiskCache,
} from '@lme/search-core';
import type { EmbedderDependencies } from '../../components/embedders/embedder-descriptor.js';
import { resolveEmbedder, unknownEmbedder } from '../../config/component-ids.js';
import { resolveOpenAiEndpoint } from '../../config/openai-endpoints.js';
import type { RunSections } from '../../config/run-sections.js';
import { onnxModelResolver } from '../../models/onnx-model-resolver.js';
import { checkEmbedThreads } from './embed-threads-bound.js';
import type { SharedSections } from './pipeline-sections.js';

/** An embedder, with what its disk cache tells when it has one. */
export type ConfiguredEmbedder = Embedder &
  Partial<Pick<CachedEmbedder, 'stats' | 'cachedTexts' | 'countCached' | 'flush'>>;

export type PipelineResources = {
  /** An embedder shared with other pipelines (ablation variants); this pipeline never closes it. */
  embedder?: ConfiguredEmbedder;
};

/**
 * What an embedder is made from: the selected embedders (`--embedder`, several joined by +, each
 * with its family's own options: components/embedders/), the cache and the run's
 * OpenAI-compatible endpoint (for hosted families).
 */
export type EmbedderSections = SharedSections & Pick<RunSections, 'embedders'>;

/** What an embedder family's factory gets from the run: the endpoint, and the model store. */
function embedderDependencies(
  sections: EmbedderSections,
  environment: NodeJS.ProcessEnv,
): EmbedderDependencies {
  return {
    // --base-url, --timeout and --max-retries reach a hosted embedder as they reach the reader.
    openAiEndpoint: () => resolveOpenAiEndpoint(sections.qa, 'pipeline', environment),
    // ONNX models come from --model-dir, the model store, or are fetched on first use.
    onnxModels: ({ modelDir }) =>
      onnxModelResolver({
        cacheDir: sections.run.cacheDir,
        modelDir,
        onMessage: (message) => process.stderr.write(`lme: model: ${message}\n`),
      }),
  };
}

/** The cached embedder the sections select (the caller closes it). */
export function createConfiguredEmbedder(
  sections: EmbedderSections,
  environment: NodeJS.ProcessEnv = process.env,
): ConfiguredEmbedder {
  const { embedders, run } = sections;
  // Refused before a thread starts when the threads asked for would not fit in memory.
  checkEmbedThreads(embedders);
  if (embedders.length > 1) {
    // Each part is created (and cached) as if named alone, so its vectors serve runs of it alone too.
    const parts = embedders.map((embedder) =>
      createConfiguredEmbedder({ ...sections, embedders: [embedder] }, environment),
    );
    const joined = concatEmbedders(parts);
    if (!run.cache) return joined;
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
  const [selected] = embedders;
  if (!selected) throw new Error('No embedder is selected.');
  const { descriptor, model } = resolveEmbedder(selected.id);
  const base = descriptor.create(model, selected.options, embedderDependencies(sections, environment));
  if (!base) throw unknownEmbedder(selected.id);
  return run.cache ? withDiskCache(base, { dir: run.cacheDir }) : base;
}
