import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildHtmlReport, resolveReportInputs } from '../report/html/build-html-report.js';
import type { MetricMeans, Summary } from '../results/summary.js';
import { makeSampleQaRun } from '../testing/make-qa-run.js';
import { runCli } from '../testing/run-cli.js';
import { compareRuns, compareTwoRuns } from './compare-runs.js';
import {
  COMPARISON_COLUMNS,
  type ComparisonRow,
  renderComparisonCsv,
  renderComparisonJson,
} from './comparison-rows.js';
import { type Run, readRun } from './read-run.js';
import { renderComparisonTable } from './render-comparison-table.js';

// Two QA runs on the 22-question sample (4 of them abstention questions): retrieval means leave the
// abstention questions out of their type and overall (n 18 overall, 3 single-session-user), QA means
// count them (n 22 overall, 4 single-session-user), as the official scripts do.
let root: string;
let first: Run;
let second: Run;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'lme-compare-qa-'));
  first = readRun(await makeSampleQaRun(root, 'qa-a', (question) => question.length % 2 === 0));
  second = readRun(await makeSampleQaRun(root, 'qa-b', (question) => question.length % 3 !== 0));
}, 120_000);

function group(summary: Summary, category: string): MetricMeans {
  if (category === 'overall') return summary.metrics.overall;
  if (category === 'abstention') return summary.metrics.abstention;
  return summary.metrics.by_type[category]!;
}

describe('the n of each metric, on QA runs', () => {
  it('summary.json counts retrieval and QA metrics over their own questions', () => {
    const summary = first.summary!;
    expect(summary.metrics.overall.counts['session.recall_all@5']).toBe(18);
    expect(summary.metrics.overall.counts['qa.accuracy_strict']).toBe(22);
    expect(summary.metrics.by_type['single-session-user']!.counts['session.recall_all@5']).toBe(3);
    expect(summary.metrics.by_type['single-session-user']!.counts['qa.accuracy_strict']).toBe(4);
  });

  it('compares QA by default when both runs have it, each metric with the n of its own mean', () => {
    const comparison = compareTwoRuns(first, second);
    expect(comparison.metrics).toEqual([
      'session.recall_all@5',
      'session.recall_any@5',
      'session.ndcg_any@5',
      'qa.accuracy_strict',
    ]);
    for (const category of comparison.categories) {
      for (const metric of category.metrics) {
        const label = `${category.category} ${metric.metric}`;
        expect(metric.nBase, label).toBe(group(first.summary!, category.category).counts[metric.metric]);
        expect(metric.nOther, label).toBe(group(second.summary!, category.category).counts[metric.metric]);
        expect(metric.base, label).toBe(group(first.summary!, category.category).metrics[metric.metric]);
      }
    }
  });

  it('shows the QA n on the QA rows of the markdown table', () => {
    const text = renderComparisonTable(compareRuns([first, second], { resamples: 100 }));
    expect(text).toMatch(/^\| overall +\| session\.recall_all@5 \| +18 \| /m);
    expect(text).toMatch(/^\| +\| qa\.accuracy_strict +\| +22 \| /m);
    const user = text.slice(text.indexOf('| single-session-user'));
    expect(user).toMatch(/^\| single-session-user +\| session\.recall_all@5 \| +3 \| /m);
    expect(user.split('\n')[3]).toMatch(/^\| +\| qa\.accuracy_strict +\| +4 \| /);
  });

  it('writes tidy JSON and CSV rows: numbers as numbers, the n of each side and the pairs', () => {
    const result = compareRuns([first, second], { resamples: 100 });
    const rows = JSON.parse(renderComparisonJson(result)) as ComparisonRow[];
    const qa = rows.filter((row) => row.metric === 'qa.accuracy_strict');
    expect(qa.map((row) => row.question_type)).toContain('overall');
    for (const row of qa) {
      const graded = group(first.summary!, row.question_type).counts['qa.accuracy_strict'];
      expect(row.base_n, row.question_type).toBe(graded);
      expect(row.paired_n, row.question_type).toBe(graded);
      expect(typeof row.base_value).toBe('number');
      expect(row.test).toBe('mcnemar');
      expect(row.ci95_low).toBeNull();
    }
    expect(
      rows.find((row) => row.question_type === 'overall' && row.metric === 'qa.accuracy_strict'),
    ).toMatchObject({
      base_run: 'qa-a',
      candidate_run: 'qa-b',
      base_n: 22,
      candidate_n: 22,
      paired_n: 22,
    });
    const bootstrap = rows.find(
      (row) => row.metric === 'session.ndcg_any@5' && row.question_type === 'overall',
    )!;
    expect(bootstrap.test).toBe('bootstrap');
    expect(bootstrap.base_n).toBe(18);
    expect(bootstrap.ci95_low).toBeTypeOf('number');
    // The CSV holds the same rows: plain numbers, an empty cell where JSON has null.
    const lines = renderComparisonCsv(result).trimEnd().split('\n');
    expect(lines.slice(1)).toEqual(
      rows.map((row) => COMPARISON_COLUMNS.map((column) => String(row[column] ?? '')).join(',')),
    );
  });

  it('labels the HTML report QA bars with the QA n, strict accuracy first, and draws the comparison as a table', async () => {
    const { html, model } = await buildHtmlReport({
      inputs: resolveReportInputs([first.dir, second.dir]),
      resamples: 100,
    });
    expect(model.metrics.filter((metric) => metric.startsWith('qa.'))).toEqual([
      'qa.accuracy_strict',
      'qa.accuracy',
    ]);
    const bar = (metric: string, category: string) =>
      model.bars.find((row) => row.run === 'qa-a' && row.metric === metric && row.category === category)?.n;
    expect(bar('qa.accuracy_strict', 'overall')).toBe(22);
    expect(bar('qa.accuracy_strict', 'single-session-user')).toBe(4);
    expect(bar('session.recall_all@5', 'overall')).toBe(18);
    expect(html).toContain(
      '<table id="comparison"><tr><th>category</th><th>metric</th><th class="num">n</th>',
    );
    expect(html).not.toContain('<pre id="comparison">');
  });
});

describe('lme compare --format', () => {
  it('prints JSON rows and CSV that parse with no cleaning, and refuses --pairs with them', () => {
    const json = runCli(['compare', first.dir, second.dir, '--format', 'json', '--resamples', '50']);
    // The rows hold the compared metrics only: a metric left out that differs is named on stderr.
    expect(json.stderr).toMatch(
      /^lme: warning: qa-b: 1 metric not shown differs too: qa\.accuracy \(12 questions changed; overall \+0\.4545, /,
    );
    expect(json.status).toBe(0);
    const rows = JSON.parse(json.stdout) as ComparisonRow[];
    expect(
      rows.find((row) => row.question_type === 'overall' && row.metric === 'qa.accuracy_strict')?.base_n,
    ).toBe(22);
    const out = join(root, 'compare.csv');
    const csv = runCli([
      'compare',
      first.dir,
      second.dir,
      '--format',
      'csv',
      '--resamples',
      '50',
      '--out',
      out,
    ]);
    expect(csv.status).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(csv.stdout);
    expect(csv.stdout.split('\n')[0]).toBe(
      'base_run,candidate_run,candidate_label,question_type,metric,base_value,candidate_value,delta,base_n,candidate_n,paired_n,test,p_value,p_holm,ci95_low,ci95_high,mcnemar_b,mcnemar_c',
    );
    const pairs = runCli(['compare', first.dir, second.dir, '--format', 'json', '--pairs']);
    expect(pairs.status).toBe(1);
    expect(pairs.stderr).toBe('lme: --pairs adds markdown reports; it goes with --format md, not json.\n');
  });

  it('names the cause when a run has no scored question: all failed, with the first error', () => {
    const dir = join(root, 'all-failed');
    const failed = first.samples.map((sample) => ({
      ...sample,
      hits: [],
      metrics: {},
      error: 'reader failed: 401 Unauthorized',
    }));
    const broken: Run = { ...first, dir, config: { ...first.config, run_id: 'all-failed' }, samples: failed };
    expect(() => compareTwoRuns(first, broken)).toThrow(
      `Run all-failed (${dir}) has no scored questions: all 22 failed (first: ${failed[0]!.question_id}: reader failed: 401 Unauthorized); see the "error" field of its samples.jsonl.`,
    );
  });
});
