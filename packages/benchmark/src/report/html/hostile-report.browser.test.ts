import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRun } from '../../analysis/read-run.js';
import { makeSampleRun } from '../../testing/make-sample-run.js';
import { runCli } from '../../testing/run-cli.js';
import { renderHtmlReport } from './render-html-report.js';
import { findChromium, type OpenedReport, openReport } from './report-browser.js';
import { buildReportModel } from './report-model.js';

/**
 * Issue 50 H1: a results folder is data from anyone. A hit's `rank` set to markup is refused on
 * read (one sentence naming file, line and field), and should a value get past the checks, the
 * page shows it as text: no element is injected and no script runs. Needs a system Chromium
 * (Debian's `chromium`); skips, saying so, without.
 */
const executablePath = findChromium();
const skipReason = executablePath ? undefined : 'no Chromium found (apt-get install chromium)';
if (skipReason) console.warn(`hostile-report browser test skipped: ${skipReason}`);

const INJECTED = `<img src=x onerror="document.title='PWNED'">`;

describe.skipIf(skipReason !== undefined)('a hostile results folder and the HTML report', () => {
  let root: string;
  let run: string;
  let report: OpenedReport;
  let questionId: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'lme-hostile-report-'));
    run = await makeSampleRun(root, 'hostile', { limit: 3 });
    // Values past the checks (as if a reader forgot one): every number the page shows, as markup.
    const loaded = readRun(run);
    const hostile = loaded.samples.map((sample) => ({
      ...sample,
      hits: sample.hits.map((hit) => ({
        ...hit,
        rank: INJECTED as unknown as number,
        routes: { bm25: { score: 1, rank: INJECTED as unknown as number } },
      })),
    }));
    questionId = hostile[0]!.question_id;
    const model = buildReportModel({ runs: [{ ...loaded, samples: hostile }] });
    model.miss_cutoffs = [INJECTED as unknown as number];
    model.runs[0]!.colour = `red"><img src=x onerror="document.title='PWNED'">`;
    const path = join(root, 'report.html');
    writeFileSync(path, renderHtmlReport(model));
    report = await openReport(path, { executablePath: executablePath! });
  }, 180_000);

  afterAll(async () => {
    await report?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('refuses the folder on read: lme report --html names the file, line and field', () => {
    const lines = readFileSync(join(run, 'samples.jsonl'), 'utf8').split('\n');
    const first = JSON.parse(lines[0]!);
    first.hits[0].rank = INJECTED;
    lines[0] = JSON.stringify(first);
    writeFileSync(join(run, 'samples.jsonl'), lines.join('\n'));
    const result = runCli(['report', run, '--html', '--output', join(root, 'refused.html')]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `${join(run, 'samples.jsonl')} line 1: field hits[0].rank is invalid (expected number, received string)`,
    );
  });

  it('shows injected ranks as text on the overview and on the question page, and runs no script', async () => {
    const { page } = report;
    await page.waitForSelector('#question-table tbody tr');
    expect(await page.textContent('#question-table')).toContain(INJECTED);
    await page.evaluate(`location.hash = ${JSON.stringify(`#q/${encodeURIComponent(questionId)}`)}`);
    await page.waitForSelector('#question-page:not([hidden]) h2');
    const text = (await page.textContent('#question-page')) ?? '';
    expect(text).toContain(INJECTED);
    expect(await page.$$eval('img', (images) => images.length)).toBe(0);
    expect(await page.title()).not.toBe('PWNED');
    expect(await page.title()).toContain('lme report');
  });

  it('needs no network and logs no console error', () => {
    expect(report.requests).toEqual([]);
    expect(report.errors).toEqual([]);
  });
});
