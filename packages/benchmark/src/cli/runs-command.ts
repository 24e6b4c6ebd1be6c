import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Command, Option } from 'commander';
import { BENCHMARKS } from '../benchmarks/benchmark-registry.js';
import { listRuns, parseSince, RUN_STATES } from '../report/runs-index/list-runs.js';
import { renderLeaderboard } from '../report/runs-index/render-leaderboard.js';
import { renderRunsCsv, renderRunsJson, renderRunsText } from '../report/runs-index/render-runs-list.js';
import type { RunState } from '../report/runs-index/run-overview.js';
import { refuseOverwritingInput, writeFileNoFollow } from '../run/files/no-follow-file.js';
import { RUN_FILES } from '../run/files/run-folder.js';
import { log } from './logger.js';

type RunsFlags = {
  dataset?: string;
  state?: RunState;
  since?: string;
  json?: boolean;
  csv?: boolean;
  html?: string;
};

export function runsCommand(): Command {
  return new Command('runs')
    .description(
      'list the runs of a results folder, newest first (id, label, dataset and convention, what ran, questions, state, headline figures, cost, when); --html writes a sortable leaderboard page',
    )
    .argument('[dir]', 'results folder to list (run folders at most three levels down)', 'results')
    .option(
      '--dataset <name>',
      `only runs of this dataset or benchmark (sample, s, a file name, or ${Object.keys(BENCHMARKS).join(', ')})`,
    )
    .addOption(new Option('--state <state>', 'only complete, partial or failed runs').choices(RUN_STATES))
    .option(
      '--since <when>',
      'only runs started or finished since a date (2026-11-20) or a span back (7d, 12h)',
    )
    .option('--json', 'one JSON array, a full overview per run')
    .option('--csv', 'one row per run (pandas reads it as is)')
    .option(
      '--html <file>',
      'write one self-contained leaderboard page: a sortable table per dataset and convention, comparable runs together',
    )
    .addHelpText(
      'after',
      '\nA run is complete when every question finished, partial when it stopped (or still runs), failed when a\nquestion failed. It reads folders written by this and earlier releases (committed summary-only\nbaselines too) and never writes into them.\n\nExamples:\n  lme runs\n  lme runs results --dataset sample --state complete --since 7d\n  lme runs results --csv > runs.csv\n  lme runs results --html leaderboard.html',
    )
    .action((dir: string, flags: RunsFlags) => {
      if (flags.json && flags.csv) throw new Error('Give --json or --csv, not both.');
      const since = flags.since === undefined ? undefined : parseSince(flags.since);
      const listed = listRuns(dir, {
        ...(flags.dataset === undefined ? {} : { dataset: flags.dataset }),
        ...(flags.state === undefined ? {} : { state: flags.state }),
        ...(since === undefined ? {} : { since }),
      });
      for (const warning of listed.warnings) log.warn(warning);
      if (flags.html !== undefined) {
        const out = resolve(flags.html);
        // The page goes beside the runs, never into one of them.
        const into = listed.runs.find((run) => resolve(run.dir) === dirname(out));
        if (into !== undefined)
          throw new Error(
            `--html ${flags.html} is inside the run folder ${into.dir}; lme runs never writes into a run: write it beside them.`,
          );
        refuseOverwritingInput(
          out,
          listed.runs.flatMap((run) => RUN_FILES.map((name) => join(run.dir, name))),
          '--html',
        );
        const started = performance.now();
        writeFileNoFollow(out, renderLeaderboard(listed.runs, { outFile: out, root: resolve(dir) }));
        const size = statSync(out).size;
        log.info(
          `Leaderboard of ${listed.runs.length} runs: ${out} (${(size / 1024).toFixed(0)} KB, ${((performance.now() - started) / 1000).toFixed(1)} s)`,
        );
      }
      const output = flags.json
        ? renderRunsJson(listed.runs)
        : flags.csv
          ? renderRunsCsv(listed.runs)
          : flags.html !== undefined
            ? ''
            : renderRunsText(listed.runs, listed.found);
      process.stdout.write(output);
    });
}
