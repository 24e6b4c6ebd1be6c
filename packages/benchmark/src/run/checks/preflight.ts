import { accessSync, constants, statSync } from 'node:fs';
import { cacheIdentityOf, checkEmbeddingCacheFolder, estimateCost, loadPriceTable } from '@lme/search-core';
import { recognizeBenchmarkPath } from '../../benchmarks/benchmark-registry.js';
import { embedderFamily, resolveEmbedder } from '../../config/component-ids.js';
import {
  apiKeyVariables,
  type EndpointSettings,
  type OpenAiRole,
  resolveOpenAiEndpoint,
} from '../../config/openai-endpoints.js';
import { embedderParts } from '../../config/run-config.js';
import { embeds, judges, stageChatModels, usesPipeline } from '../../config/run-shape.js';
import type { EmbeddingSection } from '../../config/sections/embedding-section.js';
import type { QaSection } from '../../config/sections/qa-section.js';
import type { RunSection } from '../../config/sections/run-section.js';
import { checkModelOnDisk } from '../../models/onnx-model-resolver.js';
import {
  createConfiguredEmbedder,
  type EmbedderSections,
} from '../../providers/pipeline/configured-embedder.js';
import { providerCapabilities } from '../../providers/provider-registry.js';
import { ensureDirectory } from '../files/ensure-directory.js';
import { checkReaderSettings } from '../phases/qa-stage.js';
import { checkAnswerSource } from './check-answer-source.js';
import { checkProviderGranularity } from './check-provider-granularity.js';

/**
 * The settings preflight reads: the embedders' names, the cache, the endpoints, the LLM roles, the
 * reader's, `--max-cost` and `--out`, as the checks it asks take them.
 */
export type PreflightSettings = Pick<EmbeddingSection, 'embedder'> &
  Pick<RunSection, 'cache' | 'cacheDir' | 'out'> &
  EndpointSettings &
  Pick<QaSection, 'readerModel' | 'judgeModel' | 'maxCost'> &
  Parameters<typeof embeds>[0] &
  Parameters<typeof stageChatModels>[0] &
  Parameters<typeof checkReaderSettings>[0] &
  Parameters<typeof checkAnswerSource>[0] &
  Parameters<typeof checkProviderGranularity>[0];

/** What the run needs from outside, checked before any work; each failure is one sentence. */
export type PreflightOptions = {
  config: PreflightSettings;
  /** The selected embedders with their own options, and what they share of the run (`RunSections`). */
  sections: EmbedderSections;
  datasetPath: string;
  /** API keys and endpoints are read from here (the process environment by default). */
  environment?: NodeJS.ProcessEnv;
  /** The dataset is already in memory (ablations): its file is not checked again. */
  datasetInMemory?: boolean;
};

const OPENAI_HOST = 'api.openai.com';

/** A model a run will call at an OpenAI-compatible endpoint. */
export type LlmRole = {
  /** reader, judge, embedder, or a stage's role (its `chatModel`: summarizer, contextual). */
  role: string;
  model: string;
  /** Whose endpoint and key it uses (config/openai-endpoints.ts). */
  endpoint: OpenAiRole;
  /** Environment variables that may hold its key, in the order they are read. */
  keyVariables: string[];
  /** Whether the run's spend (--max-cost) counts this role's calls. */
  counted: boolean;
};

/** The models a config calls at OpenAI-compatible endpoints, as the QA stage and pipeline build them. */
export function llmRoles(config: PreflightSettings): LlmRole[] {
  const roles: LlmRole[] = [];
  const pipelineKey = apiKeyVariables('pipeline');
  if (config.readerModel) {
    roles.push({
      role: 'reader',
      model: config.readerModel,
      endpoint: 'reader',
      keyVariables: apiKeyVariables('reader'),
      counted: true,
    });
  }
  if (judges(config)) {
    roles.push({
      role: 'judge',
      model: config.judgeModel,
      endpoint: 'judge',
      keyVariables: apiKeyVariables('judge'),
      counted: true,
    });
  }
  const provider = providerCapabilities(config.provider);
  if (usesPipeline(provider)) {
    for (const { role, model } of stageChatModels(config, provider))
      roles.push({ role, model, endpoint: 'pipeline', keyVariables: pipelineKey, counted: false });
    for (const part of embeds(config, provider) ? embedderParts(config.embedder) : []) {
      if (!embedderFamily(part)?.capabilities.hosted) continue;
      roles.push({
        role: 'embedder',
        model: part,
        endpoint: 'pipeline',
        keyVariables: pipelineKey,
        counted: false,
      });
    }
  }
  return roles;
}

function isOpenAiApi(baseUrl: string | undefined): boolean {
  if (baseUrl === undefined) return true;
  try {
    return new URL(baseUrl).hostname === OPENAI_HOST;
  } catch {
    return false;
  }
}

/** Refuses a dataset path that is missing, a folder, empty or unreadable, naming the path. */
export function checkDatasetFile(path: string): void {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) throw new Error(`Dataset ${path} does not exist (check --dataset and --data-dir).`);
  if (stat.isDirectory()) throw new Error(`Dataset ${path} is a folder, not a dataset file (--dataset).`);
  if (stat.size === 0) throw new Error(`Dataset ${path} is empty (0 bytes) (--dataset).`);
  try {
    accessSync(path, constants.R_OK);
  } catch (error) {
    throw new Error(`Dataset ${path} cannot be read (${(error as NodeJS.ErrnoException).code}).`);
  }
}

/**
 * Everything a run needs before its first question: a readable dataset, an API key for every LLM
 * role served by the OpenAI API, a price for every counted model when `--max-cost` is set, and a
 * writable `--out`. Throws the first problem as one sentence.
 */
export async function preflightRun(options: PreflightOptions): Promise<void> {
  const { config, datasetPath } = options;
  const environment = options.environment ?? process.env;
  // A folder is a dataset only when a benchmark takes it as its own (`Benchmark.recognizesPath`).
  if (!options.datasetInMemory && (await recognizeBenchmarkPath(datasetPath)) === undefined)
    checkDatasetFile(datasetPath);
  // Reader modes the official script cannot run fail here, before any work (qa-stage.ts).
  if (config.readerModel) checkReaderSettings(config);
  checkAnswerSource(config);
  checkProviderGranularity(config);
  // An unknown embedder or model fails here, not once per question. Creating one loads and
  // fetches nothing (hosted embedders are checked with the other endpoints below); a family's
  // `check` looks for its model files (components/embedders/).
  // Its cache folder must be writable: a read-only disk or a file where the folder goes stops
  // the run here, naming the folder, instead of failing every question.
  // Each embedder of a joined name (`a+b`) alone: its vectors are cached under its own identity.
  const { sections } = options;
  const inProcess = sections.embedders.filter(({ id }) => !embedderFamily(id)?.capabilities.hosted);
  for (const part of embeds(config, providerCapabilities(config.provider)) ? inProcess : []) {
    const embedder = createConfiguredEmbedder(
      { ...sections, run: { ...sections.run, cache: false }, embedders: [part] },
      environment,
    );
    await embedder.close?.();
    const { descriptor, model } = resolveEmbedder(part.id);
    await descriptor.check?.(model, part.options, {
      checkModelFiles: ({ modelDir }, name) =>
        checkModelOnDisk({ cacheDir: config.cacheDir, modelDir }, name),
    });
    if (config.cache) await checkEmbeddingCacheFolder(config.cacheDir, cacheIdentityOf(embedder));
  }
  const roles = llmRoles(config);
  const keyless = roles.filter((role) => {
    const endpoint = resolveOpenAiEndpoint(config, role.endpoint, environment);
    return isOpenAiApi(endpoint.baseURL) && !endpoint.apiKey;
  });
  if (keyless.length > 0) {
    const perRole = [...new Set(keyless.flatMap((role) => role.keyVariables))].filter(
      (name) => name !== 'OPENAI_API_KEY',
    );
    throw new Error(
      `No API key for the ${keyless.map((role) => `${role.role} (${role.model})`).join(', ')} at the OpenAI API: set OPENAI_API_KEY${perRole.length > 0 ? ` (or ${perRole.join(' / ')})` : ''}, or point --base-url at another endpoint.`,
    );
  }
  if (config.maxCost !== undefined) {
    const uncounted = roles.filter((role) => !role.counted && role.role !== 'embedder');
    if (uncounted.length > 0) {
      throw new Error(
        `--max-cost cannot be enforced: it counts reader and judge calls, not the ${uncounted.map((role) => `${role.role} (${role.model})`).join(' or ')} calls this config makes; drop --max-cost or those LLM roles.`,
      );
    }
    const counted = roles.filter((role) => role.counted);
    const prices = await loadPriceTable();
    const unpriced = counted.filter(
      (role) => estimateCost(role.model, { promptTokens: 1, completionTokens: 1 }, prices).usd === null,
    );
    if (unpriced.length > 0) {
      throw new Error(
        `--max-cost cannot be enforced: ${unpriced.map((role) => `the ${role.role} model "${role.model}"`).join(' and ')} ${unpriced.length === 1 ? 'has' : 'have'} no price in configs/prices.json; add ${unpriced.length === 1 ? 'its price' : 'their prices'} or drop --max-cost.`,
      );
    }
  }
  ensureDirectory(config.out, '--out');
}
