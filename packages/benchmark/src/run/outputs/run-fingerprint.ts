import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { sourceHash } from '../../../bin/source-hash.js';
import { loadedPlugins } from '../../components/plugins/load-plugins.js';
import { resolveEmbedder } from '../../config/component-ids.js';
import { embedderParts, NON_RESULT_KEYS } from '../../config/run-config.js';
import type { EmbeddingSection } from '../../config/sections/embedding-section.js';
import { chooseModel, loadModelCatalog } from '../../models/model-catalog.js';
import type { Sample } from '../../results/sample.js';

/**
 * What shaped a run's rankings, hashed (config.json `fingerprint`, issue 35). Two runs with the same
 * `setup` ran the same code on the same data with the same models and result settings, so they
 * must rank alike; `rankings` tells whether they did. A change of code, data, model file or a
 * setting that changes a ranking changes `rankings`, and any change of what goes into `setup`
 * changes `setup` (some of those, a comment or a reader setting, leave the rankings as they were).
 */
export type RunFingerprint = {
  /** SHA-256 over config, code, models and dataset below. */
  setup: string;
  /** SHA-256 of the resolved config without the keys that do not change results (NON_RESULT_KEYS). */
  config: string;
  /**
   * SHA-256 over lme's source files (packages/&#42;/src, tests left out) and pnpm-lock.yaml (the
   * dependencies' versions: ONNX Runtime's kernels decide a vector's last bits); null when the
   * source is not beside the running code.
   */
  code: string | null;
  /** The embedders the run used that read catalogued model files: their files' SHA-256 (as verified on load). */
  models: Record<string, { model: string; tokenizer: string }>;
  /** The dataset text's SHA-256 (config.json `dataset.sha256`). */
  dataset: string | null;
  /** SHA-256 over every question's id and its hits' ids in rank order (as saved, --save-hits). */
  rankings: string;
  /** The questions were made under several setups (`--resume-mixed`; config.json `mixed` lists them). */
  mixed?: true;
};

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The packages folder of this checkout (src/run or dist/run are two levels under a package). */
const PACKAGES_DIR = resolve(import.meta.dirname, '../../../..');

/**
 * SHA-256 over the non-test sources under `packagesDir/<package>/src` and the lockfile beside them:
 * the hash the build is keyed by too (bin/ensure-built.js), so the code a run names is the code that ran.
 */
export function codeSha256(packagesDir: string = PACKAGES_DIR): string | null {
  const sources = sourceHash(packagesDir);
  const plugins = loadedPlugins();
  if (sources === null || plugins.length === 0) return sources;
  // A plugin's components are code the run ran: a changed plugin is changed code.
  const hash = createHash('sha256').update(sources);
  for (const plugin of plugins) hash.update(`\0plugin\0${plugin.sha256}`);
  return hash.digest('hex');
}

/** SHA-256 of the result-shaping part of a config (keys sorted, so their order never matters). */
export function configSha256(config: Readonly<Record<string, unknown>>): string {
  const ignored = new Set<string>(NON_RESULT_KEYS);
  const kept = Object.fromEntries(
    Object.entries(config)
      .filter(([key, value]) => !ignored.has(key) && value !== undefined)
      .sort(([left], [right]) => left.localeCompare(right)),
  );
  return sha256(JSON.stringify(kept));
}

/** SHA-256 over the samples' question ids and hit ids in rank order, in question id order. */
export function rankingsSha256(samples: readonly Pick<Sample, 'question_id' | 'hits'>[]): string {
  const lines = samples
    .map((sample) => {
      const hits = [...sample.hits].sort((left, right) => left.rank - right.rank).map((hit) => hit.id);
      return JSON.stringify([sample.question_id, hits]);
    })
    .sort();
  return sha256(lines.join('\n'));
}

/** The fingerprint of a finished run. `embedderUsed`: the run embedded texts (provider_stats names an embedder). */
export function runFingerprint(options: {
  /** The resolved config (every key: its result-shaping ones are hashed). */
  config: Readonly<Record<string, unknown>> & Pick<EmbeddingSection, 'embedder'>;
  datasetSha256: string | null;
  samples: readonly Pick<Sample, 'question_id' | 'hits'>[];
  embedderUsed: boolean;
  packagesDir?: string;
}): RunFingerprint {
  const { config } = options;
  const models: RunFingerprint['models'] = {};
  for (const part of options.embedderUsed ? embedderParts(config.embedder) : []) {
    // A family that reads model files (components/embedders/) names a catalogued model.
    const { descriptor, model } = resolveEmbedder(part);
    if (!descriptor.capabilities.modelFiles) continue;
    const choice = chooseModel(loadModelCatalog(), model);
    models[choice.name] = { model: choice.files.model.sha256, tokenizer: choice.files.tokenizer.sha256 };
  }
  const parts = {
    config: configSha256(config),
    code: codeSha256(options.packagesDir),
    models,
    dataset: options.datasetSha256,
  };
  return { setup: sha256(JSON.stringify(parts)), ...parts, rankings: rankingsSha256(options.samples) };
}
