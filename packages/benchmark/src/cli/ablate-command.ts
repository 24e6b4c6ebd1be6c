import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { READ_LIMITS, readGuardedJsonFile } from '../config/read-guarded-file.js';
import type { RunConfigInput } from '../config/run-config.js';
import { renderVariantsTable, variantsCsv } from '../report/render-variants.js';
import { type GridAxis, parseGridAxis } from '../run/ablation-grid.js';
import { writeFileNoFollow } from '../run/files/no-follow-file.js';
import { claimRunFolder } from '../run/files/run-folder.js';
import { type AblationResult, runAblation } from '../run/run-ablation.js';
import { checkRunId, safeName } from '../run/run-id.js';
import { EXIT } from './exit-codes.js';
import { log } from './logger.js';
import { createProgress } from './progress.js';
import { addRunOptions, configFromEnvironment, configFromFlags, FLAG_KEYS } from './run-command.js';

/** An ablation grid file (configs/grids/*.json): {"description", "base": {config}, "grid": {"flag": [values]}}. */
type AblationFile = { description?: string; base?: RunConfigInput; grid?: Record<string, unknown[]> };

function readAblationFile(path: string): AblationFile {
  return readGuardedJsonFile(path, { maxBytes: READ_LIMITS.small, links: 'follow' }) as AblationFile;
}

export function ablateCommand(): Command {
  return addRunOptions(
    new Command('ablate').description('run a grid of variants and write one combined table'),
  )
    .option('--grid <key=v1,v2>', 'an axis of the grid, by run option name (repeatable)', collect, [])
    .option('--grid-file <path>', 'a JSON grid, e.g. configs/grids/fusion-session-aware.json')
    .option('--ablation-id <id>', 'name of the ablation folder, as --run-id (default: time and dataset)')
    .addHelpText(
      'after',
      '\nExample:\n  lme ablate --dataset s --retriever hybrid --grid session-aware=false,true --grid top-sessions=3,5,10\n' +
        'Grid values: true/false, numbers, strings; tuples with ":" (--grid weights=0.3:0.7,0.5:0.5).',
    )
    .action(async (options: { grid: string[]; gridFile?: string; ablationId?: string }, command: Command) => {
      const keys: Record<string, string> = { ...FLAG_KEYS };
      const file = options.gridFile ? readAblationFile(options.gridFile) : {};
      const axes: GridAxis[] = [
        ...Object.entries(file.grid ?? {}).map(([flag, values]) => {
          const axis = parseGridAxis(`${flag}=x`, keys);
          return { ...axis, values };
        }),
        ...options.grid.map((text) => parseGridAxis(text, keys)),
      ];
      if (axes.length === 0)
        throw new Error('lme ablate needs at least one --grid key=v1,v2 or a --grid-file.');
      await ablate({ ...file.base, ...configFromFlags(command) } as RunConfigInput, axes, options.ablationId);
    });
}

/**
 * Runs the grid over the base config into one ablation folder (a variant's run folder each), writes
 * its combined table, summary.csv and ablation.json, prints the table, and sets exit code 2 when a
 * variant had failed questions. Returns the result for a caller that reports more (`lme versus`).
 */
export async function ablate(
  config: RunConfigInput,
  axes: readonly GridAxis[],
  ablationId: string | undefined,
): Promise<AblationResult> {
  const { runId, ...base } = config;
  const folderName = runId ?? ablationId ?? defaultAblationId(base.dataset ?? 'sample');
  checkRunId(folderName, runId !== undefined ? '--run-id' : '--ablation-id');
  const dir = resolve(base.out ?? 'results', folderName);
  // Exclusive create: a second ablation of the same id fails unless --overwrite.
  claimRunFolder(dir, { mode: 'new', overwrite: base.overwrite }).release();
  let progress = createProgress('questions');
  const result = await runAblation({
    base,
    environment: configFromEnvironment(process.env),
    axes,
    dir,
    argv: process.argv.slice(2),
    hooks: {
      onVariantStart: ({ variant, index, total }) => {
        progress.stop();
        log.info(`variant ${index + 1}/${total} ${variant.name}`);
        progress = createProgress('questions');
      },
      onQuestionsSelected: ({ finished }) => progress.start(finished),
      onQuestionEnd: ({ done, total, note }) => progress.update(done, total, note),
    },
  });
  progress.stop();
  const variants = result.variants.map(({ variant, summary }) => ({ variant: variant.name, summary }));
  const first = result.variants[0]!.config;
  const table = renderVariantsTable(
    variants,
    `ablation ${dir} · dataset ${first.dataset} · convention ${first.convention}${first.convention === 'official' ? ` (exclusion ${first.exclusion})` : ''}`,
  );
  writeFileNoFollow(join(dir, 'report.md'), table);
  writeFileNoFollow(join(dir, 'summary.csv'), variantsCsv(variants));
  writeFileNoFollow(
    join(dir, 'ablation.json'),
    `${JSON.stringify({ axes, variants: result.variants.map(({ variant, config }) => ({ name: variant.name, config })) }, null, 2)}\n`,
  );
  process.stdout.write(`\n${table}\nresults: ${dir}\n`);
  // As for one run: failed questions are an error (exit 2), named per variant.
  for (const { variant, summary } of result.variants) {
    if (summary.errors === 0) continue;
    const failed = summary.first_error;
    log.line(
      'error',
      `variant ${variant.name}: ${summary.errors} of ${summary.n} questions failed` +
        `${failed ? `; first: ${failed.question_id}: ${failed.message}` : ''}`,
    );
    process.exitCode = EXIT.failedQuestions;
  }
  return result;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** `2026-11-22T01-02-03-456Z-ablation-s-3f9a`: a dataset path contributes its file name only. */
function defaultAblationId(dataset: string): string {
  const name = safeName(dataset.replace(/^.*[\\/]/, '').replace(/\.json(\.gz)?$/, ''));
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return `${stamp}-ablation-${name}-${Math.random().toString(16).slice(2, 6)}`;
}
