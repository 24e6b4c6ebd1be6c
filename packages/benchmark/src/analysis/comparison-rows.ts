import { stringify } from 'csv-stringify/sync';
import { SAFE_CSV_CELLS } from '../run/outputs/write-csv.js';
import type { ComparisonResult, RunComparison } from './comparison-result.js';
import { holmAdjust } from './holm.js';

/**
 * One row of `lme compare --format json|csv`: a run against the base in one category for one
 * metric. Tidy (one observation per row, numbers as numbers, a missing value null / an empty
 * cell), so pandas reads it with no cleaning step.
 */
export type ComparisonRow = {
  base_run: string;
  candidate_run: string;
  /** The candidate's --label, null when it has none. */
  candidate_label: string | null;
  /** A question type, `abstention` or `overall`: summary.csv's column of the same name (before: `category`). */
  question_type: string;
  metric: string;
  base_value: number | null;
  candidate_value: number | null;
  /** candidate_value - base_value. */
  delta: number | null;
  /** Questions the base's mean is over (retrieval and QA metrics count different questions). */
  base_n: number;
  /** Questions the candidate's mean is over. */
  candidate_n: number;
  /** Questions both runs have a value for: the paired test runs on these. */
  paired_n: number;
  /** `mcnemar` (0/1 metrics) or `bootstrap`; null when no question is paired. */
  test: 'mcnemar' | 'bootstrap' | null;
  p_value: number | null;
  /** Holm-adjusted over the runs × metrics of the category, as the markdown table marks it. */
  p_holm: number | null;
  /** Bootstrap 95% interval of the mean difference (null for McNemar). */
  ci95_low: number | null;
  ci95_high: number | null;
  /** McNemar's discordant pairs: questions only the base gets (b), only the candidate (c). */
  mcnemar_b: number | null;
  mcnemar_c: number | null;
};

/** The columns of the CSV, in order. */
export const COMPARISON_COLUMNS = [
  'base_run',
  'candidate_run',
  'candidate_label',
  'question_type',
  'metric',
  'base_value',
  'candidate_value',
  'delta',
  'base_n',
  'candidate_n',
  'paired_n',
  'test',
  'p_value',
  'p_holm',
  'ci95_low',
  'ci95_high',
  'mcnemar_b',
  'mcnemar_c',
] as const satisfies readonly (keyof ComparisonRow)[];

/** The key of one test among the comparisons: run index, category, metric. */
export function testKey(runIndex: number, category: string, metric: string): string {
  return `${runIndex}\u0000${category}\u0000${metric}`;
}

/**
 * Holm-adjusted p-values of every test, one family per category: the runs × metrics compared
 * with the base in that category. Keyed by `testKey`.
 */
export function adjustedPValues(comparisons: readonly RunComparison[]): Map<string, number> {
  const families = new Map<string, { key: string; pValue: number }[]>();
  comparisons.forEach((comparison, runIndex) => {
    for (const category of comparison.categories) {
      for (const metric of category.metrics) {
        if (metric.test === null) continue;
        const family = families.get(category.category) ?? [];
        family.push({ key: testKey(runIndex, category.category, metric.metric), pValue: metric.test.pValue });
        families.set(category.category, family);
      }
    }
  });
  const adjusted = new Map<string, number>();
  for (const family of families.values()) {
    const values = holmAdjust(family.map(({ pValue }) => pValue));
    for (const [index, { key }] of family.entries()) adjusted.set(key, values[index]!);
  }
  return adjusted;
}

const orNull = (value: number | undefined): number | null =>
  value === undefined || Number.isNaN(value) ? null : value;

/** Every run × category × metric of the comparison as a tidy row. */
export function comparisonRows(result: ComparisonResult): ComparisonRow[] {
  const adjusted = adjustedPValues(result.comparisons);
  return result.comparisons.flatMap((comparison, runIndex) =>
    comparison.categories.flatMap((category) =>
      category.metrics.map((metric): ComparisonRow => {
        const { test } = metric;
        return {
          base_run: comparison.base.runId,
          candidate_run: comparison.other.runId,
          candidate_label: comparison.other.label ?? null,
          question_type: category.category,
          metric: metric.metric,
          base_value: orNull(metric.base),
          candidate_value: orNull(metric.other),
          delta: orNull(metric.delta),
          base_n: metric.nBase,
          candidate_n: metric.nOther,
          paired_n: metric.nPaired,
          test: test?.kind ?? null,
          p_value: test === null ? null : test.pValue,
          p_holm: orNull(adjusted.get(testKey(runIndex, category.category, metric.metric))),
          ci95_low: test?.kind === 'bootstrap' ? test.ci95[0] : null,
          ci95_high: test?.kind === 'bootstrap' ? test.ci95[1] : null,
          mcnemar_b: test?.kind === 'mcnemar' ? test.b : null,
          mcnemar_c: test?.kind === 'mcnemar' ? test.c : null,
        };
      }),
    ),
  );
}

/** `lme compare --format json`: the rows as one JSON array (`pd.read_json` reads it as is). */
export function renderComparisonJson(result: ComparisonResult): string {
  return `${JSON.stringify(comparisonRows(result), null, 2)}\n`;
}

/**
 * `lme compare --format csv`: the rows with a header; a missing value is an empty cell, a cell a
 * spreadsheet would run as a formula is escaped, control characters shown as `\xNN` (numbers,
 * negative ones included, stay numbers).
 */
export function renderComparisonCsv(result: ComparisonResult): string {
  const rows = comparisonRows(result).map((row) => COMPARISON_COLUMNS.map((column) => row[column] ?? ''));
  return stringify(rows, { header: true, columns: [...COMPARISON_COLUMNS], ...SAFE_CSV_CELLS });
}
