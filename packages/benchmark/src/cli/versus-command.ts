import { join } from 'node:path';
import { Command } from 'commander';
import { compareRuns } from '../analysis/compare-runs.js';
import { readRun } from '../analysis/read-run.js';
import { renderComparisonTable } from '../analysis/render-comparison-table.js';
import type { RunConfigInput } from '../config/run-config.js';
import { parseGridAxis } from '../run/ablation-grid.js';
import { writeFileNoFollow } from '../run/files/no-follow-file.js';
import { variantDir } from '../run/run-ablation.js';
import { ablate } from './ablate-command.js';
import { log } from './logger.js';
import { addRunOptions, configFromFlags, FLAG_KEYS } from './run-command.js';

/**
 * `lme versus <system>`: lme's pipeline and an external memory system on the same questions, given
 * the same turns and granularity, then `lme compare` of the two (its warnings and noise verdict).
 */
export function versusCommand(): Command {
  return addRunOptions(
    new Command('versus')
      .description(
        "lme's pipeline beside an external memory system on equal terms: the same questions, turns and granularity, then the comparison",
      )
      .argument('<system>', 'the external system, as --provider names it (mem0, mempalace, http, ...)'),
  )
    .option('--ablation-id <id>', 'name of the folder holding both runs (default: time and dataset)')
    .addHelpText(
      'after',
      '\nBoth runs get every role unless --index-roles says otherwise (an external system is given every role by\n' +
        "default), and the run options given apply to both; the pipeline's options an external system ignores\n" +
        'are named as having no effect there. The folder holds both runs, ablation.json and compare.md.\n\nExample:\n  lme versus mem0 --dataset sample --preset hybrid --limit 10',
    )
    .action(async (system: string, options: { ablationId?: string }, command: Command) => {
      const config = configFromFlags(command) as RunConfigInput;
      if (system === 'pipeline')
        throw new Error('lme versus <system>: name an external system, not the pipeline.');
      if (config.provider !== undefined)
        throw new Error(
          `lme versus ${system}: --provider ${config.provider} is the system's place; give it as the argument alone.`,
        );
      if (config.indexRoles === undefined)
        log.info(
          'both systems get every role (--index-roles all); --index-roles user gives both user turns only',
        );
      const result = await ablate(
        { indexRoles: 'all', ...config },
        [parseGridAxis(`provider=pipeline,${system}`, FLAG_KEYS)],
        options.ablationId,
      );
      const runs = result.variants.map(({ variant }) => readRun(variantDir(result.dir, variant)));
      const comparison = compareRuns(runs);
      for (const run of runs) for (const warning of run.warnings) log.warn(warning);
      for (const { warnings } of comparison.comparisons) for (const warning of warnings) log.warn(warning);
      const table = renderComparisonTable(comparison);
      writeFileNoFollow(join(result.dir, 'compare.md'), table);
      process.stdout.write(`\n${table}`);
    });
}
