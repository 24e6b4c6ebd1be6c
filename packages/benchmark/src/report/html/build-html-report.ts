import { existsSync, readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { compareRuns } from '../../analysis/compare-runs.js';
import { readExplainLines } from '../../analysis/read-explain-lines.js';
import { type Run, readRun } from '../../analysis/read-run.js';
import { buildComparisonTable, type ComparisonTable } from '../../analysis/render-comparison-table.js';
import { READ_LIMITS, readGuardedJsonFile } from '../../config/read-guarded-file.js';
import { readQuestionDetails } from './question-details.js';
import { renderHtmlReport } from './render-html-report.js';
import { buildReportModel, type ReportModel } from './report-model.js';

export type ReportInput = { run: Run; label?: string };

/**
 * The runs a report argument names: a results folder, or an ablation folder (its variants' run
 * folders, in ablation.json's order when it lists them, labelled by variant name).
 */
export function resolveReportInputs(paths: readonly string[]): ReportInput[] {
  const inputs: ReportInput[] = [];
  for (const path of paths) {
    const dir = resolve(path);
    if (!existsSync(dir))
      throw new Error(`${dir} does not exist (expected a run folder or an ablation folder).`);
    if (existsSync(join(dir, 'config.json'))) {
      inputs.push({ run: readRun(dir) });
      continue;
    }
    const variants = readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'samples.jsonl')))
      .map((entry) => entry.name);
    if (variants.length === 0) {
      throw new Error(
        `${dir} is neither a run folder (no config.json) nor an ablation folder (no variant run folders).`,
      );
    }
    const order = ablationOrder(dir);
    variants.sort((a, b) => rank(order, a) - rank(order, b) || a.localeCompare(b));
    for (const name of variants)
      inputs.push({ run: readRun(join(dir, name)), label: `${basename(dir)}/${name}` });
  }
  if (inputs.length === 0) throw new Error('Give at least one run or ablation folder.');
  return inputs;
}

function ablationOrder(dir: string): string[] {
  try {
    const ablation = readGuardedJsonFile(join(dir, 'ablation.json'), { maxBytes: READ_LIMITS.config }) as {
      variants?: { config?: { runId?: string } }[];
    };
    return (ablation.variants ?? []).map((variant) => variant.config?.runId ?? '');
  } catch {
    return [];
  }
}

function rank(order: readonly string[], name: string): number {
  const at = order.indexOf(name);
  return at < 0 ? order.length : at;
}

export type BuildHtmlReportOptions = {
  inputs: readonly ReportInput[];
  /** Paired bootstrap resamples for the comparison table (default 2000). */
  resamples?: number;
  now?: Date;
};

export type BuiltHtmlReport = { html: string; model: ReportModel; warnings: string[] };

/** Reads what the runs hold (and their dataset file, when readable) and renders the report page. */
export async function buildHtmlReport(options: BuildHtmlReportOptions): Promise<BuiltHtmlReport> {
  const runs = options.inputs.map((input) => input.run);
  const warnings = runs.flatMap((run) => run.warnings);
  const notes: string[] = [];

  const questionIds = new Set(runs.flatMap((run) => run.samples.map((sample) => sample.question_id)));
  const sessions = new Map<string, Set<string>>();
  for (const run of runs) {
    for (const sample of run.samples) {
      const set = sessions.get(sample.question_id) ?? new Set<string>();
      for (const hit of sample.hits.slice(0, 10)) set.add(hit.session_id);
      for (const gold of sample.gold_sessions) set.add(gold);
      sessions.set(sample.question_id, set);
    }
  }
  const datasetPath = runs.map((run) => run.config.dataset?.path ?? '').find((path) => path !== '') ?? '';
  const read = await readQuestionDetails(datasetPath, {
    questionIds,
    sessionsOf: (id) => sessions.get(id) ?? new Set(),
  });
  if ('unavailable' in read)
    notes.push(`Question text and evidence turns not available: ${read.unavailable}.`);

  let comparison: ComparisonTable | undefined;
  if (runs.length >= 2) {
    try {
      comparison = buildComparisonTable(compareRuns(runs, { resamples: options.resamples ?? 2000 }));
    } catch (error) {
      warnings.push(`no comparison table: ${(error as Error).message}`);
    }
  }

  const model = buildReportModel({
    runs,
    labels: options.inputs.map((input) => input.label ?? input.run.summary?.label ?? input.run.config.run_id),
    explains: runs.map((run) => readExplainLines(run.dir)),
    ...('details' in read ? { details: read.details } : {}),
    ...(comparison ? { comparison } : {}),
    notes,
    ...(options.now ? { now: options.now } : {}),
  });
  return { html: renderHtmlReport(model), model, warnings };
}
