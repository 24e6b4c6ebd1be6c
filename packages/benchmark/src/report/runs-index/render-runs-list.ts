import { stringify } from 'csv-stringify/sync';
import { escapeControlCharacters } from '../../config/terminal-text.js';
import { formatValue } from '../../results/markdown-table.js';
import type { RunOverview } from './run-overview.js';

/** Text from a results folder on one terminal line: control characters (newlines too) escaped. */
function oneLine(text: string): string {
  return escapeControlCharacters(text.replace(/\r?\n/g, '\\n').replace(/\t/g, '\\t'));
}

/** `bm25-official` preset, else the system (with an external system's name and version). */
export function whatRan(run: RunOverview): string {
  return run.preset === null ? run.system : `preset ${run.preset.replace(/^.*[\\/]/, '')}`;
}

/** A dataset by name (`sample`), or a path by its last two parts (`tier/1`, `locomo/locomo10-conv26.json`). */
export function datasetName(dataset: string): string {
  return dataset
    .split(/[\\/]/)
    .filter((part) => part !== '')
    .slice(-2)
    .join('/');
}

export function datasetAndConvention(run: RunOverview): string {
  return `${datasetName(run.dataset)} · ${run.convention}${run.exclusion ? ` ${run.exclusion}` : ''}`;
}

/** `18/22`, or `18/?` when a stopped run did not record its total. */
export function questionsCell(run: RunOverview): string {
  return `${run.questions_done}/${run.questions_total ?? '?'}`;
}

/** A metric's short name in the list: `session.` is implied. */
const shortName = (metric: string) => metric.replace(/^session\./, '');

export function headlineCell(run: RunOverview): string {
  if (run.headline.length === 0) return '-';
  return run.headline.map(({ metric, value }) => `${shortName(metric)} ${formatValue(value)}`).join(', ');
}

export function costCell(run: RunOverview): string {
  return run.cost_usd === null ? '-' : `$${run.cost_usd.toFixed(4)}`;
}

/** `2026-11-27 07:33Z`, or `-`. */
export function whenCell(run: RunOverview): string {
  const time = run.finished_at ?? run.started_at;
  return time === null ? '-' : time.replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, 'Z');
}

const HEADER = [
  'run id',
  'label',
  'dataset · convention',
  'preset or system',
  'done',
  'state',
  'headline',
  'cost',
  'when',
];

/** One line per run, columns aligned, newest first as given; a last line counts them. */
export function renderRunsText(runs: readonly RunOverview[], found: number): string {
  if (runs.length === 0) return `No runs${found > 0 ? ` match (${found} run folders found)` : ' found'}.\n`;
  const rows = runs.map((run) =>
    [
      run.run_id,
      run.label ?? '-',
      datasetAndConvention(run),
      whatRan(run),
      questionsCell(run),
      run.state,
      headlineCell(run),
      costCell(run),
      whenCell(run),
    ].map(oneLine),
  );
  const widths = HEADER.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd();
  const counts = ['complete', 'partial', 'failed']
    .map((state) => `${runs.filter((run) => run.state === state).length} ${state}`)
    .join(', ');
  return `${[line(HEADER), ...rows.map(line)].join('\n')}\n\n${runs.length} of ${found} runs (${counts}).\n`;
}

/** `lme runs --json`: the overviews as one JSON array. */
export function renderRunsJson(runs: readonly RunOverview[]): string {
  return `${JSON.stringify(runs, null, 2)}\n`;
}

const CSV_COLUMNS = [
  'run_id',
  'label',
  'benchmark',
  'dataset',
  'convention',
  'exclusion',
  'preset',
  'system',
  'provider_name',
  'provider_version',
  'errata',
  'judge',
  'questions_done',
  'questions_total',
  'failed',
  'state',
  'state_reason',
  'cost_usd',
  'fingerprint',
  'started_at',
  'finished_at',
  'dir',
] as const satisfies readonly (keyof RunOverview)[];

/**
 * `lme runs --csv`: one row per run, the fixed columns then one column per headline metric any run
 * has (empty where a run lacks it) and the latency percentiles; formula-like cells escaped.
 */
export function renderRunsCsv(runs: readonly RunOverview[]): string {
  const metrics = [...new Set(runs.flatMap((run) => run.headline.map(({ metric }) => metric)))];
  const latency = ['search_p50', 'search_p95', 'ingest_p50', 'ingest_p95'] as const;
  const rows = runs.map((run) => {
    const values = new Map(run.headline.map(({ metric, value }) => [metric, value]));
    return [
      ...CSV_COLUMNS.map((column) => {
        const value = run[column];
        return typeof value === 'string' ? escapeControlCharacters(value) : (value ?? '');
      }),
      ...metrics.map((metric) => values.get(metric) ?? ''),
      ...latency.map((name) => run.latency[name] ?? ''),
    ];
  });
  const header = [...CSV_COLUMNS, ...metrics, ...latency.map((name) => `latency_${name}_ms`)];
  return stringify(rows, { header: true, columns: header, escape_formulas: true });
}
