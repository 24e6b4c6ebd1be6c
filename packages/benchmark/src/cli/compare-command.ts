import { join } from 'node:path';
import { Command } from 'commander';
import { compareRuns } from '../analysis/compare-runs.js';
import { DEFAULT_RESAMPLES, DEFAULT_SEED } from '../analysis/paired-bootstrap.js';
import { readRun } from '../analysis/read-run.js';
import { renderComparison } from '../analysis/render-comparison.js';
import { renderComparisonTable } from '../analysis/render-comparison-table.js';
import { refuseOverwritingInput, writeFileNoFollow } from '../run/no-follow-file.js';
import { RUN_FILES } from '../run/run-folder.js';
import { log } from './logger.js';
import { deprecatedOutOption, outputFile } from './output-flag.js';
import { integerFlag } from './parse-flag.js';

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
      'metrics to compare (default: session.recall_all@5, session.recall_any@5, session.ndcg_any@5)',
      listFlag,
    )
    .option(
      '--pairs',
      'after the table, one report per run against the base (config differences, tests, flipped questions)',
    )
    .option('-o, --output <file.md>', 'also write the markdown to this file')
    .addOption(deprecatedOutOption())
    .option('--resamples <n>', `paired bootstrap resamples (default: ${DEFAULT_RESAMPLES})`, integerFlag(1))
    .option('--seed <n>', `paired bootstrap seed (default: ${DEFAULT_SEED})`, integerFlag(0, 2 ** 32 - 1))
    .addHelpText(
      'after',
      "\nThe table has one column per run (its label when it has one), one row per question type × metric: each\nrun's value, its delta from the base and * p < 0.05, ** p < 0.01, *** p < 0.001 from the paired test (exact\nMcNemar for 0/1 metrics, paired bootstrap otherwise), Holm-corrected over the runs × metrics of each row\ngroup. Its first row counts each run's failed questions (in no mean).\n\nExamples:\n  lme compare results/bm25-official results/bm25-words results/hybrid -o compare.md\n  lme compare results/bm25-official results/bm25-words --pairs",
    )
    .action(
      (
        baseDir: string,
        otherDirs: string[],
        flags: {
          metrics?: string[];
          output?: string;
          out?: string;
          resamples?: number;
          seed?: number;
          pairs?: boolean;
        },
      ) => {
        const options = { ...flags, out: outputFile(flags, 'compare') };
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
        }
        const table = renderComparisonTable(result);
        const markdown = options.pairs ? `${table}\n${renderComparison(result)}` : table;
        if (options.out !== undefined) writeFileNoFollow(options.out, markdown);
        process.stdout.write(markdown);
      },
    );
}
