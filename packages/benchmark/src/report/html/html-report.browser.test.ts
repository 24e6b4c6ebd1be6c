import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../../testing/run-cli.js';
import { findChromium, type OpenedReport, openReport, screenshotReport } from './report-browser.js';

/**
 * Opens the HTML report of two real BM25 runs on the committed sample in headless Chromium.
 * Needs a system Chromium (Debian's `chromium`, which .ci/run installs); skips, saying so, without.
 * With LME_REPORT_SCREENSHOTS=<dir> it also saves the overview and a missed question's page there
 * (docs/report.png is made this way).
 */
const executablePath = findChromium();
const skipReason = executablePath
  ? undefined
  : 'no Chromium found at $LME_CHROMIUM, /usr/bin/chromium, /usr/bin/chromium-browser or /usr/bin/google-chrome (apt-get install chromium)';
if (skipReason) console.warn(`html-report browser test skipped: ${skipReason}`);

type StoredSample = { question_id: string; metrics: Record<string, number> };
const readSamples = (dir: string): StoredSample[] =>
  readFileSync(join(dir, 'samples.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as StoredSample);

describe.skipIf(skipReason !== undefined)('the HTML report in headless Chromium', () => {
  let root: string;
  let official: string;
  let words: string;
  let report: OpenedReport;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'lme-html-report-'));
    for (const [preset, extra] of [
      ['bm25-official', ['--explain']],
      ['bm25', []],
    ] as const) {
      const result = runCli([
        'run',
        '--dataset',
        'sample',
        '--preset',
        preset,
        '--out',
        root,
        '--run-id',
        preset,
        ...extra,
      ]);
      if (result.status !== 0) throw new Error(`lme run --preset ${preset} failed: ${result.stderr}`);
    }
    official = join(root, 'bm25-official');
    words = join(root, 'bm25');
    const built = runCli(['report', official, words, '--html', '--output', join(root, 'report.html')]);
    if (built.status !== 0) throw new Error(`lme report --html failed: ${built.stderr}`);
    report = await openReport(join(root, 'report.html'), { executablePath: executablePath! });
  }, 180_000);

  afterAll(async () => {
    await report?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('draws a bar per question type and run in every metric chart, and the recall@k curve', async () => {
    const { page } = report;
    await page.waitForSelector('#curve svg');
    const charts = await page.$$('#charts .chart');
    expect(charts.length).toBe(3); // session recall_all@5, recall_any@5, ndcg_any@5
    for (const chart of charts) {
      await chart.waitForSelector('svg');
      // 6 question types + overall, 2 runs.
      expect(await chart.$$eval('g.mark-rect path', (bars) => bars.length)).toBe(7 * 2);
    }
    expect(await page.$$eval('#curve g.mark-line path', (lines) => lines.length)).toBe(2 * 2);
  });

  it('filters the table to the questions a run misses, and opens a missed question page', async () => {
    const { page } = report;
    const missedByOfficial = readSamples(official).filter(
      (sample) =>
        sample.metrics['session.recall_all@5'] !== undefined && sample.metrics['session.recall_all@5'] < 1,
    );
    expect(missedByOfficial.length).toBeGreaterThan(0);
    await page.selectOption('#miss-filter', '0');
    const rows = await page.$$eval('#question-table tbody tr', (trs) =>
      trs.map((tr) => tr.getAttribute('data-question')),
    );
    expect(rows.sort()).toEqual(missedByOfficial.map((sample) => sample.question_id).sort());

    const missed =
      missedByOfficial.find((sample) => sample.question_id === '06878be2') ?? missedByOfficial[0]!;
    await page.click(`#question-table tr[data-question="${missed.question_id}"] a`);
    await page.waitForSelector('#question-page:not([hidden]) h2');
    const text = await page.textContent('#question-page');
    expect(text).toContain(missed.question_id);
    expect(text).toContain('Gold sessions');
    expect(text).toContain('Evidence turns');
    expect(text).toMatch(/lexical miss: bm25 rank \d+/); // from explain.jsonl of the bm25-official run
    expect(await page.isHidden('#overview')).toBe(true);

    const screenshots = process.env.LME_REPORT_SCREENSHOTS;
    if (screenshots) {
      const dir = resolve(REPO_ROOT, screenshots);
      mkdirSync(dir, { recursive: true });
      await screenshotReport(page, {
        overview: join(dir, 'report.png'),
        question: { id: missed.question_id, path: join(dir, 'report-question.png') },
      });
      expect(existsSync(join(dir, 'report.png'))).toBe(true);
    }
  });

  it('needs no network and logs no console error', () => {
    expect(report.requests).toEqual([]);
    expect(report.errors).toEqual([]);
  });
});
