import { dirname, join, relative, sep } from 'node:path';
import { readClaimCheck } from '../../analysis/claims/claim-check-file.js';
import type { Claim } from '../../analysis/claims/claim-schema.js';
import { loadClaims } from '../../analysis/claims/load-claims.js';
import { type ClaimMeasurement, verdictLabel } from '../../analysis/claims/measure-claim.js';
import { measuredCell } from '../../analysis/claims/render-claim-check.js';
import { escapeHtml } from '../html/render-html-report.js';
import type { RunOverview } from './run-overview.js';

/** A claim and the check `claimRows` keeps for it (none when it was never checked here). */
export type ClaimRow = { claim: Claim; check?: { run: RunOverview; measurement: ClaimMeasurement } };

/**
 * Each claim beside its check on the most questions, the newest of those: a whole-dataset check is
 * not hidden by a later `--limit` one (`runs` come newest first, as `listRuns` gives them). A
 * claim.json that cannot be read is a warning naming it, never a stop.
 */
export function claimRows(
  claims: readonly Claim[],
  runs: readonly RunOverview[],
  warn: (message: string) => void = () => {},
): ClaimRow[] {
  const best = new Map<string, { run: RunOverview; measurement: ClaimMeasurement }>();
  for (const run of runs) {
    let measurement: ClaimMeasurement | undefined;
    try {
      measurement = readClaimCheck(run.dir);
    } catch (error) {
      warn((error as Error).message);
    }
    const kept = measurement && best.get(measurement.claim);
    if (measurement && (!kept || measurement.questions.measured > kept.measurement.questions.measured))
      best.set(measurement.claim, { run, measurement });
  }
  return claims.map((claim) => {
    const check = best.get(claim.id);
    return check ? { claim, check } : { claim };
  });
}

/** The cells of one claim row as text: claim, published, measured, official, verdict, run. */
export function claimCells(row: ClaimRow): string[] {
  const head = row.claim.published[0]!;
  const measurement = row.check?.measurement;
  const measured = measurement?.figures.find((check) => check.metric === head.metric)?.measured;
  return [
    row.claim.id,
    `${head.overall} ${head.metric} (n=${row.claim.questions.count})`,
    measured ? measuredCell(measured) : 'not measured here',
    measurement?.official.value == null
      ? '–'
      : `${measurement.official.value.toFixed(3)} ${measurement.official.metric} (n=${measurement.official.n})`,
    measurement ? verdictLabel(measurement) : 'unchecked',
    row.check?.run.run_id ?? '–',
  ];
}

export const CLAIM_COLUMNS = ['claim', 'published', 'measured', 'official', 'verdict', 'run'];

/** The leaderboard's "claims" section: published, measured, official, verdict and a link to the run. */
export function renderClaimsSection(rows: readonly ClaimRow[], outFile: string): string {
  if (rows.length === 0) return '';
  const body = rows.map((row) => {
    const cells = claimCells(row).map((text) => `<td>${escapeHtml(text)}</td>`);
    const run = row.check?.run;
    if (run) {
      const target = relative(dirname(outFile), join(run.dir, 'summary.json'))
        .split(sep)
        .map(encodeURIComponent);
      cells[5] = `<td><a href="${escapeHtml(target.join('/'))}">${escapeHtml(run.run_id)}</a></td>`;
    }
    return `<tr>${cells.join('')}</tr>`;
  });
  return [
    '<h2>claims</h2>',
    "<p>Published figures of memory systems beside lme's run of the same recipe (<code>lme claims check</code>) and the official metric of that run.</p>",
    `<table><thead><tr>${CLAIM_COLUMNS.map((name) => `<th>${escapeHtml(name)}</th>`).join('')}</tr></thead>`,
    `<tbody>${body.join('')}</tbody></table>`,
  ].join('\n');
}

/** The claims section for a page listing `runs`: every claim of configs/claims/, or why none could be read. */
export function claimsSectionFor(runs: readonly RunOverview[], outFile: string): string {
  let claims: Claim[];
  try {
    claims = loadClaims();
  } catch (error) {
    return `<h2>claims</h2>\n<p>${escapeHtml((error as Error).message)}</p>`;
  }
  return renderClaimsSection(claimRows(claims, runs), outFile);
}
