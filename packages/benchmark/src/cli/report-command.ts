import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { inDatasetOrder, readRun } from '../analysis/read-run.js';
import { buildHtmlReport, resolveReportInputs } from '../report/html/build-html-report.js';
import { refuseOverwritingInput, writeFileNoFollow } from '../run/files/no-follow-file.js';
import { openRunFolder, RUN_FILES } from '../run/files/run-folder.js';
import { partialReason } from '../run/outputs/run-manifest.js';
import { writeRunOutputs } from '../run/outputs/write-run-outputs.js';
import { log } from './logger.js';
import { deprecatedOutOption, outputFile } from './output-flag.js';

export function reportCommand(): Command {
  return new Command('report')
    .description(
      'rewrite summary.json, summary.csv, samples.csv and report.md of a run from its config.json and samples.jsonl; with --html, write one self-contained HTML report of one or more runs or an ablation folder',
    )
    .argument('<run-dirs...>', 'results folder (with --html: several, or an ablation folder)')
    .option('--html', 'write a self-contained HTML report (charts, per-question table, question pages)')
    .option('-o, --output <file>', 'where --html writes (default: report.html in the first folder)')
    .addOption(deprecatedOutOption())
    .action(async (dirs: string[], flags: { html?: boolean; output?: string; out?: string }) => {
      const options = { ...flags, out: outputFile(flags, 'report') };
      if (options.html) {
        const started = performance.now();
        const inputs = resolveReportInputs(dirs);
        const out = resolve(options.out ?? join(resolve(dirs[0]!), 'report.html'));
        refuseOverwritingInput(
          out,
          inputs.flatMap(({ run }) => RUN_FILES.map((name) => join(run.dir, name))),
        );
        const { html, warnings } = await buildHtmlReport({ inputs });
        for (const warning of warnings) log.warn(warning);
        writeFileNoFollow(out, html);
        const size = statSync(out).size;
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        process.stdout.write(
          `HTML report of ${inputs.length} run${inputs.length === 1 ? '' : 's'}: ${out} (${(size / 1024 / 1024).toFixed(2)} MB, ${seconds} s)\n`,
        );
        return;
      }
      if (options.out !== undefined)
        throw new Error('--output needs --html (lme report rewrites a run folder in place).');
      if (dirs.length > 1)
        throw new Error('lme report rewrites one run folder; give several only with --html.');
      const run = readRun(dirs[0]!);
      for (const warning of run.warnings) log.warn(warning);
      // Dataset order, as the runner summarizes: means are sums, exact only in the same order.
      const samples = inDatasetOrder(run.samples);
      const folder = openRunFolder(run.dir);
      let table: string;
      try {
        ({ table } = writeRunOutputs(folder, run.config, samples, partialReason(run.config)));
      } finally {
        folder.close();
      }
      process.stdout.write(`${table}\nresults: ${run.dir}\n`);
    });
}
