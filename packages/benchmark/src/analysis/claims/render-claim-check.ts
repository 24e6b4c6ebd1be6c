import { renderMarkdownTable } from '../../results/markdown-table.js';
import type { Claim } from './claim-schema.js';
import type { ClaimMeasurement, MeasuredFigure } from './measure-claim.js';

const figure = (value: number) => value.toFixed(3);

/** A measured figure with its 95% interval and count: `0.966 [0.946, 0.979] (n=499)`. */
export function measuredCell(measured: MeasuredFigure | null): string {
  if (measured === null) return 'none';
  const interval = measured.ci95 ? ` [${figure(measured.ci95.low)}, ${figure(measured.ci95.high)}]` : '';
  return `${figure(measured.value)}${interval} (n=${measured.n})`;
}

/** The sentence that sets the claim, this run and the official metric of the same run side by side. */
export function headlineOf(claim: Claim, measurement: ClaimMeasurement): string {
  const head = measurement.figures[0]!;
  const official =
    measurement.official.value === null
      ? `official ${measurement.official.metric}: not in the summary`
      : `official ${measurement.official.metric} over ${measurement.official.n}: ${figure(measurement.official.value)}`;
  return (
    `published ${head.published} ${head.metric} over ${claim.questions.count}; ` +
    `measured ${measuredCell(head.measured)}; ${official}`
  );
}

/** What `lme claims check` prints: the headline, a table per published figure, the verdict. */
export function renderClaimCheck(claim: Claim, measurement: ClaimMeasurement): string {
  const lines = [`${claim.id}: ${claim.description}`, headlineOf(claim, measurement), ''];
  for (const check of measurement.figures) {
    const rows = [
      ['overall', String(check.published), measuredCell(check.measured)],
      ...check.by_type.map((row) => [row.type, String(row.published), measuredCell(row.measured)]),
    ];
    lines.push(renderMarkdownTable([check.metric, 'published', 'measured [95% interval]'], rows), '');
  }
  const subset =
    measurement.questions.measured === measurement.questions.published
      ? ''
      : ` (on ${measurement.questions.measured} questions; the claim counts ${measurement.questions.published})`;
  const { claimed, measured } = measurement.dataset;
  if (measured !== claimed)
    lines.push(
      `dataset: this run read SHA-256 ${measured === null ? 'unrecorded' : `${measured.slice(0, 12)}…`}, not the claim's ${claimed.slice(0, 12)}… (${claim.benchmark.dataset.name}): another copy or a subset`,
    );
  lines.push(`verdict: ${measurement.verdict}${subset}: ${measurement.explanation}`);
  if (claim.recipe.fidelity !== 'exact') lines.push(`recipe: ${claim.recipe.fidelity}`);
  return `${lines.join('\n')}\n`;
}
