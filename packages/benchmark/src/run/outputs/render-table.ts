import { renderQaTable } from '../../qa/render-qa-table.js';
import { formatValue, renderMarkdownTable } from '../../results/markdown-table.js';
import { describeProvider } from '../../results/provider-identity.js';
import type { MetricMeans, Summary } from '../../results/summary.js';

/** The metrics a table shows when present, in order. */
export const HEADLINE_METRICS = [
  'session.recall_any@5',
  'session.recall_all@5',
  'session.ndcg_any@5',
  'session.recall_all@10',
  'session.mrr',
  'turn.recall_any@5',
  'turn.recall_all@10',
  'turn.ndcg_any@10',
  'context.evidence_recall',
  'qa.accuracy_strict',
] as const;

/**
 * The evidence convention is how memory systems publish retrieval figures: session recall_any at
 * 5 and 10, NDCG@10 and MRR lead its tables.
 */
export const EVIDENCE_HEADLINE_METRICS = [
  'session.recall_any@5',
  'session.recall_any@10',
  'session.ndcg_any@10',
  'session.mrr',
  'session.recall_all@5',
  'turn.recall_any@5',
  'turn.recall_all@10',
  'context.evidence_recall',
  'qa.accuracy_strict',
] as const;

export function headlineMetrics(convention: string): readonly string[] {
  return convention === 'evidence' ? EVIDENCE_HEADLINE_METRICS : HEADLINE_METRICS;
}

export type TableRow = { label: string; means: MetricMeans };

/** The abstention row of retrieval metrics: `_abs` questions are left out of their type and overall. */
export const ABSTENTION_RETRIEVAL_LABEL = 'abstention (not in overall)';
/** The abstention row of QA metrics: counted in their type and overall, as print_qa_metrics.py does. */
export const ABSTENTION_QA_LABEL = 'abstention (also in its type and overall)';

/** The abstention row's label for a metric: QA metrics (`qa.*`) count abstention in overall. */
export function abstentionLabel(metric: string): string {
  return metric.startsWith('qa.') ? ABSTENTION_QA_LABEL : ABSTENTION_RETRIEVAL_LABEL;
}

/**
 * Rows of a summary: the six types, abstention, overall. The abstention row is labelled for
 * retrieval metrics unless `kind` is `qa`.
 */
export function summaryRows(summary: Summary, kind: 'retrieval' | 'qa' = 'retrieval'): TableRow[] {
  return [
    ...Object.entries(summary.metrics.by_type).map(([label, means]) => ({ label, means })),
    {
      label: kind === 'qa' ? ABSTENTION_QA_LABEL : ABSTENTION_RETRIEVAL_LABEL,
      means: summary.metrics.abstention,
    },
    { label: 'overall', means: summary.metrics.overall },
  ];
}

/** Columns worth showing: the headline metrics some row has. */
export function presentColumns(
  rows: readonly TableRow[],
  wanted: readonly string[] = HEADLINE_METRICS,
): string[] {
  return wanted.filter((metric) => rows.some((row) => row.means.metrics[metric] !== undefined));
}

/** The per-category table of one run, with its conventions in the header line. */
export function renderSummaryTable(summary: Summary): string {
  // A type all of whose questions are abstention ones (BEAM's `abstention`, LoCoMo's category 5)
  // has no row of its own: its questions are in the abstention row.
  const rows = summaryRows(summary).filter(
    (row) =>
      row.means.n > 0 ||
      (row.means.errors ?? 0) > 0 ||
      row.label === 'overall' ||
      row.label === ABSTENTION_RETRIEVAL_LABEL,
  );
  // QA figures have their own table (qa/render-qa-table.ts): their abstention row is in overall.
  const columns = presentColumns(rows, headlineMetrics(summary.convention)).filter(
    (metric) => !metric.startsWith('qa.'),
  );
  const qaTable = renderQaTable(summary);
  const title =
    `${summary.run_id}${summary.label ? ` (${summary.label})` : ''}` +
    (summary.provider ? ` · provider ${summary.provider.kind} ${describeProvider(summary.provider)}` : '') +
    ` · dataset ${summary.dataset} · convention ${summary.convention}` +
    (summary.convention === 'official' ? ` (exclusion ${summary.exclusion})` : '') +
    (summary.errata?.applied
      ? ` · errata ${summary.errata.errata} (${summary.errata.questions_touched} questions touched, ${summary.errata.excluded} excluded)`
      : '') +
    (summary.errors > 0 ? ` · ${summary.errors} of ${summary.n} questions failed` : '');
  if (summary.n > 0 && summary.errors === summary.n) {
    const first = summary.first_error;
    return (
      `${title}\n\nNo question finished: all ${summary.n} failed, so there is no figure to show` +
      `${first ? ` (first: ${first.question_id}: ${first.message})` : ''}.\n`
    );
  }
  const withErrors = summary.errors > 0;
  const header = ['question_type', 'n', ...(withErrors ? ['errors'] : []), ...columns];
  const body = rows.map((row) => [
    row.label,
    String(row.means.n),
    ...(withErrors ? [String(row.means.errors ?? 0)] : []),
    ...columns.map((metric) => formatValue(row.means.metrics[metric])),
  ]);
  const notes = vacuousRowsNote(summary);
  if (qaTable && columns.length === 0) return `${title}\n\n${qaTable}`;
  return `${title}\n\n${renderMarkdownTable(header, body)}\n${notes ? `\n${notes}\n` : ''}${qaTable ? `\n${qaTable}` : ''}`;
}

/**
 * Under the official convention (exclusion A) a question with no user-side gold is counted with
 * recall_all 1: the footnote says how many per type and how to leave them out.
 */
export function vacuousRowsNote(summary: Summary): string | undefined {
  if (summary.convention !== 'official' || summary.exclusion !== 'A') return undefined;
  const perType = Object.entries(summary.metrics.by_type)
    .filter(([, means]) => (means.no_target ?? 0) > 0)
    .map(([type, means]) => `${type} ${means.no_target} of ${means.n}`);
  if (perType.length === 0) return undefined;
  const total = Object.values(summary.metrics.by_type).reduce(
    (sum, means) => sum + (means.no_target ?? 0),
    0,
  );
  return (
    `Note: ${total} counted question${total === 1 ? ' has' : 's have'} no user-side gold (no_target: ${perType.join(', ')}); ` +
    'recall_all is 1 for them, by the official scripts. Leave them out with --exclusion B, or grade on ' +
    'answer_session_ids with --convention evidence.'
  );
}
