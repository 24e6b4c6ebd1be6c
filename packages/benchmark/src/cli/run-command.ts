import { Command } from 'commander';
import { planRun, renderPlan } from '../run/plan-run.js';
import { RunInterruptedError, readManifest, runBenchmark, selectRecords } from '../run/run-benchmark.js';
import { EXIT } from './exit-codes.js';
import { createProgress } from './progress.js';
import { addRunOptions, resolveRunConfig } from './run-option-flags.js';
import { describeRunOutcome } from './run-outcome.js';

/**
 * The run options (declared once in config/run-options.ts) as commander options, and the config a
 * command line asks for, are in run-option-flags.ts; re-exported for the commands that share them.
 */
export { configFromEnvironment } from '../config/run-options.js';
export {
  addRunOptions,
  configFromFlags,
  FLAG_KEYS,
  type ResolvedRunConfig,
  resolveRunConfig,
} from './run-option-flags.js';

export function runCommand(): Command {
  return addRunOptions(new Command('run').description('run a benchmark and write a results folder'))
    .option('--resume <run-dir>', 'continue a run: skip the questions already in its samples.jsonl')
    .option('--retry-errors', 'with --resume, run again the questions that ended in an error')
    .option(
      '--dry-run',
      'print the plan (questions, documents, texts to embed, LLM calls, tokens, cost) and stop',
    )
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  LME_DATA_DIR=../shared/datasets/longmemeval lme run --dataset s --retriever bm25 --tokenizer official\n' +
        '  lme run --resume results/<run-id>          continue after a crash or Ctrl-C',
    )
    .action(
      async (options: { resume?: string; retryErrors?: boolean; dryRun?: boolean }, command: Command) => {
        if (options.retryErrors && !options.resume)
          throw new Error('--retry-errors needs --resume <run-dir>.');
        // A resumed run starts from its stored config; flags may only change keys that do not
        // affect results (the runner refuses otherwise, naming the keys).
        const stored = options.resume ? readManifest(options.resume).config : {};
        const { config, warnings } = resolveRunConfig(command, stored);
        for (const warning of warnings) process.stderr.write(`lme: warning: ${warning}\n`);
        if (options.dryRun) {
          process.stdout.write(renderPlan(await planRun(config, await selectRecords(config))));
          return;
        }
        const progress = createProgress('questions');
        const controller = new AbortController();
        let runDir: string | undefined;
        const resumeHint = () => (runDir ? ` Continue with: lme run --resume ${runDir}` : '');
        const onSignal = () => {
          if (controller.signal.aborted) {
            process.stderr.write(`\nquitting now; finished questions are saved.${resumeHint()}\n`);
            process.exit(EXIT.interrupted);
          }
          process.stderr.write('\nstopping after the questions in flight (Ctrl-C again to quit now)\n');
          controller.abort();
        };
        process.on('SIGINT', onSignal);
        process.on('SIGTERM', onSignal);
        try {
          const result = await runBenchmark(config, {
            argv: process.argv.slice(2),
            signal: controller.signal,
            resume: options.resume ? { dir: options.resume, retryErrors: options.retryErrors } : undefined,
            hooks: {
              onRunStart: ({ dir }) => {
                runDir = dir;
              },
              onResume: ({ dir, finished, droppedTornLine, retrying }) =>
                process.stderr.write(
                  `resuming ${dir}: ${finished} questions done${retrying ? `, ${retrying} errors to retry` : ''}` +
                    `${droppedTornLine ? '; dropped a torn last line' : ''}\n`,
                ),
              onNotice: (message) => process.stderr.write(`${message}\n`),
              onQuestionEnd: ({ done, fraction, note }) =>
                progress.update(fraction, `${done} questions${note ? ` · ${note}` : ''}`),
              onDatasetRead: ({ path, questions }) => {
                progress.stop();
                process.stderr.write(`read ${questions} questions from ${path}\n`);
              },
            },
          });
          progress.stop();
          process.stdout.write(`\n${result.table}\nresults: ${result.dir}\n`);
          const outcome = describeRunOutcome(result);
          for (const line of outcome.lines) process.stderr.write(`${line}\n`);
          process.exitCode = outcome.exitCode;
        } catch (error) {
          progress.stop();
          if (error instanceof RunInterruptedError) {
            process.stderr.write(`${error.message} Continue with: lme run --resume ${error.dir}\n`);
            process.exitCode = EXIT.interrupted;
            return;
          }
          throw error;
        }
        // The signal handlers stay until the process exits: a late Ctrl-C still prints the hint.
      },
    );
}
