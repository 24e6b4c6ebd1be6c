import { Command, Option } from 'commander';
import { readRunConfigFile } from '../config/run-config-file.js';
import { RUN_OPTION_GROUPS } from '../config/run-options.js';
import { planRun } from '../run/plan/plan-run.js';
import { renderPlan } from '../run/plan/render-plan.js';
import { RunInterruptedError, readManifest, runBenchmark, selectRecords } from '../run/run-benchmark.js';
import { EXIT } from './exit-codes.js';
import { log } from './logger.js';
import { createProgress } from './progress.js';
import { providersHelp } from './provider-help.js';
import { addRunOptions, resolveRunInputForDataset } from './run-option-flags.js';
import { describeRunOutcome } from './run-outcome.js';
import { shardFromEnvironment } from './shard-from-env.js';

/**
 * The run options (declared once in config/run-options.ts) as commander options, and the config a
 * command line asks for, are in run-option-flags.ts; re-exported for the commands that share them.
 */
export { configFromEnvironment } from '../config/run-options.js';
export {
  addRunOptions,
  configFromFlags,
  FLAG_KEYS,
  type ResolvedRunInput,
  resolveRunInput,
} from './run-option-flags.js';

export function runCommand(): Command {
  return addRunOptions(new Command('run').description('run a benchmark and write a results folder'))
    .addOption(
      new Option(
        '--config <file>',
        'a run config file (.json, .yaml or .yml): the keys of a preset, flat or under "config" (a run\'s config.json replays it); the preset, environment and flags override it',
      ).helpGroup(RUN_OPTION_GROUPS.start),
    )
    .addOption(
      new Option(
        '--shard-from-env <var[/n]>',
        "run the shard a job engine's variable names: JOB_COMPLETION_INDEX/4 (Kubernetes Indexed Job, from 0), CI_NODE_INDEX (GitLab, count from CI_NODE_TOTAL), any other variable as a 0-based index with /n; see docs/scale-out.md",
      ).helpGroup(RUN_OPTION_GROUPS.data),
    )
    .addOption(
      new Option(
        '--resume <run-dir>',
        'continue a run: skip the questions already in its samples.jsonl',
      ).helpGroup(RUN_OPTION_GROUPS.run),
    )
    .addOption(
      new Option('--retry-errors', 'with --resume, run again the questions that ended in an error').helpGroup(
        RUN_OPTION_GROUPS.run,
      ),
    )
    .addOption(
      new Option(
        '--resume-mixed',
        'with --resume, continue even though the settings or code changed since its questions were made; the run is recorded as mixed (config.json and summary.json "mixed")',
      ).helpGroup(RUN_OPTION_GROUPS.run),
    )
    .addOption(
      new Option(
        '--dry-run',
        'print the plan (questions, documents, texts to embed, LLM calls, tokens, cost) and stop',
      ).helpGroup(RUN_OPTION_GROUPS.run),
    )
    .addHelpText('after', providersHelp())
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  lme run --dataset s --preset bm25 --limit 0.1        a tenth of S, stratified by type\n' +
        '  lme run --config run.yaml --label try-2              settings from a file, one flag on top\n' +
        '  LME_DATA_DIR=<dataset folder> lme run --dataset s --retriever bm25 --tokenizer official\n' +
        '  lme run --resume results/<run-id>          continue after a crash or Ctrl-C',
    )
    .action(
      async (
        options: {
          resume?: string;
          retryErrors?: boolean;
          resumeMixed?: boolean;
          dryRun?: boolean;
          config?: string;
          shardFromEnv?: string;
        },
        command: Command,
      ) => {
        if (options.shardFromEnv !== undefined) {
          if (command.getOptionValueSource('shard') === 'cli')
            throw new Error('Give either --shard or --shard-from-env, not both.');
          // The shard the engine's variable names, as if given with --shard (config.json records it).
          command.setOptionValueWithSource(
            'shard',
            shardFromEnvironment(options.shardFromEnv, process.env),
            'cli',
          );
        }
        if (options.retryErrors && !options.resume)
          throw new Error('--retry-errors needs --resume <run-dir>.');
        if (options.resumeMixed && !options.resume)
          throw new Error('--resume-mixed needs --resume <run-dir>.');
        // A resumed run starts from its stored config; flags may only change keys that do not
        // affect results (the runner refuses otherwise, naming the keys).
        const stored = options.resume ? readManifest(options.resume).config : {};
        const fromFile = options.config ? readRunConfigFile(options.config) : {};
        const { input, sections, warnings, layers, benchmark } = await resolveRunInputForDataset(
          command,
          stored,
          fromFile,
        );
        for (const warning of warnings) log.warn(warning);
        for (const [layer, keys] of Object.entries(layers))
          if (keys.length > 0) log.debug(`config from ${layer}: ${keys.join(', ')}`);
        if (options.dryRun) {
          process.stdout.write(renderPlan(await planRun(sections, await selectRecords(sections.data))));
          return;
        }
        const progress = createProgress('questions');
        const started = performance.now();
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
          const result = await runBenchmark(input, {
            argv: process.argv.slice(2),
            ...(benchmark ? { benchmark } : {}),
            signal: controller.signal,
            resume: options.resume
              ? { dir: options.resume, retryErrors: options.retryErrors, mixed: options.resumeMixed }
              : undefined,
            hooks: {
              onRunStart: ({ dir }) => {
                runDir = dir;
              },
              onResume: ({ dir, finished, droppedTornLine, retrying }) =>
                log.info(
                  `resuming ${dir}: ${finished} questions done${retrying ? `, ${retrying} errors to retry` : ''}` +
                    `${droppedTornLine ? '; dropped a torn last line' : ''}`,
                ),
              onNotice: (message) => log.info(message),
              onWarning: (message) => log.warn(message),
              onQuestionsSelected: ({ path, questions, finished }) => {
                log.info(
                  `read ${questions ?? 'the'} questions from ${path}${finished > 0 ? ` (${finished} done before)` : ''}`,
                );
                progress.start(finished);
              },
              onQuestionEnd: ({ sample, done, total, note }) => {
                log.debug(
                  `${sample.question_id} (${sample.question_type}): ${sample.error ? `error: ${sample.error}` : 'done'}`,
                );
                progress.update(done, total, note);
              },
            },
          });
          progress.stop();
          log.debug(`run took ${((performance.now() - started) / 1000).toFixed(1)} s`);
          process.stdout.write(`\n${result.table}\nresults: ${result.dir}\n`);
          const outcome = describeRunOutcome(result);
          for (const line of outcome.lines) log.line(outcome.exitCode === EXIT.ok ? 'info' : 'error', line);
          process.exitCode = outcome.exitCode;
        } catch (error) {
          progress.stop();
          if (error instanceof RunInterruptedError) {
            log.line('error', `${error.message} Continue with: lme run --resume ${error.dir}`);
            process.exitCode = EXIT.interrupted;
            return;
          }
          throw error;
        }
        // The signal handlers stay until the process exits: a late Ctrl-C still prints the hint.
      },
    );
}
