import { formatDelta, formatValue } from '../results/markdown-table.js';
import { abstentionLabel } from '../run/outputs/render-table.js';
import { shownCellsEqual } from './compare-added-metrics.js';
import type { ComparisonResult, HiddenDifference, RunComparison, RunLabel } from './compare-runs.js';
import { adjustedPValues, testKey } from './comparison-rows.js';
import { formatConfigValue } from './config-differences.js';
import { describeErrata } from './run-label.js';

/** Family-wise significance levels, after Holm's correction, and their marks. */
const LEVELS = [
  { below: 0.001, mark: '***' },
  { below: 0.01, mark: '**' },
  { below: 0.05, mark: '*' },
] as const;

function mark(adjusted: number | undefined): string {
  if (adjusted === undefined) return '';
  return LEVELS.find(({ below }) => adjusted < below)?.mark ?? '';
}

/** Column headers: each run's label (else run id), made unique with its position when repeated. */
function headers(runs: readonly RunLabel[]): string[] {
  const names = runs.map((run) => run.label ?? run.runId);
  return names.map((name, index) =>
    names.filter((other) => other === name).length > 1 ? `${name} #${index + 1}` : name,
  );
}

function renderTable(header: readonly string[], body: readonly string[][], leftColumns: number): string {
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...body.map((row) => row[column]?.length ?? 0)),
  );
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, column) => (column < leftColumns ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join(' | ')} |`;
  const rule = `|${widths.map((width, column) => `${'-'.repeat(width + 1)}${column < leftColumns ? '-' : ':'}`).join('|')}|`;
  return [line(header), rule, ...body.map(line)].join('\n');
}

/** Metrics named in full in a hidden-differences note; the rest are counted. */
const HIDDEN_SHOWN = 6;

function describeHidden(difference: HiddenDifference): string {
  const overall = difference.categories.filter(({ category }) => category === 'overall');
  const others = difference.categories
    .filter(({ category }) => category !== 'overall')
    .sort((left, right) => Math.abs(right.delta) - Math.abs(left.delta));
  const places = [...overall, ...others].slice(0, 3);
  const more = difference.categories.length - places.length;
  const where = places.map(({ category, delta }) => `${category} ${formatDelta(delta)}`).join(', ');
  const questions = `${difference.changed} ${difference.changed === 1 ? 'question' : 'questions'} changed`;
  return `${difference.metric} (${questions}; ${where}${more > 0 ? `, ${more} more` : ''})`;
}

/**
 * One sentence naming the metrics a run differs in that the table does not show, or null when
 * there are none: an all-zero table then says the runs still differ, and where.
 */
export function describeHiddenDifferences(comparison: RunComparison, name: string): string | null {
  const hidden = comparison.hiddenDifferences;
  if (hidden.length === 0) return null;
  const shownEqual = shownCellsEqual(comparison);
  const listed = hidden.slice(0, HIDDEN_SHOWN).map(describeHidden).join('; ');
  const rest = hidden.length - HIDDEN_SHOWN;
  const count = `${hidden.length} ${hidden.length === 1 ? 'metric' : 'metrics'} not shown`;
  const one = hidden.length === 1;
  const differ = shownEqual
    ? `the metrics shown do not differ from the base, but ${count} ${one ? 'does' : 'do'}`
    : `${count} ${one ? 'differs' : 'differ'} too`;
  return `${name}: ${differ}: ${listed}${rest > 0 ? `; and ${rest} more` : ''}. --metrics all shows and tests every metric (or name them with --metrics).`;
}

/** Why metrics outside the defaults are in the table: the defaults did not move, these did. */
function addedNote(added: readonly string[]): string[] {
  if (added.length === 0) return [];
  const one = added.length === 1;
  return [
    `No default metric differs between the runs; ${added.join(', ')}, which ${one ? 'does' : 'do'}, ${one ? 'is' : 'are'} shown after them.`,
  ];
}

function unionInOrder(lists: readonly (readonly string[])[]): string[] {
  return [...new Set(lists.flat())];
}

/**
 * The side-by-side comparison as cells, for the markdown table and the HTML report's table:
 * `header` and `body` rows (the first two columns are labels), then sentences below it.
 */
export type ComparisonTable = {
  title: string;
  header: string[];
  body: string[][];
  notes: string[];
  /** One per run: its folder, config differences from the base and errata. */
  runs: string[];
  warnings: string[];
};

/**
 * Every run compared with the base in one side-by-side table: one column per run, one row per
 * category × metric with the n of the base's mean of that metric, each run's value with its delta
 * from the base and a significance mark from the paired test (McNemar or bootstrap),
 * Holm-corrected over the runs × metrics of the category. A first row counts each run's failed
 * questions. Notes below name the runs, their config differences and any warning.
 */
export function buildComparisonTable(result: ComparisonResult): ComparisonTable {
  const { comparisons } = result;
  const first = comparisons[0];
  if (first === undefined) throw new Error('There is no comparison to render.');
  const runs = [first.base, ...comparisons.map((comparison) => comparison.other)];
  const names = headers(runs);
  const adjusted = adjustedPValues(comparisons);
  const categories = unionInOrder(
    comparisons.map((comparison) => comparison.categories.map((category) => category.category)),
  );
  const metrics = unionInOrder(comparisons.map((comparison) => comparison.metrics));
  const body: string[][] = [['failed questions', '', '', ...runs.map((run) => String(run.errors))]];
  for (const category of categories) {
    const found = comparisons.map((comparison) =>
      comparison.categories.find((entry) => entry.category === category),
    );
    // Abstention is out of overall for retrieval metrics, in it for QA metrics: each kind's first row says which.
    const title = (metric: string) => (category === 'abstention' ? abstentionLabel(metric) : category);
    metrics.forEach((metric, metricIndex) => {
      const previous = metrics[metricIndex - 1];
      const titled = metricIndex === 0 || (category === 'abstention' && title(previous!) !== title(metric));
      const baseEntry = found
        .flatMap((entry) => entry?.metrics ?? [])
        .find((entry) => entry.metric === metric);
      const nBase = baseEntry?.nBase ?? 0;
      const cells = found.map((entry, runIndex) => {
        const comparison = entry?.metrics.find((candidate) => candidate.metric === metric);
        if (entry === undefined || comparison === undefined) return '-';
        const stars = mark(adjusted.get(testKey(runIndex, category, metric)));
        const n = comparison.nOther === nBase ? '' : `, n ${comparison.nOther}`;
        const delta =
          comparison.delta === undefined
            ? ''
            : ` (${formatDelta(comparison.delta)}${stars === '' ? '' : ` ${stars}`}${n})`;
        return `${formatValue(comparison.other)}${delta}`;
      });
      body.push([titled ? title(metric) : '', metric, String(nBase), formatValue(baseEntry?.base), ...cells]);
    });
  }
  const baseName = names[0]!;
  const family = comparisons.length * metrics.length;
  const notes = [
    `Each run against the base ${baseName}: value (delta from the base, significance). n is the questions in the base's mean of that metric (retrieval and QA metrics count different questions); n after a delta is the run's own count when it differs.`,
    `Significance: ${LEVELS.map(({ below, mark: stars }) => `${stars} p < ${below}`).join(', ')}, Holm-corrected over the ${family} tests of each category (${comparisons.length} ${comparisons.length === 1 ? 'run' : 'runs'} × ${metrics.length} ${metrics.length === 1 ? 'metric' : 'metrics'}); exact McNemar for 0/1 metrics, paired bootstrap of the mean difference (${result.resamples} resamples, seed ${result.seed}) otherwise, on the questions both runs count.`,
    'Failed questions are in no mean and no test.',
    ...addedNote(result.addedMetrics ?? []),
    ...comparisons.flatMap(
      (comparison, index) => describeHiddenDifferences(comparison, names[index + 1]!) ?? [],
    ),
  ];
  const runLines = runs.map((run, index) => {
    const differences =
      index === 0
        ? ''
        : comparisons[index - 1]!.configDifferences.map(
            ({ key: name, values }) => `${name} ${values.map(formatConfigValue).join(' → ')}`,
          ).join(', ');
    const id = run.label === undefined ? '' : ` run ${run.runId},`;
    const provider = run.provider === undefined ? '' : ` (provider ${run.provider})`;
    return `${names[index]}:${id} ${run.dir}${provider}${index === 0 ? ' (base)' : `; config differences: ${differences === '' ? 'none' : differences}`}; errata ${describeErrata(run)}`;
  });
  return {
    title: `${comparisons.length === 1 ? `${names[1]} vs ${baseName}` : `${comparisons.length} runs vs ${baseName}`} (base)`,
    header: ['category', 'metric', 'n', `${baseName} (base)`, ...names.slice(1)],
    body,
    notes,
    runs: runLines,
    warnings: [...new Set(comparisons.flatMap((comparison) => comparison.warnings))],
  };
}

/** The side-by-side comparison (buildComparisonTable) as markdown. */
export function renderComparisonTable(result: ComparisonResult): string {
  const table = buildComparisonTable(result);
  return [
    `## ${table.title}`,
    '',
    renderTable(table.header, table.body, 2),
    '',
    ...table.notes,
    '',
    ...table.runs.map((line) => `- ${line}`),
    ...(table.warnings.length === 0 ? [] : ['', ...table.warnings.map((warning) => `> warning: ${warning}`)]),
  ]
    .join('\n')
    .concat('\n');
}
