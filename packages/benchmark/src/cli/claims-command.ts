import { Command } from 'commander';
import { checkClaim, missingNeeds } from '../analysis/claims/check-claim.js';
import { claimNamed, loadClaims, recipeConfig } from '../analysis/claims/load-claims.js';
import { renderClaimCheck } from '../analysis/claims/render-claim-check.js';
import { CLAIM_COLUMNS, claimCells, claimRows } from '../report/runs-index/claims-table.js';
import { listRuns } from '../report/runs-index/list-runs.js';
import { renderMarkdownTable } from '../results/markdown-table.js';
import { log } from './logger.js';
import { addRunOptions, resolveRunInputForDataset } from './run-option-flags.js';
import { describeRunOutcome } from './run-outcome.js';

/**
 * `lme claims list` and `lme claims check <claim>`: published figures of memory systems
 * (configs/claims/, one file each) beside lme's run of the same recipe and the official metric.
 */
export function claimsCommand(): Command {
  const claims = new Command('claims').description(
    'published figures of memory systems, each checked by running its recipe here (configs/claims/)',
  );
  claims
    .command('list')
    .description('each claim: published, last measured here, the official metric of that run, verdict')
    .argument('[dir]', 'results folder to look for claim checks in', 'results')
    .action((dir: string) => {
      const listed = listRuns(dir);
      for (const warning of listed.warnings) log.warn(warning);
      const rows = claimRows(loadClaims(), listed.runs, (message) => log.warn(message));
      process.stdout.write(`${renderMarkdownTable(CLAIM_COLUMNS, rows.map(claimCells))}\n`);
    });
  addRunOptions(
    claims
      .command('check')
      .description(
        "run a claim's recipe as an ordinary run (a results folder that lme runs, compare and the leaderboard read), then print published against measured, overall and per type with 95% intervals, the verdict and the official metric of the same run; run flags (--limit, --data-dir, --dataset, --model-dir, --out ...) apply on top of the recipe",
      )
      .argument('<claim>', 'a claim id: a file name of configs/claims/ (lme claims list)'),
  ).action(async (id: string, _flags: unknown, command: Command) => {
    const claim = claimNamed(id);
    const recipe = recipeConfig(claim);
    if (recipe.dataset === undefined && command.getOptionValueSource('dataset') !== 'cli')
      throw new Error(
        `Claim ${claim.id} was measured on ${claim.benchmark.dataset.name}, which lme knows by no name: give its file with --dataset <path>.`,
      );
    const { input, sections, warnings } = await resolveRunInputForDataset(command, {}, recipe);
    const benchmark = sections.run.benchmarkDefaults?.benchmark;
    if (benchmark !== undefined && benchmark !== claim.benchmark.name)
      throw new Error(
        `Claim ${claim.id} is about ${claim.benchmark.name}, but --dataset ${sections.data.dataset} holds ${benchmark} questions.`,
      );
    const missing = missingNeeds(claim, process.env, input);
    if (missing !== undefined) throw new Error(missing);
    for (const warning of warnings) log.warn(warning);
    const { result, measurement } = await checkClaim(claim, input, {
      argv: process.argv.slice(2),
      hooks: { onNotice: (message) => log.info(message), onWarning: (message) => log.warn(message) },
    });
    process.stdout.write(`\n${renderClaimCheck(claim, measurement)}results: ${result.dir}\n`);
    const outcome = describeRunOutcome(result);
    for (const line of outcome.lines) log.line(outcome.exitCode === 0 ? 'info' : 'error', line);
    process.exitCode = outcome.exitCode;
  });
  return claims;
}
