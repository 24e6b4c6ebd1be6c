import { type CachedEmbedder, createEmbedder, type Embedder, withDiskCache } from '@lme/search-core';
import { resolveOpenAiEndpoint } from '../../config/openai-endpoints.js';
import type { RunConfig } from '../../config/run-config.js';
import { onnxModelResolver } from '../../models/onnx-model-resolver.js';

/** Whether a config's pipeline embeds (a dense route, or stages that need document vectors). */
export function pipelineEmbeds(config: RunConfig): boolean {
  return config.retriever !== 'bm25' || config.dedup || config.mmr;
}

export type PipelineResources = {
  /** An embedder shared with other pipelines (ablation variants); this pipeline never closes it. */
  embedder?: Embedder & Partial<Pick<CachedEmbedder, 'stats'>>;
};

/** The cached embedder a config names (the caller closes it). */
export function createConfiguredEmbedder(
  config: RunConfig,
  environment: NodeJS.ProcessEnv = process.env,
): Embedder & Partial<Pick<CachedEmbedder, 'stats'>> {
  // --base-url, --timeout and --max-retries reach the OpenAI embedder as they reach the reader.
  const base = createEmbedder(
    config.embedder,
    config.embedder.startsWith('openai:')
      ? resolveOpenAiEndpoint(config, 'pipeline', environment)
      : {
          maxRetries: config.maxRetries,
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
