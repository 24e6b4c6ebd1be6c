import { Command } from 'commander';
import { mergeRuns, writeMergedRun } from '../analysis/merge-runs.js';
import { readRun } from '../analysis/read-run.js';
import { checkRunId } from '../run/run-id.js';
import { EXIT } from './exit-codes.js';
import { log } from './logger.js';

export function mergeCommand(): Command {
  return new Command('merge')
    .description('merge shard runs into one results folder, summarized as one unsharded run')
    .argument('<run-dirs...>', 'results folders of the shards')
    .requiredOption('-o, --out <dir>', 'the merged results folder (must not hold samples.jsonl yet)')
    .option('--run-id <id>', 'run_id of the merged run (default: the name of --out)')
    .option('--allow-partial', 'merge shard runs that do not cover every shard (e.g. 1/4 and 2/4 alone)')
    .option(
      '--allow-mixed-cpus',
      'merge runs whose int8 embeddings were made on CPUs with different kernels (their vectors differ in the last digits; recorded in config.json)',
    )
    .addHelpText(
      'after',
      '\nExample:\n  lme merge results/s-shard-0 results/s-shard-1 --out results/s-merged',
    )
    .action(
      (
        dirs: string[],
        options: { out: string; runId?: string; allowPartial?: boolean; allowMixedCpus?: boolean },
      ) => {
        if (options.runId !== undefined) checkRunId(options.runId);
        const runs = dirs.map((dir) => readRun(dir));
        const merged = mergeRuns(runs, {
          outDir: options.out,
          ...(options.runId === undefined ? {} : { runId: options.runId }),
          argv: process.argv.slice(2),
          allowPartial: options.allowPartial ?? false,
          allowMixedCpus: options.allowMixedCpus ?? false,
        });
        for (const warning of merged.warnings) log.warn(warning);
        const { table, summary } = writeMergedRun(merged);
        process.stdout.write(
          `merged ${merged.samples.length} questions from ${runs.length} ${runs.length === 1 ? 'run' : 'runs'}\n\n${table}\nresults: ${merged.dir}\n`,
        );
        // Failed questions in a shard are failed questions of the merged run (exit 2, as lme run).
        if (summary.errors > 0) {
          const failed = summary.first_error;
          process.stderr.write(
            `${summary.errors} of ${summary.n} questions failed${failed ? `; first: ${failed.question_id}: ${failed.message}` : ''}; rerun that shard with --resume <shard dir> --retry-errors, then merge again\n`,
          );
          process.exitCode = EXIT.failedQuestions;
        }
      },
    );
}
