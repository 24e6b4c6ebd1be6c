import type { ComparisonTable } from '../../analysis/render-comparison-table.js';
import { metricBarSpecs, recallCurveSpec } from './chart-specs.js';
import { REPORT_CLIENT } from './report-client.js';
import type { ReportModel, ReportRun } from './report-model.js';
import { readVegaBundles } from './vega-bundles.js';

export type RenderHtmlReportOptions = {
  /** The browser builds to inline (default: read from node_modules). */
  bundles?: { name: string; version: string; source: string }[];
};

export function escapeHtml(value: unknown): string {
  return String(value).replace(
    /[&<>"']/g,
    (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!,
  );
}

/** JSON safe inside a `<script>` element: no `<` can end it early. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** JavaScript safe inside a `<script>` element. */
function scriptSource(source: string): string {
  return source.replace(/<\/(script)/gi, '<\\/$1');
}

function provenanceRow(run: ReportRun): string {
  const cell = (value: unknown) =>
    `<td>${value === null || value === undefined ? '–' : escapeHtml(value)}</td>`;
  const sha = run.dataset_sha256
    ? `<code title="${escapeHtml(run.dataset_sha256)}">${escapeHtml(run.dataset_sha256.slice(0, 12))}…</code>`
    : '–';
  return [
    `<tr><td><span class="swatch" style="background:${escapeHtml(run.colour)}"></span><b>${escapeHtml(run.label)}</b>`,
    run.label !== run.run_id ? `<br><small>${escapeHtml(run.run_id)}</small>` : '',
    '</td>',
    `<td>${escapeHtml(run.dataset)}<br><small title="${escapeHtml(run.dataset_path)}">sha256 ${sha}</small><br><small>errata ${escapeHtml(run.errata)}</small></td>`,
    cell(`${run.convention}${run.exclusion ? ` (exclusion ${run.exclusion})` : ''}, ${run.granularity}`),
    cell(`${run.retriever}${run.stages.length > 0 ? ` + ${run.stages.join(' + ')}` : ''}`),
    cell(run.embedder),
    cell(run.reader),
    `<td>${run.git_commit ? `<code>${escapeHtml(run.git_commit.slice(0, 10))}</code>${run.git_dirty ? ' (dirty)' : ''}` : '–'}</td>`,
    cell(run.started_at?.replace('T', ' ').replace(/\.\d+Z$/, 'Z')),
    `<td>${run.seconds === null ? '–' : `${run.seconds} s`}${run.ingest ? `<br><small>ingest ${escapeHtml(run.ingest)}</small>` : ''}</td>`,
    cell(run.cost_usd === null ? '$0' : `$${run.cost_usd}`),
    cell(`${run.n}${run.errors > 0 ? ` (${run.errors} errors)` : ''}`),
    '</tr>',
  ].join('');
}

/** The paired comparison as an HTML table: label columns left, numbers right, notes below. */
function comparisonSection(table: ComparisonTable): string {
  const cell = (tag: 'td' | 'th', text: string, column: number) =>
    `<${tag}${column >= 2 ? ' class="num"' : ''}>${escapeHtml(text)}</${tag}>`;
  const head = `<tr>${table.header.map((text, column) => cell('th', text, column)).join('')}</tr>`;
  const rows = table.body.map(
    (row) => `<tr>${row.map((text, column) => cell('td', text, column)).join('')}</tr>`,
  );
  const list = (items: readonly string[]) =>
    items.length === 0 ? '' : `<ul>${items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>`;
  return [
    `<h2>Paired comparison: ${escapeHtml(table.title)}</h2>`,
    `<table id="comparison">${head}\n${rows.join('\n')}</table>`,
    ...table.notes.map((note) => `<p class="muted">${escapeHtml(note)}</p>`),
    list(table.runs),
    list(table.warnings.map((warning) => `warning: ${warning}`)),
  ].join('\n');
}

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#222;background:#fafafa}
header,main{padding:12px 24px}header{background:#fff;border-bottom:1px solid #ddd}
h1{font-size:20px;margin:4px 0 8px}h2{font-size:17px;margin:18px 0 8px}h3{font-size:15px;margin:14px 0 6px}
table{border-collapse:collapse;background:#fff}td,th{border:1px solid #e2e2e2;padding:3px 6px;vertical-align:top;text-align:left}
th[data-sort]{cursor:pointer;user-select:none}th[data-sort]:hover{background:#f0f0f0}
.num{text-align:right;font-variant-numeric:tabular-nums}.muted{color:#888}small{color:#666}
.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:5px;vertical-align:baseline}
.charts{display:flex;flex-wrap:wrap;gap:12px}.chart{background:#fff;border:1px solid #e2e2e2;padding:6px}
.hit{color:#2e7d32}.miss{color:#c62828}.filters{margin:8px 0;display:flex;gap:12px;align-items:center;flex-wrap:wrap}
.question-text{color:#555;font-size:12px;max-width:520px}.routes{font-size:12px;color:#555}.cause{font-size:12px;color:#8a4b00}
.turn{background:#fff;border:1px solid #e2e2e2;border-left:4px solid #59a14f;padding:6px 8px;margin:6px 0;white-space:pre-wrap;max-width:980px}
.turn .meta{font-size:12px;color:#666;white-space:normal}.run-card{background:#fff;border:1px solid #e2e2e2;border-left:6px solid;padding:6px 12px;margin:12px 0}
.gold-hit{background:#fff8e1}dl.facts{display:grid;grid-template-columns:80px 1fr;gap:2px 12px;max-width:980px}dl.facts dt{color:#666}dl.facts dd{margin:0}
dd.question{font-weight:600}pre{background:#fff;border:1px solid #e2e2e2;padding:8px;overflow:auto;font-size:12px}
`;

/**
 * The self-contained report page: the provenance header and chart slots rendered here, the
 * table and question pages by the inlined page script; vega, vega-lite and vega-embed inlined,
 * so the file opens from disk with no network.
 */
export function renderHtmlReport(model: ReportModel, options: RenderHtmlReportOptions = {}): string {
  const bundles = options.bundles ?? readVegaBundles();
  const bars = metricBarSpecs(model);
  const specs = { bars, curve: model.curve.length > 0 ? recallCurveSpec(model) : null };
  const chartSlots = bars
    .map(
      (item, index) =>
        `<div class="chart" id="chart-${index}" data-metric="${escapeHtml(item.metric)}"></div>`,
    )
    .join('');
  const body = `
<header>
<h1>${escapeHtml(model.title)}</h1>
<table class="provenance"><tr><th>run</th><th>dataset</th><th>convention</th><th>retriever and stages</th><th>embedder</th><th>reader</th><th>git commit</th><th>started</th><th>time</th><th>cost</th><th>n</th></tr>
${model.runs.map(provenanceRow).join('\n')}
</table>
<small>generated ${escapeHtml(model.generated_at)} by lme report --html · charts: ${bundles.map((bundle) => escapeHtml(`${bundle.name} ${bundle.version}`)).join(', ')}${model.notes.length > 0 ? ` · ${model.notes.map(escapeHtml).join(' ')}` : ''}</small>
</header>
<main>
<div id="overview">
<h2>Headline metrics per question type</h2>
<p class="muted">Bars: mean per question type (overall excludes abstention for retrieval metrics; QA metrics count it); the number on a bar is n, the questions in that mean.</p>
<div class="charts" id="charts">${chartSlots}</div>
<h2>Recall@k</h2>
<div class="charts"><div class="chart" id="curve"></div></div>
${model.comparison ? comparisonSection(model.comparison) : ''}
<h2>Questions</h2>
<div class="filters">
<label>type <select id="type-filter"></select></label>
<label>miss (gold not in top k) <select id="miss-filter"></select></label>
<label>k <select id="k-filter"></select></label>
<label><input type="checkbox" id="disagree-filter"> runs disagree</label>
<span id="row-count" class="muted"></span>
</div>
<table id="question-table"></table>
</div>
<div id="question-page" hidden></div>
</main>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(model.title)}</title>
<style>${STYLE}</style>
${bundles.map((bundle) => `<script data-bundle="${escapeHtml(bundle.name)}">${scriptSource(bundle.source)}</script>`).join('\n')}
</head><body>${body}
<script type="application/json" id="lme-model">${scriptJson(model)}</script>
<script type="application/json" id="lme-specs">${scriptJson(specs)}</script>
<script>${scriptSource(REPORT_CLIENT)}</script>
</body></html>
`;
}
