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
import type { RunConfigInput } from './run-config.js';
import { flagOfKey } from './run-options.js';
import type { RunSections } from './run-sections.js';
import { judges, partsEmbed, readsAndJudges, usesPipeline } from './run-shape.js';

/**
 * When a key changes nothing in a resolved config: the condition under which it is used (read from
 * the config's sections), and the flags that would turn that condition on (for the warning). One
 * rule per key that depends on another, keyed by the key the user set; keys that always matter have none.
 */
type Rule = { used: (sections: RunSections, provider: ProviderCapabilities) => boolean; needs: string };

const { FUSES, DENSE_ROUTE } = RETRIEVER_NEEDS;
const pipeline = (_: RunSections, provider: ProviderCapabilities) => usesPipeline(provider);
const fuses = ({ retrieval }: RunSections, provider: ProviderCapabilities) =>
  usesPipeline(provider) && fusesRoutes(retrieval);
/** The pipeline fuses its routes by a weighted sum (`--fusion weighted|combmnz`). */
const weighs = (sections: RunSections, provider: ProviderCapabilities) =>
  fuses(sections, provider) && sections.routes.fusion !== 'rrf';
const WEIGHS: Rule = { used: weighs, needs: `--fusion weighted|combmnz with ${FUSES}` };
/** What makes the pipeline embed: a dense route, or a stage that compares vectors (`--dedup or --mmr`). */
const EMBEDS = [
  DENSE_ROUTE,
  stageDescriptors()
    .filter((stage) => stage.capabilities.needsVectors)
    .map((stage) => flagOfKey(stage.switch))
    .join(' or '),
].join(', ');
const reads = ({ qa }: RunSections) => readsAndJudges(qa);
const judged = ({ qa }: RunSections) => judges(qa);
/** The retrievers that take BM25's k1, b and feedback (their descriptors' `bm25Settings`). */
const BM25_ROUTE: Rule = {
  used: (sections, provider) =>
    pipeline(sections, provider) && readsRouteSetting(sections.retrieval, 'bm25Settings'),
  needs: RETRIEVER_NEEDS.bm25Settings,
};
const BM25_FEEDBACK: Rule = {
  used: (sections, provider) =>
    BM25_ROUTE.used(sections, provider) && (sections.routes.bm25FeedbackDocs ?? 0) > 0,
  needs: '--bm25-feedback-docs above 0',
};
/** A key the provider declares it reads (`runKeys`: `--provider-url` for http). */
const providerReads = (key: string) => (_: RunSections, provider: ProviderCapabilities) =>
  provider.runKeys?.includes(key) === true;
/** The request budget of an external system. */
const external = (_: RunSections, provider: ProviderCapabilities) => provider.external;
const READER: Rule = { used: reads, needs: '--reader-model' };
const JUDGE: Rule = { used: judged, needs: '--reader-model or --answers provider' };

const RULES: Partial<Record<keyof RunConfigInput, Rule>> = {
  retriever: { used: pipeline, needs: '--provider pipeline' },
  routes: {
    used: (sections, provider) => pipeline(sections, provider) && takesRoutes(sections.retrieval),
    needs: RETRIEVER_NEEDS.routes,
  },
  // A retriever that ranks turns (its documents are turns): stated, not silent.
  granularity: {
    used: (sections, provider) => !(pipeline(sections, provider) && ranksTurns(sections.retrieval)),
    needs: RETRIEVER_NEEDS.granularity,
  },
  tokenizer: { used: pipeline, needs: '--provider pipeline' },
  fusion: { used: fuses, needs: FUSES },
  fusionNormalization: WEIGHS,
  adaptiveWeights: WEIGHS,
  adaptivePower: {
    used: (sections, provider) => weighs(sections, provider) && sections.routes.adaptiveWeights === true,
    needs: '--adaptive-weights',
  },
  denseGap: WEIGHS,
  timeBoost: {
    used: (sections, provider) =>
      pipeline(sections, provider) && readsRouteSetting(sections.retrieval, 'timeBoost'),
    needs: RETRIEVER_NEEDS.timeBoost,
  },
  denseNeighbours: {
    used: ({ retrieval }, provider) =>
      usesPipeline(provider) && readsRouteSetting(retrieval, 'denseNeighbours') && searchesDense(retrieval),
    needs: RETRIEVER_NEEDS.denseNeighbours,
  },
  bm25K1: BM25_ROUTE,
  bm25B: BM25_ROUTE,
  bm25FeedbackDocs: BM25_ROUTE,
  bm25FeedbackWeight: BM25_FEEDBACK,
  bm25FeedbackKeep: BM25_FEEDBACK,
  weights: WEIGHS,
  rrfK: {
    used: (sections, provider) =>
      (fuses(sections, provider) && sections.routes.fusion === 'rrf') ||
      (pipeline(sections, provider) && fusesByRrfAlone(sections.retrieval)),
    needs: RETRIEVER_NEEDS.rrfK,
  },
  embedder: { used: partsEmbed, needs: EMBEDS },
  vectorStore: { used: partsEmbed, needs: EMBEDS },
  feedbackDocs: {
    used: (sections, provider) => partsEmbed(sections, provider) && searchesDense(sections.retrieval),
    needs: DENSE_ROUTE,
  },
  feedbackWeight: {
    used: (sections, provider) =>
      partsEmbed(sections, provider) && searchesDense(sections.retrieval) && sections.routes.feedbackDocs > 0,
    needs: '--feedback-docs above 0',
  },
  seed: { used: ({ data }) => data.limit !== undefined, needs: '--limit' },
  exclusion: { used: ({ data }) => data.convention === 'official', needs: '--convention official' },
  readerPrompt: READER,
  historyFormat: READER,
  readerTopK: READER,
  judgeModel: JUDGE,
  judgeSamples: JUDGE,
  judgeTemperature: JUDGE,
  judge: JUDGE,
  readerBaseUrl: READER,
  judgeBaseUrl: JUDGE,
  providerUrl: { used: providerReads('providerUrl'), needs: '--provider http' },
  providerAuthEnv: { used: providerReads('providerAuthEnv'), needs: '--provider http' },
  providerAuthHeader: { used: providerReads('providerAuthHeader'), needs: '--provider http' },
  providerTimeoutMs: { used: external, needs: '--provider http or another external system' },
  providerMaxRetries: { used: external, needs: '--provider http or another external system' },
  cacheDir: { used: ({ run }) => run.cache, needs: 'the cache (drop --no-cache)' },
};

const ruleResult = (rule: Rule | undefined, sections: RunSections, provider: ProviderCapabilities) =>
  rule && { used: rule.used(sections, provider), needs: rule.needs };

/**
 * One sentence per key the user set (`explicitKeys`, by config key: typically those given as flags)
 * that has no effect in the resolved config's sections, e.g. `--top-sessions has no effect without
 * --retriever session-aware.` `provider` is what the selected provider declares (default: an
 * in-process provider's).
 */
export function ineffectiveKeyWarnings(
  sections: RunSections,
  explicitKeys: Iterable<string>,
  provider: ProviderCapabilities = IN_PROCESS_CAPABILITIES,
): string[] {
  const warnings: string[] = [];
  for (const key of explicitKeys) {
    // A key a retriever, embedder, reranker or stage owns (components/) matters when a selected one owns it.
    const rule =
      componentKeyUsed(key, sections, provider) ??
      ruleResult(RULES[key as keyof RunConfigInput], sections, provider);
    if (rule && !rule.used) warnings.push(`${flagOfKey(key)} has no effect without ${rule.needs}.`);
  }
  const { qa } = sections;
  if (judges(qa) && qa.judgeSamples > 1 && qa.judgeTemperature === 0) {
    warnings.push(
      `--judge-samples ${qa.judgeSamples} at --judge-temperature 0: the votes will rarely differ (set a temperature such as 0.7 to measure the judge's agreement).`,
    );
  }
  return warnings;
}
