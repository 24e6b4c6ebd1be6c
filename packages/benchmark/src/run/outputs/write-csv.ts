import { stringify } from 'csv-stringify/sync';
import { escapeControlCharacters } from '../../config/terminal-text.js';
import { inMeans, judgeScore, type Sample } from '../../results/sample.js';
import type { Exclusion, Summary } from '../../results/summary.js';
import { inRetrievalMeans } from './aggregate-metrics.js';
import { summaryRows } from './render-table.js';

/**
 * The options every CSV lme writes shares: a cell a spreadsheet would run as a formula (it begins
 * with =, +, -, @, tab or carriage return) gets a leading single quote, as OWASP recommends against
 * CSV injection; control characters in text (an escape sequence in a folder name or a server's
 * answer) are shown as `\xNN`, as on the terminal (config/terminal-text.ts), so `cat samples.csv`
 * prints them instead of obeying them. Numbers, negative ones included, stay numbers.
 */
export const SAFE_CSV_CELLS = {
  escape_formulas: true,
  cast: { string: (value: string) => escapeControlCharacters(value) },
} as const;
const SAFE_CELLS = SAFE_CSV_CELLS;

/** summary.csv: long format, one row per (question_type, metric). */
export function summaryCsv(summary: Summary, variant = 'default'): string {
  const records: (string | number)[][] = [];
  for (const row of summaryRows(summary)) {
    const questionType = row.label.startsWith('abstention') ? 'abstention' : row.label;
    for (const [metric, value] of Object.entries(row.means.metrics)) {
      records.push([
        summary.run_id,
        variant,
        questionType,
        metric,
        value,
        row.means.counts[metric] ?? row.means.n,
        summary.label ?? '',
        appliedErrata(summary),
      ]);
    }
  }
  return stringify(records, {
    header: true,
    columns: ['run_id', 'variant', 'question_type', 'metric', 'value', 'n', 'label', 'errata'],
    ...SAFE_CELLS,
  });
}

/** The `errata` column: `name@version` when the run applied errata (corrected figures), else empty. */
function appliedErrata(summary: Summary): string {
  return summary.errata?.applied ? summary.errata.errata : '';
}

/** A question's `errata` cell: `excluded: gold-answer` or `corrected: evidence`, empty when untouched. */
export function sampleErrataCell(sample: Sample): string {
  if (!sample.errata) return '';
  return `${sample.errata.excluded ? 'excluded' : 'corrected'}: ${sample.errata.kinds.join('+')}`;
}

/**
 * samples.csv: one row per question, metrics flattened into columns; `label` is the run's --label.
 * When the run judged answers, `judge_score` (the score in [0, 1]; an old folder's label read as
 * 1/0) follows `judge_label`, and when its judge graded rubric items, `judge_items` (the items as
 * one JSON cell, as in samples.jsonl). Two columns say which means of summary.json the row is in,
 * so a notebook filters on them instead of re-deriving the rules: `in_retrieval_means` (its type's and overall retrieval means: the run's
 * exclusion applied, `_abs` questions never) and `in_means` (finished and not set aside by errata:
 * the QA means, which count `_abs` questions in their type and overall, and the abstention row).
 * When an external system ingested the haystacks, `ingest_ms` (0 on a question that searched a
 * haystack an earlier one ingested) and `ingest_shared` follow `retrieve_ms`.
 */
export function samplesCsv(
  samples: readonly Sample[],
  label?: string,
  options: { exclusion?: Exclusion } = {},
): string {
  const exclusion = options.exclusion ?? 'A';
  const metricNames = [...new Set(samples.flatMap((sample) => Object.keys(sample.metrics)))];
  const judged = samples.some((sample) => sample.judge);
  const itemized = samples.some((sample) => sample.judge?.items);
  const ingests = samples.some((sample) => sample.latency_ms.ingest !== undefined);
  const columns = [
    'question_id',
    'question_type',
    'abstention',
    'no_target',
    'in_retrieval_means',
    'in_means',
    ...metricNames,
    'top_session',
    'hypothesis',
    'judge_label',
    ...(judged ? ['judge_score'] : []),
    ...(itemized ? ['judge_items'] : []),
    'retrieve_ms',
    ...(ingests ? ['ingest_ms', 'ingest_shared'] : []),
    'error',
    'label',
    'errata',
  ];
  const records = samples.map((sample) => [
    sample.question_id,
    sample.question_type,
    sample.abstention,
    sample.no_target,
    inRetrievalMeans(sample, exclusion),
    inMeans(sample),
    ...metricNames.map((name) => sample.metrics[name] ?? ''),
    sample.hits[0]?.session_id ?? '',
    sample.hypothesis ?? '',
    sample.judge?.label ?? '',
    ...(judged ? [sample.judge ? (judgeScore(sample.judge) ?? '') : ''] : []),
    ...(itemized ? [sample.judge?.items ? JSON.stringify(sample.judge.items) : ''] : []),
    sample.latency_ms.retrieve,
    ...(ingests ? [sample.latency_ms.ingest ?? '', sample.ingest_shared === true] : []),
    sample.error ?? '',
    label ?? '',
    sampleErrataCell(sample),
  ]);
  return stringify(records, {
    header: true,
    columns,
    ...SAFE_CELLS,
    cast: { ...SAFE_CELLS.cast, boolean: (value) => (value ? 'true' : 'false') },
  });
}
