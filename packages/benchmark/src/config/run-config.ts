import { z } from 'zod';
import { type ComponentRegistry, nonMeasuringKeys, optionShape } from '../components/component.js';
import { EMBEDDERS } from '../components/embedders/embedder-registry.js';
import { pluginFileOf } from '../components/plugins/load-plugins.js';
import { RERANKERS } from '../components/rerankers/reranker-registry.js';
import { RETRIEVERS } from '../components/retrievers/retriever-registry.js';
import { STAGES } from '../components/stages/stage-registry.js';
import { DATA_SHAPE } from './sections/data-section.js';
import { EMBEDDING_SHAPE } from './sections/embedding-section.js';
import { PROVIDER_SHAPE } from './sections/provider-section.js';
import { QA_SHAPE } from './sections/qa-section.js';
import { type LegacyRetrieverKey, RETRIEVAL_SHAPE } from './sections/retrieval-section.js';
import { ROUTES_SHAPE } from './sections/routes-section.js';
import { RUN_SHAPE } from './sections/run-section.js';
import { STAGES_SHAPE } from './sections/stages-section.js';

export { DEFAULT_EMBEDDER } from '../components/embedders/embedder-registry.js';

/**
 * Every setting of a run. The CLI maps each flag to one key; presets, environment and flags are
 * merged (defaults < preset < env < flags) and validated here, once. The keys are grouped by owner:
 * a section of config/sections/ each (data, provider, retrieval, routes, embedding, summaries,
 * stages, QA, run), plus the options each retriever, embedder, reranker and stage declares in its own
 * folder (components/). `config/run-sections.ts` groups a resolved config the same way.
 */

/** The embedders an `--embedder` value names: one, or several joined by `+` (their vectors concatenated). */
export const embedderParts = (embedder: string): string[] => embedder.split('+');

/** The weight of BM25 feedback's added terms when a run names none (`--bm25-feedback-weight`). */
export const BM25_FEEDBACK_WEIGHT = 0.5;

/** The keys each component registry owns, for the run config schema. */
const COMPONENT_SHAPE = {
  ...optionShape(RETRIEVERS),
  ...optionShape(EMBEDDERS),
  ...optionShape(RERANKERS),
  ...optionShape(STAGES),
};

const SECTIONS_SHAPE = {
  ...RUN_SHAPE,
  ...DATA_SHAPE,
  ...PROVIDER_SHAPE,
  ...RETRIEVAL_SHAPE,
  ...ROUTES_SHAPE,
  ...EMBEDDING_SHAPE,
  ...STAGES_SHAPE,
  ...QA_SHAPE,
};

// A component (a plugin's, components/plugins/) may not take a key of the config's sections.
for (const registry of [RETRIEVERS, STAGES, EMBEDDERS, RERANKERS] as Readonly<
  Record<string, ComponentRegistry[string]>
>[])
  for (const descriptor of Object.values(registry))
    for (const key of Object.keys(descriptor.options))
      if (Object.hasOwn(SECTIONS_SHAPE, key))
        throw new Error(
          `${pluginFileOf(descriptor) ? `Plugin ${pluginFileOf(descriptor)}` : descriptor.name}: option "${key}" of "${descriptor.name}" is already an option of lme; rename it.`,
        );

export const runConfigSchema = z.object({ ...SECTIONS_SHAPE, ...COMPONENT_SHAPE }).strict();

/**
 * A resolved run config. The old base-retriever booleans (`sessionAware`, `multiRoute`,
 * `multiSource`) are input only: `parseRunConfig` maps them onto `retriever` and drops them.
 */
export type RunConfig = Omit<z.infer<typeof runConfigSchema>, LegacyRetrieverKey>;

/**
 * Keys that do not change what a run measures: a resumed run may differ in these. Every other
 * key must match the stored config (the same dataset, pipeline, conventions and questions). A
 * component's options say so themselves (`measures: false`: `--model-dir`, `--embed-threads`,
 * `--rerank-key-env`).
 */
export const NON_RESULT_KEYS: readonly string[] = [
  'benchmarkDefaults',
  // Where the plugins are; what they are is in the code hash (run-fingerprint.ts).
  'plugins',
  'dataDir',
  'cache',
  'cacheDir',
  'saveHits',
  'concurrency',
  'out',
  'runId',
  'baseUrl',
  'readerBaseUrl',
  'judgeBaseUrl',
  'maxRetries',
  'timeoutMs',
  'maxCost',
  'providerUrl',
  'providerAuthEnv',
  'providerAuthHeader',
  'providerTimeoutMs',
  'providerMaxRetries',
  'explain',
  'overwrite',
  'label',
  ...nonMeasuringKeys(RETRIEVERS),
  ...nonMeasuringKeys(EMBEDDERS),
  ...nonMeasuringKeys(RERANKERS),
  ...nonMeasuringKeys(STAGES),
];

/** Keys whose values differ (compared as JSON) among the configs, in first-seen order, except `ignored`. */
export function differingKeys(
  configs: readonly Readonly<Record<string, unknown>>[],
  ignored: ReadonlySet<string>,
): string[] {
  const keys = new Set(configs.flatMap((config) => Object.keys(config)));
  return [...keys].filter(
    (key) => !ignored.has(key) && new Set(configs.map((config) => JSON.stringify(config[key]))).size > 1,
  );
}

/**
 * A stored config with the default of every key it does not hold: a run stored before a key existed,
 * or that recorded only the options of the components it selected (recorded-config.ts).
 */
export function withDefaults(stored: RunConfig): RunConfig {
  const filled = runConfigSchema.safeParse(stored);
  return filled.success ? { ...filled.data, ...stored } : stored;
}

/**
 * The keys whose values differ between two configs, ignoring NON_RESULT_KEYS, sorted; only `keys`
 * when given (the keys either run records).
 */
export function resultKeyDifferences(
  stored: RunConfig,
  current: RunConfig,
  keys?: ReadonlySet<string>,
): string[] {
  const only = (config: RunConfig): Readonly<Record<string, unknown>> =>
    keys === undefined ? config : Object.fromEntries(Object.entries(config).filter(([key]) => keys.has(key)));
  return differingKeys([only(withDefaults(stored)), only(current)], new Set(NON_RESULT_KEYS)).sort();
}
export type RunConfigInput = z.input<typeof runConfigSchema>;
