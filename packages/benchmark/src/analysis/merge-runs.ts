import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { recordedConfig } from '../config/recorded-config.js';
import { knownProviderCapabilities } from '../providers/provider-registry.js';
import type { Sample } from '../results/sample.js';
import { openRunFolder } from '../run/files/run-folder.js';
import { collectProvenance } from '../run/outputs/provenance.js';
import { partialReason, type RunManifest, resultSettings } from '../run/outputs/run-manifest.js';
import { type RunResult, writeRunOutputs } from '../run/outputs/write-run-outputs.js';
import { checkSetups } from './check-setups.js';
import { checkShards } from './check-shards.js';
import {
  configDifferences,
  formatConfigValue,
  SELECTION_KEYS,
  sharedDatasetHash,
} from './config-differences.js';
import { mergedFingerprint } from './merged-fingerprint.js';
import { hasPositions, type Run } from './read-run.js';

export type MergeOptions = {
  /** The merged run folder. */
  outDir: string;
  /** run_id of the merged run (default: the folder's name). */
  runId?: string;
  /** Recorded in the merged config.json's provenance. */
  argv?: readonly string[];
  /** Merge shard runs that do not make the whole dataset (some `i/n` missing). */
  allowPartial?: boolean;
  /** Merge runs whose int8 embeddings were made on CPUs with different kernel families (recorded). */
  allowMixedCpus?: boolean;
};

/** config.json of a merged run: a run's manifest plus where its questions came from. */
export type MergedManifest = RunManifest & {
  merged_from: {
    dir: string;
    run_id: string;
    questions: number;
    provenance: unknown;
    /** The shard's setup fingerprint (`fingerprint.setup` of its config.json), null when it has none. */
    setup: string | null;
  }[];
  /** Set when the runs embedded on CPUs of different int8 kernel families (--allow-mixed-cpus): each run's family. */
  merged_across_cpus?: Record<string, string>;
};

export type MergeResult = {
  dir: string;
  manifest: MergedManifest;
  /** The union of the runs' samples, in dataset order. */
  samples: Sample[];
  warnings: string[];
  /** Set when a merged run did not finish: the merged summary is partial too. */
  partial?: string;
};

/** Sample fields that vary between two runs of the same question without changing its result. */
const UNSTABLE_FIELDS = new Set(['latency_ms']);

function differingFields(a: Sample, b: Sample): string[] {
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  return [...keys].filter(
    (key) => !UNSTABLE_FIELDS.has(key) && JSON.stringify(left[key]) !== JSON.stringify(right[key]),
  );
}

function label(run: Run): string {
  return `${run.config.run_id} (${run.dir})`;
}

function byQuestionId(a: Sample, b: Sample): number {
  return a.question_id < b.question_id ? -1 : a.question_id > b.question_id ? 1 : 0;
}

/**
 * Merges shard runs into one run: the union of their samples (a question in two runs must have
 * the same result, latencies aside, and is kept once). Shard runs must make one whole run
 * (checkShards: the same count, none twice, none missing unless `allowPartial`). Refuses runs made
 * with different code, model files or dataset (checkSetups, from their setup fingerprints), or on
 * CPUs whose int8 kernels differ unless `allowMixedCpus`, and runs whose configs differ in a
 * result-affecting key (anything but NON_RESULT_KEYS and the question selection: shard, ids,
 * types, limit, seed) or whose datasets differ; selection keys that differ are dropped from the
 * merged config.
 *
 * Samples are put in dataset order (their `position`), the order the runner summarizes in, so the
 * merged means equal an unsharded run's bit for bit. Runs written before positions were recorded
 * are ordered by question id, with a warning: their means can then differ in the last bits.
 * The merged run gets the fingerprint one unsharded run would have (mergedFingerprint).
 */
export function mergeRuns(runs: readonly Run[], options: MergeOptions): MergeResult {
  const first = runs[0];
  if (first === undefined) throw new Error('Give at least one run folder to merge.');
  const dir = resolve(options.outDir);
  const runId = options.runId ?? basename(dir);
  const warnings = runs.flatMap((run) => run.warnings);
  const manifests = runs.map((run) => run.config);

  const setups = checkSetups(runs, { allowMixedCpus: options.allowMixedCpus ?? false });
  const differences = configDifferences(manifests, SELECTION_KEYS);
  if (differences.length > 0) {
    // A dataset whose text differs is named as such; any other key is a setting.
    const ofDataset = differences.filter(({ key }) => key.startsWith('dataset.'));
    const shown = ofDataset.length > 0 ? ofDataset : differences;
    const listed = shown
      .map(
        ({ key, values }) =>
          `${key} (${values.map((value, index) => `${runs[index]!.config.run_id}: ${formatConfigValue(value)}`).join(', ')})`,
      )
      .join('; ');
    throw new Error(
      `Cannot merge runs made with different ${ofDataset.length > 0 ? 'dataset' : 'settings'}: ${listed}.`,
    );
  }
  warnings.push(...setups.warnings);
  warnings.push(...checkShards(runs, { allowPartial: options.allowPartial ?? false }));
  const unfinished = runs.filter((run) => partialReason(run.config) !== undefined || run.summary?.partial);
  for (const run of unfinished) {
    warnings.push(`Run ${label(run)} did not finish; only the questions it completed are merged.`);
  }

  const byQuestion = new Map<string, { sample: Sample; run: Run }>();
  for (const run of runs) {
    for (const sample of run.samples) {
      const earlier = byQuestion.get(sample.question_id);
      if (earlier === undefined) {
        byQuestion.set(sample.question_id, { sample, run });
        continue;
      }
      const fields = differingFields(earlier.sample, sample);
      if (fields.length > 0) {
        throw new Error(
          `Question ${sample.question_id} is in run ${label(earlier.run)} and run ${label(run)} with different results (${fields.join(', ')}).`,
        );
      }
    }
  }

  const samples = [...byQuestion.values()].map(({ sample }) => sample);
  if (hasPositions(samples)) {
    const atPosition = new Map<number, string>();
    for (const sample of samples) {
      const other = atPosition.get(sample.position);
      if (other !== undefined) {
        throw new Error(
          `Questions ${other} and ${sample.question_id} both claim dataset position ${sample.position}; the runs read different datasets.`,
        );
      }
      atPosition.set(sample.position, sample.question_id);
    }
    samples.sort((a, b) => a.position - b.position);
  } else {
    samples.sort(byQuestionId);
    warnings.push(
      'Some samples record no dataset position (runs older than the position field); the merged samples are ordered by question id, so means may differ from an unsharded run in the last bits.',
    );
  }

  // Recorded as one run of the same command would record it (recorded-config.ts); a provider this
  // lme does not know (a plugin's not loaded now) leaves the config as the shards recorded it.
  const provider = knownProviderCapabilities(first.config.config.provider);
  const recorded = provider ? recordedConfig(first.config.config, provider) : first.config.config;
  const config: Record<string, unknown> = { ...recorded, runId, out: dirname(dir) };
  const differingSelection = configDifferences(manifests).filter(({ key }) => SELECTION_KEYS.includes(key));
  for (const { key } of differingSelection) delete config[key];
  const hash = sharedDatasetHash(manifests);
  const fingerprint = mergedFingerprint({
    config: resultSettings(config as RunManifest['config']),
    shards: manifests.map((manifest) => manifest.fingerprint),
    samples,
  });
  const manifest: MergedManifest = {
    run_id: runId,
    config: config as RunManifest['config'],
    provenance: collectProvenance(options.argv ?? []),
    dataset: {
      path: first.config.dataset?.path ?? '',
      sha256:
        hash !== null && hash !== 'differ'
          ? hash
          : (manifests.find((manifest) => manifest.dataset?.sha256)?.dataset.sha256 ?? null),
    },
    merged_from: runs.map((run) => ({
      dir: run.dir,
      run_id: run.config.run_id,
      questions: run.samples.length,
      provenance: run.config.provenance ?? null,
      setup: run.config.fingerprint?.setup ?? null,
    })),
    ...(setups.mixedCpus === undefined ? {} : { merged_across_cpus: setups.mixedCpus }),
    ...(fingerprint === null ? {} : { fingerprint }),
    finished_at: new Date().toISOString(),
  };
  const partial =
    unfinished.length === 0
      ? undefined
      : `${unfinished.length === 1 ? 'run' : 'runs'} ${unfinished.map(label).join(', ')} did not finish`;
  return { dir, manifest, samples, warnings, ...(partial === undefined ? {} : { partial }) };
}

/**
 * Writes a merged run as a results folder: the summary, CSVs, report (and hypotheses.jsonl)
 * exactly as the runner writes them, config.json, and samples.jsonl last, whole, so a merge killed
 * on the way leaves no samples to block the next one (only a folder holding samples is refused)
 * and the next merge removes the temporary files it left.
 */
export function writeMergedRun(merged: MergeResult): RunResult {
  const samplesPath = join(merged.dir, 'samples.jsonl');
  if (existsSync(samplesPath) && statSync(samplesPath).size > 0) {
    throw new Error(`Run folder ${merged.dir} already holds samples.jsonl; choose another --out.`);
  }
  if (existsSync(merged.dir)) {
    for (const name of readdirSync(merged.dir)) {
      if (/^\..+\.lme-tmp-\d+-[0-9a-f]+$/.test(name)) rmSync(join(merged.dir, name), { force: true });
    }
  }
  const folder = openRunFolder(merged.dir);
  try {
    const result = writeRunOutputs(folder, merged.manifest, merged.samples, merged.partial);
    folder.writeJson('config.json', merged.manifest);
    folder.rewriteSamples(merged.samples);
    return result;
  } finally {
    folder.close();
  }
}
