import { stageDescriptors } from '../components/stages/stage-registry.js';
import { componentKeyUsed } from './component-kinds.js';
import { IN_PROCESS_CAPABILITIES, type ProviderCapabilities } from './provider-capabilities.js';
import { RETRIEVER_NEEDS } from './retriever-needs.js';
import {
  fusesByRrfAlone,
  fusesRoutes,
  ranksTurns,
  readsRouteSetting,
  searchesDense,
  takesRoutes,
} from './retriever-rules.js';
import type { RunConfig } from './run-config.js';
import { flagOfKey } from './run-options.js';
import { groupConfig } from './run-sections.js';
import { embeds, judges, readsAndJudges, usesPipeline } from './run-shape.js';

/**
 * When a key changes nothing in a resolved config: the condition under which it is used, and the
 * flags that would turn that condition on (for the warning). One rule per key that depends on
 * another; keys that always matter have none.
 */
type Rule = { used: (config: RunConfig, provider: ProviderCapabilities) => boolean; needs: string };

const pipeline = (_: RunConfig, provider: ProviderCapabilities) => usesPipeline(provider);
const fuses = (config: RunConfig, provider: ProviderCapabilities) =>
  usesPipeline(provider) && fusesRoutes(config);
const { FUSES, DENSE_ROUTE } = RETRIEVER_NEEDS;
/** What makes the pipeline embed: a dense route, or a stage that compares vectors (`--dedup or --mmr`). */
const EMBEDS = [
  DENSE_ROUTE,
  stageDescriptors()
    .filter((stage) => stage.capabilities.needsVectors)
    .map((stage) => flagOfKey(stage.switch))
    .join(' or '),
].join(', ');
const reads = readsAndJudges;
/** The retrievers that take BM25's k1, b and feedback (their descriptors' `bm25Settings`). */
const BM25_ROUTE: Rule = {
  used: (config, provider) => pipeline(config, provider) && readsRouteSetting(config, 'bm25Settings'),
  needs: RETRIEVER_NEEDS.bm25Settings,
};
const BM25_FEEDBACK: Rule = {
  used: (config, provider) => BM25_ROUTE.used(config, provider) && (config.bm25FeedbackDocs ?? 0) > 0,
  needs: '--bm25-feedback-docs above 0',
};
/** A key the provider declares it reads (`runKeys`: `--provider-url` for http). */
const providerReads = (key: keyof RunConfig) => (_: RunConfig, provider: ProviderCapabilities) =>
  provider.runKeys?.includes(key) === true;
/** The request budget of an external system. */
const external = (_: RunConfig, provider: ProviderCapabilities) => provider.external;

const RULES: Partial<Record<keyof RunConfig, Rule>> = {
  retriever: { used: pipeline, needs: '--provider pipeline' },
  routes: {
    used: (config, provider) => pipeline(config, provider) && takesRoutes(config),
    needs: RETRIEVER_NEEDS.routes,
  },
  // A retriever that ranks turns (its documents are turns): stated, not silent.
  granularity: {
    used: (config, provider) => !(pipeline(config, provider) && ranksTurns(config)),
    needs: RETRIEVER_NEEDS.granularity,
  },
  tokenizer: { used: pipeline, needs: '--provider pipeline' },
  fusion: { used: fuses, needs: FUSES },
  fusionNormalization: {
    used: (config, provider) => fuses(config, provider) && config.fusion !== 'rrf',
    needs: `--fusion weighted|combmnz with ${FUSES}`,
  },
  adaptiveWeights: {
    used: (config, provider) => fuses(config, provider) && config.fusion !== 'rrf',
    needs: `--fusion weighted|combmnz with ${FUSES}`,
  },
  adaptivePower: {
    used: (config, provider) =>
      fuses(config, provider) && config.fusion !== 'rrf' && config.adaptiveWeights === true,
    needs: '--adaptive-weights',
  },
  denseGap: {
    used: (config, provider) => fuses(config, provider) && config.fusion !== 'rrf',
    needs: `--fusion weighted|combmnz with ${FUSES}`,
  },
  timeBoost: {
    used: (config, provider) => pipeline(config, provider) && readsRouteSetting(config, 'timeBoost'),
    needs: RETRIEVER_NEEDS.timeBoost,
  },
  denseNeighbours: {
    used: (config, provider) =>
      pipeline(config, provider) && readsRouteSetting(config, 'denseNeighbours') && searchesDense(config),
    needs: RETRIEVER_NEEDS.denseNeighbours,
  },
  bm25K1: BM25_ROUTE,
  bm25B: BM25_ROUTE,
  bm25FeedbackDocs: BM25_ROUTE,
  bm25FeedbackWeight: BM25_FEEDBACK,
  bm25FeedbackKeep: BM25_FEEDBACK,
  weights: {
    used: (config, provider) => fuses(config, provider) && config.fusion !== 'rrf',
    needs: `--fusion weighted|combmnz with ${FUSES}`,
  },
  rrfK: {
    used: (config, provider) =>
      (fuses(config, provider) && config.fusion === 'rrf') ||
      (pipeline(config, provider) && fusesByRrfAlone(config)),
    needs: RETRIEVER_NEEDS.rrfK,
  },
  embedder: { used: (config, provider) => embeds(config, provider), needs: EMBEDS },
  vectorStore: { used: (config, provider) => embeds(config, provider), needs: EMBEDS },
  feedbackDocs: {
    used: (config, provider) => embeds(config, provider) && searchesDense(config),
    needs: DENSE_ROUTE,
  },
  feedbackWeight: {
    used: (config, provider) => embeds(config, provider) && searchesDense(config) && config.feedbackDocs > 0,
    needs: '--feedback-docs above 0',
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
  providerUrl: { used: providerReads('providerUrl'), needs: '--provider http' },
  providerAuthEnv: { used: providerReads('providerAuthEnv'), needs: '--provider http' },
  providerAuthHeader: { used: providerReads('providerAuthHeader'), needs: '--provider http' },
  providerTimeoutMs: { used: external, needs: '--provider http or another external system' },
  providerMaxRetries: { used: external, needs: '--provider http or another external system' },
  cacheDir: { used: (config) => config.cache, needs: 'the cache (drop --no-cache)' },
};

const ruleResult = (rule: Rule | undefined, config: RunConfig, provider: ProviderCapabilities) =>
  rule && { used: rule.used(config, provider), needs: rule.needs };

/**
 * One sentence per key the user set (`explicitKeys`: typically those given as flags) that has no
 * effect in the resolved config, e.g. `--top-sessions has no effect without --retriever session-aware.`
 * `provider` is what the selected provider declares (default: an in-process provider's).
 */
export function ineffectiveKeyWarnings(
  config: RunConfig,
  explicitKeys: Iterable<string>,
  provider: ProviderCapabilities = IN_PROCESS_CAPABILITIES,
): string[] {
  const warnings: string[] = [];
  const sections = groupConfig(config);
  for (const key of explicitKeys) {
    // A key a retriever, embedder, reranker or stage owns (components/) matters when a selected one owns it.
    const rule =
      componentKeyUsed(key, sections, provider) ??
      ruleResult(RULES[key as keyof RunConfig], config, provider);
    if (rule && !rule.used) warnings.push(`${flagOfKey(key)} has no effect without ${rule.needs}.`);
  }
  if (judges(config) && config.judgeSamples > 1 && config.judgeTemperature === 0) {
    warnings.push(
      `--judge-samples ${config.judgeSamples} at --judge-temperature 0: the votes will rarely differ (set a temperature such as 0.7 to measure the judge's agreement).`,
    );
  }
  return warnings;
}
