import { z } from 'zod';
import { ownOptions } from '../components/component.js';
import { type SelectedStage, selectedStages } from '../components/stages/stage-registry.js';
import { familyOf } from './component-ids.js';
import { COMPONENT_KINDS, type ComponentKind, type SelectedComponent } from './component-kinds.js';
import { ConfigError } from './config-error.js';
import { fromLegacyRetrieverKeys, settleBaseRetriever } from './retriever-settle.js';
import { embedderParts, type RunConfig, type RunConfigInput, runConfigSchema } from './run-config.js';
import { flagOfKey } from './run-options.js';
import { DATA_SHAPE, type DataSection } from './sections/data-section.js';
import { EMBEDDING_SHAPE, type EmbeddingSection } from './sections/embedding-section.js';
import { PROVIDER_SHAPE, type ProviderSection } from './sections/provider-section.js';
import { QA_SHAPE, type QaSection } from './sections/qa-section.js';
import {
  type LegacyRetrieverKey,
  RETRIEVAL_SHAPE,
  type RetrievalSection,
} from './sections/retrieval-section.js';
import { ROUTES_SHAPE, type RoutesSection } from './sections/routes-section.js';
import { RUN_SHAPE, type RunSection } from './sections/run-section.js';
import { STAGES_SHAPE, type StagesSection } from './sections/stages-section.js';

export type { SelectedComponent } from './component-kinds.js';

/**
 * A resolved run config grouped by owner: a section per part of the run (data, provider,
 * retrieval, routes, embedding, stages, QA, run) and the selected components with their
 * own options. Code that needs one part takes that section (its type from config/sections/), never
 * the whole config; a component's factory takes its `options`.
 */
export type RunSections = {
  readonly run: RunSection;
  readonly data: DataSection;
  readonly provider: ProviderSection;
  readonly retrieval: Omit<RetrievalSection, LegacyRetrieverKey>;
  readonly routes: RoutesSection;
  readonly embedding: EmbeddingSection;
  readonly stages: StagesSection;
  readonly qa: QaSection;
  readonly retriever: SelectedComponent;
  readonly embedders: readonly SelectedComponent[];
  readonly reranker: SelectedComponent | undefined;
  /** The pipeline's stages the config turns on (components/stages/), in the order they run, each with its own options. */
  readonly pipelineStages: readonly SelectedStage[];
};

function pick<T>(config: RunConfig, shape: object): T {
  const source = config as Readonly<Record<string, unknown>>;
  return Object.fromEntries(
    Object.keys(shape)
      .filter((key) => source[key] !== undefined)
      .map((key) => [key, source[key]]),
  ) as T;
}

function selected(kind: ComponentKind, id: string, config: RunConfig): SelectedComponent {
  const name = kind === COMPONENT_KINDS.retriever ? id : familyOf(id);
  const descriptor = Object.hasOwn(kind.registry, name) ? kind.registry[name] : undefined;
  return { id, name, options: descriptor ? ownOptions(descriptor, config) : {} };
}

/** A resolved config grouped by owner (what `RunSections` says). */
export function groupConfig(config: RunConfig): RunSections {
  const { retriever, embedder, reranker } = COMPONENT_KINDS;
  return {
    run: pick(config, RUN_SHAPE),
    data: pick(config, DATA_SHAPE),
    provider: pick(config, PROVIDER_SHAPE),
    retrieval: pick(config, RETRIEVAL_SHAPE),
    routes: pick(config, ROUTES_SHAPE),
    embedding: pick(config, EMBEDDING_SHAPE),
    stages: pick(config, STAGES_SHAPE),
    qa: pick(config, QA_SHAPE),
    retriever: selected(retriever, config.retriever, config),
    embedders: embedderParts(config.embedder).map((id) => selected(embedder, id, config)),
    reranker: config.reranker === undefined ? undefined : selected(reranker, config.reranker, config),
    pipelineStages: selectedStages(config),
  };
}

/**
 * Validates a merged config; throws one sentence per bad key, naming the key. The old
 * base-retriever booleans are mapped onto `retriever` first, and the config is held to its base
 * retriever's descriptor (config/retriever-settle.ts).
 */
export function parseRunConfig(input: RunConfigInput): RunConfig {
  const parsed = runConfigSchema.safeParse(fromLegacyRetrieverKeys(input));
  if (parsed.success) {
    const config = settleBaseRetriever(parsed.data);
    // A chunk unit names its granularity (a retriever that ranks turns refuses `session`).
    if (config.chunkUnit) config.granularity = config.chunkUnit === 'session' ? 'session' : 'turn';
    return config;
  }
  const problems = parsed.error.issues.map((issue) => {
    const key = issue.path.join('.') || '(config)';
    const flag = issue.path.length > 0 ? flagOfKey(String(issue.path[0])) : key;
    return `${key}: ${issue.message}${flag === key ? '' : ` (${flag})`}`;
  });
  throw new ConfigError(
    `Invalid configuration: ${problems.join('; ')}.`,
    parsed.error.issues.map((issue) => String(issue.path[0] ?? '(config)')),
  );
}

/** A config input validated (`parseRunConfig`: one sentence per bad key) and grouped by owner. */
export const parseRunSections = (input: RunConfigInput): RunSections => groupConfig(parseRunConfig(input));

/**
 * A run's settings resolved once from its input: `config` flat, as config.json records it and
 * resume compares it (`RunManifest['config']`), and the same grouped by owner, which is what every
 * other reader takes.
 */
export type ResolvedRunSettings = { readonly config: RunConfig; readonly sections: RunSections };

/** `parseRunSections` keeping the flat form beside the sections (`ResolvedRunSettings`). */
export function resolveRunSettings(input: RunConfigInput): ResolvedRunSettings {
  const config = parseRunConfig(input);
  return { config, sections: groupConfig(config) };
}

const DATASET_SOURCE = z.object({ dataset: DATA_SHAPE.dataset, dataDir: DATA_SHAPE.dataDir });

/**
 * The dataset a config input names and where it looks for it, at their defaults where unset: what
 * finds the dataset's benchmark before the config is resolved. Values the schema refuses are
 * refused here as the whole parse would, naming the key.
 */
export function datasetSourceOf(input: RunConfigInput): Pick<DataSection, 'dataset' | 'dataDir'> {
  const source = DATASET_SOURCE.safeParse(input);
  return source.success ? source.data : parseRunConfig(input);
}
