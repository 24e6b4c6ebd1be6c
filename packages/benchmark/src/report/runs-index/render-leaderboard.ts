import { dirname, relative, sep } from 'node:path';
import { formatValue } from '../../results/markdown-table.js';
import { escapeHtml } from '../html/render-html-report.js';
import { claimsSectionFor } from './claims-table.js';
import { LEADERBOARD_CLIENT } from './leaderboard-client.js';
import { groupForLeaderboard, type LeaderboardGroup } from './leaderboard-groups.js';
import { costCell, questionsCell, whatRan, whenCell } from './render-runs-list.js';
import type { RunOverview } from './run-overview.js';

export type RenderLeaderboardOptions = {
  /** Where the page is written: links to each run's report are relative to it. */
  outFile: string;
  /** The folder listed, named in the page's title line. */
  root: string;
  now?: Date;
};

/** A table cell: escaped text, `data-sort` for the client's sort (numbers as written, exact). */
function cell(
  text: string,
  sort: string | number | null,
  options: { numeric?: boolean; html?: string } = {},
) {
  const attribute = sort === null ? '' : ` data-sort="${escapeHtml(sort)}"`;
  return `<td${options.numeric ? ' class="num"' : ''}${attribute}>${options.html ?? escapeHtml(text)}</td>`;
}

/** A relative link from the page to a file, each path segment URL-encoded. */
function linkTo(outFile: string, target: string): string {
  return relative(dirname(outFile), target).split(sep).map(encodeURIComponent).join('/');
}

function metricCell(run: RunOverview, metric: string): string {
  const figure = run.headline.find((entry) => entry.metric === metric);
  if (figure === undefined) return cell('–', null, { numeric: true });
  const interval = figure.ci95
    ? ` <small>[${formatValue(figure.ci95.low)}, ${formatValue(figure.ci95.high)}]</small>`
    : '';
  return `<td class="num" data-sort="${figure.value}" data-metric="${escapeHtml(metric)}" title="n ${figure.n}">${formatValue(figure.value)}${interval}</td>`;
}

function numberCell(value: number | null, digits: number): string {
  return value === null
    ? cell('–', null, { numeric: true })
    : cell(value.toFixed(digits), value, { numeric: true });
}

function runCell(run: RunOverview, outFile: string): string {
  const name = run.label ?? run.run_id;
  const link =
    run.report === null
      ? escapeHtml(name)
      : `<a href="${escapeHtml(linkTo(outFile, run.report))}">${escapeHtml(name)}</a>`;
  const id = run.label === null ? '' : `<br><small>${escapeHtml(run.run_id)}</small>`;
  return `<td data-sort="${escapeHtml(name)}" data-run="${escapeHtml(run.run_id)}">${link}${id}</td>`;
}

function tableOf(group: LeaderboardGroup, index: number, outFile: string): string {
  const named = [...new Set(group.runs.flatMap((run) => run.headline.map(({ metric }) => metric)))];
  // The table is sorted on the first headline figure every run in it has (a figure half the rows lack sorts nothing).
  const shared = named.find((metric) =>
    group.runs.every((run) => run.headline.some((figure) => figure.metric === metric)),
  );
  const metrics = shared === undefined ? named : [shared, ...named.filter((metric) => metric !== shared)];
  const lead = metrics[0];
  const types = lead === undefined ? [] : [...new Set(group.runs.flatMap((run) => Object.keys(run.by_type)))];
  const hasIngest = group.runs.some(
    (run) => run.latency.ingest_p50 !== null || run.latency.ingest_p95 !== null,
  );
  // Best first by the lead figure, a complete run before a stopped one of the same figure; empty cells last.
  const leadOf = (run: RunOverview) => run.headline.find(({ metric }) => metric === lead)?.value ?? -1;
  const rankOf = (run: RunOverview) => ['complete', 'partial', 'failed'].indexOf(run.state);
  const sorted = [...group.runs].sort(
    (left, right) => leadOf(right) - leadOf(left) || rankOf(left) - rankOf(right),
  );
  const header = [
    'run',
    'state',
    'preset or system',
    'questions',
    ...metrics,
    ...types.map((type) => `${lead} · ${type}`),
    'cost',
    'search p50 ms',
    'search p95 ms',
    ...(hasIngest ? ['ingest p50 ms', 'ingest p95 ms'] : []),
    'fingerprint',
    'when',
  ];
  const head = header
    .map((title, column) => {
      const sorted = column === 4 && lead !== undefined ? ' aria-sort="descending"' : '';
      return `<th${sorted}><button type="button">${escapeHtml(title)}</button></th>`;
    })
    .join('');
  const rows = sorted.map((run) =>
    [
      `<tr class="${run.state}">`,
      runCell(run, outFile),
      `<td data-sort="${run.state}"${run.state_reason ? ` title="${escapeHtml(run.state_reason)}"` : ''}>${run.state}</td>`,
      cell(whatRan(run), whatRan(run)),
      cell(questionsCell(run), run.questions_done, { numeric: true }),
      ...metrics.map((metric) => metricCell(run, metric)),
      ...types.map((type) => {
        const value = lead === undefined ? undefined : run.by_type[type]?.[lead];
        return value === undefined
          ? cell('–', null, { numeric: true })
          : cell(formatValue(value), value, { numeric: true });
      }),
      cell(costCell(run), run.cost_usd, { numeric: true }),
      numberCell(run.latency.search_p50, 1),
      numberCell(run.latency.search_p95, 1),
      ...(hasIngest ? [numberCell(run.latency.ingest_p50, 1), numberCell(run.latency.ingest_p95, 1)] : []),
      run.fingerprint === null
        ? cell('–', null)
        : cell('', run.fingerprint, {
            html: `<code title="${escapeHtml(run.fingerprint)}">${escapeHtml(run.fingerprint.slice(0, 10))}</code>`,
          }),
      cell(whenCell(run), run.finished_at ?? run.started_at),
      '</tr>',
    ].join(''),
  );
  const facts = [
    `dataset checksum ${group.checksum === null ? 'not recorded' : `<code title="${escapeHtml(group.checksum)}">${escapeHtml(group.checksum.slice(0, 12))}…</code>`}`,
    `errata ${escapeHtml(group.errata)}`,
    `judge ${escapeHtml(group.judge ?? 'none (retrieval only)')}`,
  ].join(' · ');
  return [
    `<section class="group" id="group-${index}">`,
    `<h2>${escapeHtml(group.title)} <small>${group.runs.length} run${group.runs.length === 1 ? '' : 's'}</small></h2>`,
    group.apart === null ? '' : `<p class="apart">${escapeHtml(group.apart)}</p>`,
    rolesNote(group),
    `<p class="facts">${facts}</p>`,
    `<div class="scroll"><table class="board"><thead><tr>${head}</tr></thead><tbody>${rows.join('\n')}</tbody></table></div>`,
    '</section>',
  ].join('\n');
}

/** Runs in one table that were given other turns (user turns only, or every role) say so: they are not on equal terms. */
function rolesNote(group: LeaderboardGroup): string {
  const byRoles = (roles: string) =>
    group.runs.filter((run) => run.index_roles === roles).map((run) => run.label ?? run.run_id);
  const [user, all] = [byRoles('user'), byRoles('all')];
  if (user.length === 0 || all.length === 0) return '';
  return `<p class="apart">${escapeHtml(`Not on equal terms: ${user.join(', ')} indexed user turns only, ${all.join(', ')} every role (--index-roles all gives lme's pipeline what an external system gets).`)}</p>`;
}

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}h2 small{font-weight:normal;color:#666}
.scroll{overflow-x:auto}table{border-collapse:collapse}th,td{border-bottom:1px solid #ddd;padding:.3em .6em;white-space:nowrap;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums}th button{font:inherit;font-weight:600;background:none;border:0;padding:0;cursor:pointer}
th[aria-sort=descending] button::after{content:" ▼"}th[aria-sort=ascending] button::after{content:" ▲"}
tr.partial td{color:#8a6d00}tr.failed td{color:#b00020}.apart{color:#b00020}.facts{color:#555}small{color:#666}
`;

/**
 * The leaderboard: one self-contained page (no network: a CSP forbids every fetch), one sortable
 * table per dataset and convention with comparable runs, every text from a results folder escaped.
 */
export function renderLeaderboard(runs: readonly RunOverview[], options: RenderLeaderboardOptions): string {
  const groups = groupForLeaderboard(runs);
  const now = (options.now ?? new Date())
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z');
  const body =
    groups.length === 0
      ? '<p>No runs.</p>'
      : groups.map((group, index) => tableOf(group, index, options.outFile)).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>lme leaderboard</title><style>${STYLE}</style></head>
<body>
<h1>lme leaderboard</h1>
<p>${runs.length} run${runs.length === 1 ? '' : 's'} in <code>${escapeHtml(options.root)}</code>, written ${escapeHtml(now)}. One table per benchmark, dataset, convention and question set (how many questions, at which granularity); runs whose dataset checksum, errata or judge differ are in a table of their own, which says why. Click a column to sort; a run's name opens its own report. Intervals are 95%.</p>
${body}
${claimsSectionFor(runs, options.outFile)}
<script>${LEADERBOARD_CLIENT.replace(/<\/(script)/gi, '<\\/$1')}</script>
</body></html>
`;
}
