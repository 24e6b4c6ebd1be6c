import { accessSync, constants, statSync } from 'node:fs';
import { cacheIdentityOf, checkEmbeddingCacheFolder, estimateCost, loadPriceTable } from '@lme/search-core';
import { recognizeBenchmarkPath } from '../../benchmarks/benchmark-registry.js';
import { embedderFamily, resolveEmbedder } from '../../config/component-ids.js';
import { apiKeyVariables, type OpenAiRole, resolveOpenAiEndpoint } from '../../config/openai-endpoints.js';
import type { RunSections } from '../../config/run-sections.js';
import { judges, partsEmbed, stageChatModels, usesPipeline } from '../../config/run-shape.js';
import { checkModelOnDisk } from '../../models/onnx-model-resolver.js';
import { createConfiguredEmbedder } from '../../providers/pipeline/configured-embedder.js';
import { providerCapabilities } from '../../providers/provider-registry.js';
import { ensureDirectory } from '../files/ensure-directory.js';
import { checkReaderSettings } from '../phases/qa-stage.js';
import { checkAnswerSource } from './check-answer-source.js';
import { checkProviderGranularity } from './check-provider-granularity.js';

/** What the run needs from outside, checked before any work; each failure is one sentence. */
export type PreflightOptions = {
  /** The run's settings grouped by owner: the QA roles, the selected embedders and stages, the cache and `--out`. */
  sections: RunSections;
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

/** The models a run calls at OpenAI-compatible endpoints, as the QA stage and pipeline build them. */
export function llmRoles(sections: RunSections): LlmRole[] {
  const { qa } = sections;
  const roles: LlmRole[] = [];
  const pipelineKey = apiKeyVariables('pipeline');
  if (qa.readerModel) {
    roles.push({
      role: 'reader',
      model: qa.readerModel,
      endpoint: 'reader',
      keyVariables: apiKeyVariables('reader'),
      counted: true,
    });
  }
  if (judges(qa)) {
    roles.push({
      role: 'judge',
      model: qa.judgeModel,
      endpoint: 'judge',
      keyVariables: apiKeyVariables('judge'),
      counted: true,
    });
  }
  const provider = providerCapabilities(sections.provider.provider);
  if (usesPipeline(provider)) {
    for (const { role, model } of stageChatModels(sections, provider))
      roles.push({ role, model, endpoint: 'pipeline', keyVariables: pipelineKey, counted: false });
    for (const { id } of partsEmbed(sections, provider) ? sections.embedders : []) {
      if (!embedderFamily(id)?.capabilities.hosted) continue;
      roles.push({
        role: 'embedder',
        model: id,
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
  const { sections, datasetPath } = options;
  const { qa, run } = sections;
  const environment = options.environment ?? process.env;
  // A folder is a dataset only when a benchmark takes it as its own (`Benchmark.recognizesPath`).
  if (!options.datasetInMemory && (await recognizeBenchmarkPath(datasetPath)) === undefined)
    checkDatasetFile(datasetPath);
  const served = { provider: sections.provider.provider, granularity: sections.retrieval.granularity };
  // Reader modes the official script cannot run fail here, before any work (qa-stage.ts).
  if (qa.readerModel) checkReaderSettings({ ...qa, ...served });
  checkAnswerSource({ ...qa, ...served });
  checkProviderGranularity(served);
  // An unknown embedder or model fails here, not once per question. Creating one loads and
  // fetches nothing (hosted embedders are checked with the other endpoints below); a family's
  // `check` looks for its model files (components/embedders/).
  // Its cache folder must be writable: a read-only disk or a file where the folder goes stops
  // the run here, naming the folder, instead of failing every question.
  // Each embedder of a joined name (`a+b`) alone: its vectors are cached under its own identity.
  const inProcess = sections.embedders.filter(({ id }) => !embedderFamily(id)?.capabilities.hosted);
  for (const part of partsEmbed(sections, providerCapabilities(served.provider)) ? inProcess : []) {
    const embedder = createConfiguredEmbedder(
      { ...sections, run: { ...sections.run, cache: false }, embedders: [part] },
      environment,
    );
    await embedder.close?.();
    const { descriptor, model } = resolveEmbedder(part.id);
    await descriptor.check?.(model, part.options, {
      checkModelFiles: ({ modelDir }, name) => checkModelOnDisk({ cacheDir: run.cacheDir, modelDir }, name),
    });
    if (run.cache) await checkEmbeddingCacheFolder(run.cacheDir, cacheIdentityOf(embedder));
  }
  const roles = llmRoles(sections);
  const keyless = roles.filter((role) => {
    const endpoint = resolveOpenAiEndpoint(qa, role.endpoint, environment);
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
  if (qa.maxCost !== undefined) {
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
  ensureDirectory(run.out, '--out');
}
