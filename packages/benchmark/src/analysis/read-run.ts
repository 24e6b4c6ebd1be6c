import { existsSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { READ_LIMITS, readGuardedJsonFile } from '../config/read-guarded-file.js';
import type { Sample } from '../results/sample.js';
import type { Exclusion, Summary } from '../results/summary.js';
import { folderFileProblem } from '../run/files/folder-file-problem.js';
import { checkRankings } from '../run/outputs/rankings-check.js';
import { type RunManifest, readManifest } from '../run/outputs/run-manifest.js';
import { readSamplesFile } from '../run/outputs/samples-file.js';
import { summarySchema } from '../run/outputs/summary-schema.js';

/** A results folder as read back from disk. */
export type Run = {
  dir: string;
  /** config.json: `{run_id, config, provenance, dataset: {path, sha256}, finished_at?}`. */
  config: RunManifest;
  /** samples.jsonl, one per question (a question written twice: its last line). */
  samples: Sample[];
  /** summary.json, when the run wrote one. */
  summary?: Summary;
  /** Things worth telling the user that did not stop the read (a torn last line). */
  warnings: string[];
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads samples.jsonl as the runner does (run/outputs/samples-file.ts): a torn last line (no newline, not
 * JSON: a crash mid-write) is dropped and returned as a warning; a bad line elsewhere is an error
 * naming the file and line; a question written twice (re-run after an error) keeps its last line.
 * Every field of every line is checked (run/outputs/sample-schema.ts), naming the file, line and field.
 */
export function readSamples(path: string): { samples: Sample[]; warnings: string[] } {
  const { samples, tornLastLine } = readSamplesFile(path);
  const warnings = tornLastLine
    ? [`${path} ends in a torn line (the run was interrupted mid-write); it was dropped.`]
    : [];
  return { samples, warnings };
}

/**
 * summary.json checked field by field (run/outputs/summary-schema.ts); rows written before lme recorded
 * `counts` (the n of each metric) read with the row's one `n` for each, as that n was then.
 */
function parseSummary(value: unknown, path: string): Summary {
  const checked = summarySchema.safeParse(value);
  if (!checked.success) throw new Error(folderFileProblem(path, checked.error));
  return checked.data as Summary;
}

/**
 * A summary.json read and checked: inside a results folder a link is refused; a file the user names
 * on the command line (a committed baseline) may be one (`links: 'follow'`).
 */
export function readSummaryFile(path: string, links: 'refuse' | 'follow' = 'refuse'): Summary {
  return parseSummary(readGuardedJsonFile(path, { maxBytes: READ_LIMITS.summary, links }), path);
}

function requireDirectory(dir: string): void {
  if (!existsSync(dir)) throw new Error(`Run folder ${dir} does not exist.`);
  if (!statSync(dir).isDirectory()) throw new Error(`${dir} is not a run folder (it is a file).`);
}

/** Reads a results folder: config.json and samples.jsonl (both required), summary.json if present. */
export function readRun(dir: string): Run {
  const absolute = resolve(dir);
  requireDirectory(absolute);
  const configPath = join(absolute, 'config.json');
  const samplesPath = join(absolute, 'samples.jsonl');
  if (!existsSync(configPath)) throw new Error(`Run folder ${absolute} has no config.json.`);
  if (!existsSync(samplesPath)) throw new Error(`Run folder ${absolute} has no samples.jsonl.`);
  const config = readManifest(absolute);
  if (!isObject(config) || typeof config.run_id !== 'string' || !isObject(config.config)) {
    throw new Error(
      `${configPath} is not a run's config.json: it needs a string "run_id" and a "config" object.`,
    );
  }
  const { samples, warnings } = readSamples(samplesPath);
  checkRankings(absolute, config, samples);
  const run: Run = { dir: absolute, config, samples, warnings };
  const summaryPath = join(absolute, 'summary.json');
  if (existsSync(summaryPath)) run.summary = readSummaryFile(summaryPath);
  return run;
}

export type SummarySource = {
  /** The summary.json read. */
  path: string;
  summary: Summary;
  /** The run, when `path` named a results folder. */
  run?: Run;
};

/**
 * A summary to gate or compare against: a results folder (its summary.json; the folder is read
 * and checked too) or a summary.json file on its own, as committed baselines are.
 */
export function readSummaryOrRun(path: string): SummarySource {
  const absolute = resolve(path);
  if (!existsSync(absolute)) {
    throw new Error(`${absolute} does not exist (expected a run folder or a summary.json).`);
  }
  if (statSync(absolute).isDirectory()) {
    const run = readRun(absolute);
    if (run.summary === undefined) {
      throw new Error(
        `Run folder ${absolute} has no summary.json: the run did not finish (lme report summarizes what it holds).`,
      );
    }
    return { path: join(absolute, 'summary.json'), summary: run.summary, run };
  }
  if (basename(absolute) === 'samples.jsonl' || basename(absolute) === 'config.json') {
    return readSummaryOrRun(join(absolute, '..'));
  }
  return { path: absolute, summary: readSummaryFile(absolute, 'follow') };
}

/** The exclusion a run's means use: its configured one under the official convention, else A. */
export function runExclusion(config: RunManifest): Exclusion {
  return config.config.convention === 'official' && config.config.exclusion === 'B' ? 'B' : 'A';
}

/** Whether every sample records its position in the dataset (runs before it was added do not). */
export function hasPositions(samples: readonly Sample[]): boolean {
  return samples.every((sample) => typeof (sample as { position?: unknown }).position === 'number');
}

/** Samples in dataset order when positions are recorded (as the runner summarizes), else as given. */
export function inDatasetOrder(samples: readonly Sample[]): Sample[] {
  if (!hasPositions(samples)) return [...samples];
  return [...samples].sort((a, b) => a.position - b.position);
}
