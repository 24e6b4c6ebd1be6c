import { formatValue, renderMarkdownTable } from '../results/markdown-table.js';
import type { Summary } from '../results/summary.js';
import { headlineMetrics, presentColumns, summaryRows } from '../run/outputs/render-table.js';
import { summaryCsv } from '../run/outputs/write-csv.js';

export type VariantSummary = { variant: string; summary: Summary };

/** Search latency, and an external system's ingest time where it has one (beside it). */
const LATENCY_METRICS = [
  'latency.retrieve_ms.p50',
  'latency.retrieve_ms.p95',
  'latency.ingest_ms.p50',
  'latency.ingest_ms.p95',
] as const;

/**
 * One table for all variants: for each question type (then abstention, then overall) a row per
 * variant, columns the retrieval metrics any variant has; when QA ran, a second table of the QA
 * metrics, whose abstention row is counted in its type and overall (as print_qa_metrics.py).
 */
export function renderVariantsTable(variants: readonly VariantSummary[], title: string): string {
  // Headline metrics of the variants' convention, plus retrieval latency.
  const convention = variants[0]?.summary.convention ?? 'official';
  const wanted = [...headlineMetrics(convention), ...LATENCY_METRICS];
  const retrieval = variantsBody(
    variants,
    'retrieval',
    wanted.filter((metric) => !metric.startsWith('qa.')),
  );
  const qa = variantsBody(
    variants,
    'qa',
    wanted.filter((metric) => metric.startsWith('qa.')),
  );
  const tables = [retrieval, qa]
    .filter(({ columns }) => columns.length > 0)
    .map(({ columns, body }) => renderMarkdownTable(['question_type', 'variant', 'n', ...columns], body));
  if (tables.length === 0)
    tables.push(renderMarkdownTable(['question_type', 'variant', 'n'], retrieval.body));
  return `${title}\n\n${tables.join('\n\n')}\n`;
}

function variantsBody(
  variants: readonly VariantSummary[],
  kind: 'retrieval' | 'qa',
  wanted: readonly string[],
): { columns: string[]; body: string[][] } {
  const rowsByVariant = variants.map(({ variant, summary }) => ({
    variant,
    rows: summaryRows(summary, kind),
  }));
  const labels = [...new Set(rowsByVariant.flatMap(({ rows }) => rows.map((row) => row.label)))];
  const columns = presentColumns(
    rowsByVariant.flatMap(({ rows }) => rows),
    wanted,
  );
  const body: string[][] = [];
  for (const label of labels) {
    for (const { variant, rows } of rowsByVariant) {
      const row = rows.find((candidate) => candidate.label === label);
      if (!row) continue;
      body.push([
        label,
        variant || 'base',
        // QA means are over every finished question, abstention included: n is what they count.
        String(kind === 'qa' ? (row.means.counts[columns[0]!] ?? 0) : row.means.n),
        ...columns.map((metric) =>
          metric.startsWith('latency.')
            ? (row.means.metrics[metric]?.toFixed(2) ?? '-')
            : formatValue(row.means.metrics[metric]),
        ),
      ]);
    }
  }
  return { columns, body };
}

/** The variants' summary.csv rows in one file, with the variant column filled. */
export function variantsCsv(variants: readonly VariantSummary[]): string {
  return variants
    .map(({ variant, summary }, index) => {
      const csv = summaryCsv(summary, variant || 'base');
      return index === 0 ? csv : csv.slice(csv.indexOf('\n') + 1);
    })
    .join('');
}
