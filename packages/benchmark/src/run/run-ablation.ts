import { join, resolve } from 'node:path';
import { resolveDatasetPath } from '../benchmarks/dataset-path.js';
import { loadAnyDataset } from '../benchmarks/load-dataset.js';
import { loadPreset } from '../config/presets.js';
import type { RunConfigInput } from '../config/run-config.js';
import { resolveRunSettings } from '../config/run-sections.js';
import { pipelineEmbeds } from '../config/run-shape.js';
import {
  createConfiguredEmbedder,
  type PipelineResources,
} from '../providers/pipeline/configured-embedder.js';
import type { Summary } from '../results/summary.js';
import { expandGrid, type GridAxis, type Variant, variantFolder } from './ablation-grid.js';
import { type LoadedRecords, type RunHooks, runBenchmark } from './run-benchmark.js';

export type AblationOptions = {
  /** Config from defaults, environment and flags shared by every variant (before grid values). */
  base: RunConfigInput;
  environment: RunConfigInput;
  axes: readonly GridAxis[];
  /** The ablation folder: one run folder per variant inside it. */
  dir: string;
  argv?: readonly string[];
  signal?: AbortSignal;
  hooks?: RunHooks & { onVariantStart?(info: { variant: Variant; index: number; total: number }): void };
};

export type AblationResult = {
  dir: string;
  /** Each variant's config as its run took it (flat, as its config.json records it). */
  variants: { variant: Variant; config: Parameters<typeof runBenchmark>[0]; summary: Summary }[];
};

/**
 * Runs every combination of the grid over one dataset: the dataset is read once and one embedder
 * (with its cache) serves every variant that embeds, so no text is embedded twice. A variant's
 * config is defaults < its preset < the base < its grid values.
 */
export async function runAblation(options: AblationOptions): Promise<AblationResult> {
  const variants = expandGrid(options.axes);
  // Each variant resolved up front (a bad one fails before any runs, naming it): flat for
  // ablation.json and its run, grouped for what is shared between variants.
  const settings = variants.map((variant) => {
    const presetName = (variant.overrides.preset ?? options.base.preset) as string | undefined;
    const preset = presetName ? loadPreset(presetName).config : {};
    try {
      return resolveRunSettings({
        ...preset,
        ...options.environment,
        ...options.base,
        ...variant.overrides,
        out: options.dir,
        runId: variantFolder(variant.name),
      });
    } catch (error) {
      throw new Error(`variant ${variant.name}: ${(error as Error).message}`);
    }
  });

  const datasets = new Map<string, LoadedRecords>();
  const embedders = new Map<string, NonNullable<PipelineResources['embedder']>>();
  const results: AblationResult['variants'] = [];
  try {
    for (const [index, variant] of variants.entries()) {
      const { config, sections } = settings[index]!;
      const { data, run } = sections;
      options.hooks?.onVariantStart?.({ variant, index, total: variants.length });
      const path = resolveDatasetPath(data.dataset, data.dataDir);
      const datasetKey = `${path}\0${data.duplicateSessions}`;
      if (!datasets.has(datasetKey)) {
        const loaded = await loadAnyDataset(path, { duplicateSessions: data.duplicateSessions });
        datasets.set(datasetKey, { format: loaded.format, records: loaded.records, sha256: loaded.sha256 });
      }
      const resources: PipelineResources = {};
      if (pipelineEmbeds(sections)) {
        const embedderKey = `${sections.embedding.embedder}\0${run.cache}\0${resolve(run.cacheDir)}`;
        if (!embedders.has(embedderKey)) embedders.set(embedderKey, createConfiguredEmbedder(sections));
        resources.embedder = embedders.get(embedderKey);
      }
      const { summary } = await runBenchmark(config, {
        argv: options.argv,
        signal: options.signal,
        hooks: options.hooks,
        dataset: datasets.get(datasetKey),
        resources,
      });
      results.push({ variant, config, summary });
    }
  } finally {
    for (const embedder of embedders.values()) await embedder.close?.();
  }
  return { dir: resolve(options.dir), variants: results };
}

/** Where a variant's run folder is. */
export function variantDir(dir: string, variant: Variant): string {
  return join(dir, variantFolder(variant.name));
}
