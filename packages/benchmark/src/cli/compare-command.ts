import { join } from 'node:path';
import { Command, Option } from 'commander';
import {
  type ComparisonResult,
  compareRuns,
  DEFAULT_COMPARE_METRICS,
  MAX_ADDED_METRICS,
  TURN_COMPARE_METRICS,
} from '../analysis/compare-runs.js';
import { renderComparisonCsv, renderComparisonJson } from '../analysis/comparison-rows.js';
import { DEFAULT_RESAMPLES, DEFAULT_SEED } from '../analysis/paired-bootstrap.js';
import { readRun } from '../analysis/read-run.js';
import { renderComparison } from '../analysis/render-comparison.js';
import { describeHiddenDifferences, renderComparisonTable } from '../analysis/render-comparison-table.js';
import { refuseOverwritingInput, writeFileNoFollow } from '../run/files/no-follow-file.js';
import { RUN_FILES } from '../run/files/run-folder.js';
import { log } from './logger.js';
import { deprecatedOutOption, outputFile } from './output-flag.js';
import { integerFlag } from './parse-flag.js';

const FORMATS = ['md', 'json', 'csv'] as const;
type CompareFormat = (typeof FORMATS)[number];

/** The comparison in the chosen format: md the table (and --pairs reports), json/csv tidy rows. */
function renderAs(format: CompareFormat, result: ComparisonResult, pairs: boolean): string {
  if (format === 'json') return renderComparisonJson(result);
  if (format === 'csv') return renderComparisonCsv(result);
  const table = renderComparisonTable(result);
  return pairs ? `${table}\n${renderComparison(result)}` : table;
}

/** `a,b` → ['a', 'b'] (empty items dropped). */
export function listFlag(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

export function compareCommand(): Command {
  return new Command('compare')
    .description(
      'compare runs with the first (the base): one side-by-side table of values, deltas and Holm-corrected paired tests; --pairs adds a report per run',
    )
    .argument('<base-run>', 'results folder of the base run')
    .argument('<runs...>', 'results folders to compare with the base')
    .option(
      '--metrics <m1,m2>',
      `metrics to compare, or "all" for every metric both runs have (default: those of ${DEFAULT_COMPARE_METRICS.join(', ')} that both runs have, the turn figures ${TURN_COMPARE_METRICS.slice(0, 3).join(', ')} first instead of the session ones when both runs rank turns; when none of these differs, up to ${MAX_ADDED_METRICS} metrics that do are added; others that differ are named below the table)`,
      listFlag,
    )
    .option(
      '--pairs',
      'after the table, one report per run against the base (config differences, tests, flipped questions)',
    )
    .addOption(
      new Option(
        '--format <format>',
        'md: the table as markdown; json or csv: one row per run × question type × metric (values, delta, n of each side, paired n, p-values, CI) for pandas and CI',
      )
        .choices(FORMATS)
        .default('md'),
    )
    .option('-o, --output <file>', 'also write the output to this file')
    .addOption(deprecatedOutOption())
    .option('--resamples <n>', `paired bootstrap resamples (default: ${DEFAULT_RESAMPLES})`, integerFlag(1))
    .option('--seed <n>', `paired bootstrap seed (default: ${DEFAULT_SEED})`, integerFlag(0, 2 ** 32 - 1))
    .addHelpText(
      'after',
      "\nThe table has one column per run (its label when it has one), one row per question type × metric: each\nrun's value, its delta from the base and * p < 0.05, ** p < 0.01, *** p < 0.001 from the paired test (exact\nMcNemar for 0/1 metrics, paired bootstrap otherwise), Holm-corrected over the runs × metrics of each row\ngroup. Its first row counts each run's failed questions (in no mean). n is the questions in the base's mean of\neach metric: retrieval metrics leave abstention questions out of overall, QA metrics count them.\n\nExamples:\n  lme compare results/bm25-official results/bm25-words results/hybrid -o compare.md\n  lme compare results/bm25-official results/bm25-words --pairs\n  lme compare results/qa-a results/qa-b --format json > compare.json",
    )
    .action(
      (
        baseDir: string,
        otherDirs: string[],
        flags: {
          metrics?: string[];
          output?: string;
          out?: string;
          format: CompareFormat;
          resamples?: number;
          seed?: number;
          pairs?: boolean;
        },
      ) => {
        const options = { ...flags, out: outputFile(flags, 'compare') };
        if (options.pairs && options.format !== 'md') {
          throw new Error(`--pairs adds markdown reports; it goes with --format md, not ${options.format}.`);
        }
        const runs = [baseDir, ...otherDirs].map((dir) => readRun(dir));
        if (options.out !== undefined) {
          refuseOverwritingInput(
            options.out,
            runs.flatMap((run) => RUN_FILES.map((name) => join(run.dir, name))),
          );
        }
        for (const run of runs) for (const warning of run.warnings) log.warn(warning);
        const result = compareRuns(runs, {
          ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
          ...(options.resamples === undefined ? {} : { resamples: options.resamples }),
          ...(options.seed === undefined ? {} : { seed: options.seed }),
        });
        for (const comparison of result.comparisons) {
          for (const warning of comparison.warnings) log.warn(warning);
          // The markdown table says it below itself; json and csv rows hold the compared metrics only.
          const hidden = describeHiddenDifferences(
            comparison,
            comparison.other.label ?? comparison.other.runId,
          );
          if (options.format !== 'md' && hidden !== null) log.warn(hidden);
        }
        const output = renderAs(options.format, result, options.pairs ?? false);
        if (options.out !== undefined) writeFileNoFollow(options.out, output);
        process.stdout.write(output);
      },
    );
}
