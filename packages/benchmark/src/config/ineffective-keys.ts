import type { RunConfig } from './run-config.js';
import { flagOfKey } from './run-options.js';
import {
  embeds,
  judges,
  readsAndJudges,
  reranks,
  reranksOverHttp,
  summarizes,
  usesPipeline,
} from './run-shape.js';

/**
 * When a key changes nothing in a resolved config: the condition under which it is used, and the
 * flags that would turn that condition on (for the warning). One rule per key that depends on
 * another; keys that always matter have none.
 */
type Rule = { used: (config: RunConfig) => boolean; needs: string };

const pipeline = usesPipeline;
const fuses = (config: RunConfig) =>
  pipeline(config) && !config.multiRoute && (config.retriever === 'hybrid' || config.sessionAware);
const sessionAware = (config: RunConfig) => pipeline(config) && config.sessionAware;
const reads = readsAndJudges;
const http = (config: RunConfig) => config.provider === 'http';

const RULES: Partial<Record<keyof RunConfig, Rule>> = {
  rerankDepth: { used: reranks, needs: '--reranker' },
  rerankModel: { used: reranksOverHttp, needs: '--reranker http:<url>' },
  rerankKeyEnv: { used: reranksOverHttp, needs: '--reranker http:<url>' },
  sourceWeights: { used: (config) => pipeline(config) && config.multiSource, needs: '--multi-source' },
  retriever: { used: pipeline, needs: '--provider pipeline' },
  embedThreads: {
    used: (config) => embeds(config) && !config.embedder.startsWith('openai:'),
    needs: '--embedder hf:<model> or local:use-lite in a pipeline that embeds',
  },
  modelDir: {
    used: (config) => embeds(config) && config.embedder.startsWith('hf:'),
    needs: '--embedder hf:<model> in a pipeline that embeds',
  },
  tokenizer: { used: pipeline, needs: '--provider pipeline' },
  sessionAware: { used: pipeline, needs: '--provider pipeline' },
  multiRoute: { used: pipeline, needs: '--provider pipeline' },
  topSessions: { used: sessionAware, needs: '--session-aware' },
  turnsPerSession: { used: sessionAware, needs: '--session-aware' },
  sessionIndex: { used: sessionAware, needs: '--session-aware' },
  sessionWeights: { used: sessionAware, needs: '--session-aware' },
  summarizer: { used: summarizes, needs: '--session-index summary|both or --contextual' },
  summarizerModel: {
    used: (config) => summarizes(config) && config.summarizer === 'llm',
    needs: '--summarizer llm',
  },
  fusion: { used: fuses, needs: '--retriever hybrid or --session-aware' },
  fusionNormalization: {
    used: (config) => fuses(config) && config.fusion !== 'rrf',
    needs: '--fusion weighted|combmnz with --retriever hybrid or --session-aware',
  },
  adaptiveWeights: {
    used: (config) => fuses(config) && config.fusion !== 'rrf',
    needs: '--fusion weighted|combmnz with --retriever hybrid or --session-aware',
  },
  adaptivePower: {
    used: (config) => fuses(config) && config.fusion !== 'rrf' && config.adaptiveWeights === true,
    needs: '--adaptive-weights',
  },
  denseGap: {
    used: (config) => fuses(config) && config.fusion !== 'rrf',
    needs: '--fusion weighted|combmnz with --retriever hybrid or --session-aware',
  },
  timeBoost: {
    used: (config) => pipeline(config) && !config.multiRoute && !config.multiSource,
    needs: '--provider pipeline (not --multi-route or --multi-source)',
  },
  denseNeighbours: {
    used: (config) => pipeline(config) && !config.multiRoute && config.retriever !== 'bm25',
    needs: '--retriever dense|hybrid (not --multi-route)',
  },
  weights: {
    used: (config) => fuses(config) && config.fusion !== 'rrf',
    needs: '--fusion weighted|combmnz with --retriever hybrid or --session-aware',
  },
  rrfK: {
    used: (config) => (fuses(config) && config.fusion === 'rrf') || (pipeline(config) && config.multiRoute),
    needs: '--fusion rrf with --retriever hybrid or --session-aware, or --multi-route',
  },
  embedder: { used: embeds, needs: '--retriever dense|hybrid, --dedup or --mmr' },
  vectorStore: { used: embeds, needs: '--retriever dense|hybrid, --dedup or --mmr' },
  feedbackDocs: {
    used: (config) => embeds(config) && config.retriever !== 'bm25',
    needs: '--retriever dense|hybrid',
  },
  feedbackWeight: {
    used: (config) => embeds(config) && config.retriever !== 'bm25' && config.feedbackDocs > 0,
    needs: '--feedback-docs above 0',
  },
  dedupThreshold: { used: (config) => config.dedup, needs: '--dedup' },
  mmrLambda: { used: (config) => config.mmr, needs: '--mmr' },
  mmrDuplicate: { used: (config) => config.mmr, needs: '--mmr' },
  contextualModel: { used: (config) => config.contextual === 'llm', needs: '--contextual llm' },
  contextualDense: {
    used: (config) => config.contextual !== 'none' && embeds(config),
    needs: '--contextual template|llm with a dense route',
  },
  seed: { used: (config) => config.limit !== undefined, needs: '--limit' },
  exclusion: { used: (config) => config.convention === 'official', needs: '--convention official' },
  readerPrompt: { used: reads, needs: '--reader-model' },
  historyFormat: { used: reads, needs: '--reader-model' },
  readerTopK: { used: reads, needs: '--reader-model' },
  judgeModel: { used: judges, needs: '--reader-model or --answers provider' },
  judgeSamples: { used: judges, needs: '--reader-model or --answers provider' },
  judgeTemperature: { used: judges, needs: '--reader-model or --answers provider' },
  judge: { used: judges, needs: '--reader-model or --answers provider' },
  readerBaseUrl: { used: reads, needs: '--reader-model' },
  judgeBaseUrl: { used: judges, needs: '--reader-model or --answers provider' },
  providerUrl: { used: http, needs: '--provider http' },
  providerAuthEnv: { used: http, needs: '--provider http' },
  providerAuthHeader: { used: http, needs: '--provider http' },
  providerTimeoutMs: { used: http, needs: '--provider http' },
  providerMaxRetries: { used: http, needs: '--provider http' },
  cacheDir: { used: (config) => config.cache, needs: 'the cache (drop --no-cache)' },
};

/**
 * One sentence per key the user set (`explicitKeys`: typically those given as flags) that has no
 * effect in the resolved config, e.g. `--top-sessions has no effect without --session-aware.`
 */
export function ineffectiveKeyWarnings(config: RunConfig, explicitKeys: Iterable<string>): string[] {
  const warnings: string[] = [];
  for (const key of explicitKeys) {
    const rule = RULES[key as keyof RunConfig];
    if (rule && !rule.used(config)) warnings.push(`${flagOfKey(key)} has no effect without ${rule.needs}.`);
  }
  if (judges(config) && config.judgeSamples > 1 && config.judgeTemperature === 0) {
    warnings.push(
      `--judge-samples ${config.judgeSamples} at --judge-temperature 0: the votes will rarely differ (set a temperature such as 0.7 to measure the judge's agreement).`,
    );
  }
  return warnings;
}
