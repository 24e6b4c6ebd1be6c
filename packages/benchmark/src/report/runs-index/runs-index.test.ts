import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../cli/exit-codes.js';
import { HOSTILE_LABELS, makeRunsFolder, type OtherDataset } from '../../testing/make-runs-folder.js';
import { REPO_ROOT, runCli } from '../../testing/run-cli.js';
import { findChromium, type OpenedReport, openReport } from '../html/report-browser.js';
import { findRunFolders } from './list-runs.js';
import type { RunOverview } from './run-overview.js';

/**
 * `lme runs` and its leaderboard page over a results folder of real runs (issue 49): at least 30
 * runs of four benchmarks (the LongMemEval sample, BEAM's tier fixtures, the LoCoMo-Plus fixture,
 * LoCoMo conv-26 when the shared file is there), complete, partial and failed, a run the previous
 * release wrote (fixtures/) and the committed baselines of earlier ones. The page is opened in headless Chromium when one is installed.
 */
const LOCOMO_CONV26 = join(REPO_ROOT, '../shared/datasets/locomo/locomo10-conv26.json');
const OTHERS: OtherDataset[] = [
  {
    id: 'beam-1',
    dataset: join(REPO_ROOT, 'packages/benchmark/src/benchmarks/beam/fixtures/tier/1'),
    stopAfter: 2,
  },
  {
    id: 'beam-2',
    dataset: join(REPO_ROOT, 'packages/benchmark/src/benchmarks/beam/fixtures/tier/2'),
    stopAfter: 1,
  },
  {
    id: 'plus',
    dataset: join(REPO_ROOT, 'datasets/fixtures/locomo-plus-mini/locomo_plus.json'),
    stopAfter: 3,
  },
  ...(existsSync(LOCOMO_CONV26)
    ? [{ id: 'conv26', dataset: LOCOMO_CONV26, errata: 'locomo10-conv26', stopAfter: 20 }]
    : []),
];

type SummaryFile = { metrics: { overall: { metrics: Record<string, number> } } };

let root: string;
let results: string;
let runs: RunOverview[];

/** Every file of every run folder with its size and time: what a read-only command must leave as it was. */
function snapshot(dir: string): string[] {
  return findRunFolders(dir).flatMap((folder) =>
    readdirSync(folder).map((name) => {
      const stat = statSync(join(folder, name));
      return `${join(folder, name)} ${stat.size} ${stat.mtimeMs}`;
    }),
  );
}

beforeAll(async () => {
  root = join(tmpdir(), `lme-runs-index-${process.pid}`);
  rmSync(root, { recursive: true, force: true });
  // A run folder written by the previous release (lme at dcc388a, `--preset bm25-official --limit 4`).
  results = await makeRunsFolder({ root, others: OTHERS, previous: [join(import.meta.dirname, 'fixtures')] });
  const listed = runCli(['runs', results, '--json']);
  if (listed.status !== 0) throw new Error(`lme runs --json failed: ${listed.stderr}`);
  runs = JSON.parse(listed.stdout) as RunOverview[];
}, 600_000);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('lme runs', () => {
  it('lists every run folder, newest first, with its state, done of total and headline figures', () => {
    expect(runs.length).toBe(findRunFolders(results).length);
    expect(runs.length).toBeGreaterThanOrEqual(30);
    expect(new Set(runs.map((run) => run.benchmark))).toEqual(
      new Set(['longmemeval', 'beam', 'locomo-plus', ...(existsSync(LOCOMO_CONV26) ? ['locomo'] : [])]),
    );
    const times = runs.map((run) => Date.parse(run.finished_at ?? run.started_at ?? ''));
    expect(times).toEqual([...times].sort((left, right) => right - left));
    const byId = new Map(runs.map((run) => [run.run_id, run]));
    expect(byId.get('sample-stopped')).toMatchObject({
      state: 'partial',
      questions_done: 5,
      questions_total: 22,
    });
    expect(byId.get('plus-stopped')).toMatchObject({ state: 'partial', questions_done: 3 });
    expect(byId.get('sample-refused')).toMatchObject({
      state: 'failed',
      failed: 22,
      provider_name: 'refuser',
      provider_version: '0.9',
    });
    expect(byId.get('sample-refused')!.system).toContain('refuser 0.9');
    // Folders of earlier releases: a run of dcc388a (no questions_total recorded), and committed
    // baselines (config.json and summary.json only).
    expect(byId.get('dcc388a-bm25-official')).toMatchObject({
      state: 'complete',
      preset: 'bm25-official',
      questions_done: 4,
      questions_total: 4,
      lme_version: '0.1.0',
    });
    expect(byId.get('ci-s-subset-bm25')).toMatchObject({
      state: 'complete',
      preset: 'bm25',
      questions_done: 40,
    });
    // A run ranking turns leads with turn figures, as its own table does.
    expect(byId.get('sample-turn')!.headline[0]!.metric).toBe('turn.recall_any@5');
    // The default run id names the preset, then the dataset.
    expect(runs.some((run) => /Z-bm25-official-sample-[0-9a-f]{6}$/.test(run.run_id))).toBe(true);
    for (const run of runs.filter((entry) => existsSync(join(entry.dir, 'summary.json')))) {
      const summary = JSON.parse(readFileSync(join(run.dir, 'summary.json'), 'utf8')) as SummaryFile;
      for (const { metric, value } of run.headline)
        expect(value).toBe(summary.metrics.overall.metrics[metric]);
    }
  });

  it('prints one line per run with control characters escaped, filters, and writes CSV pandas reads', () => {
    const before = snapshot(results);
    const text = runCli(['runs', results]);
    expect(text.status, text.stderr).toBe(EXIT.ok);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines.length).toBe(runs.length + 3); // header, runs, blank, count
    expect(lines.at(-1)).toMatch(
      new RegExp(`^${runs.length} of ${runs.length} runs \\(\\d+ complete, \\d+ partial, 1 failed\\)\\.$`),
    );
    expect(text.stdout).toContain(HOSTILE_LABELS[0]);

    const partial = JSON.parse(
      runCli(['runs', results, '--state', 'partial', '--json']).stdout,
    ) as RunOverview[];
    expect(partial.length).toBeGreaterThanOrEqual(3);
    expect(partial.every((run) => run.state === 'partial')).toBe(true);
    const sample = JSON.parse(
      runCli(['runs', results, '--dataset', 'sample', '--json']).stdout,
    ) as RunOverview[];
    expect(sample.length).toBeGreaterThan(0);
    expect(sample.every((run) => run.dataset === 'sample')).toBe(true);
    const future = runCli(['runs', results, '--since', '2999-01-01']);
    expect(future.stdout).toMatch(/^No runs match \(\d+ run folders found\)\.$/m);
    const badSince = runCli(['runs', results, '--since', 'yesterday']);
    expect(badSince.status).toBe(EXIT.error);
    expect(badSince.stderr).toContain('--since "yesterday" is not a date');

    const csv = runCli(['runs', results, '--csv']);
    const [header, ...rows] = csv.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^run_id,label,benchmark,dataset,convention,/);
    expect(rows.map((row) => row.split(',')[0])).toEqual(runs.map((run) => run.run_id));
    expect(rows.find((row) => row.startsWith('sample-stopped,'))).toMatch(/,5,22,0,partial,/);
    expect(snapshot(results)).toEqual(before);
  });

  it('refuses to write the page into a run folder', () => {
    const inside = runCli(['runs', results, '--html', join(results, 'sample-turn', 'board.html')]);
    expect(inside.status).toBe(EXIT.error);
    expect(inside.stderr).toContain('lme runs never writes into a run');
    expect(existsSync(join(results, 'sample-turn', 'board.html'))).toBe(false);
  });
});

const executablePath = findChromium();
const skipReason = executablePath ? undefined : 'no Chromium found (apt-get install chromium)';
if (skipReason) console.warn(`leaderboard browser test skipped: ${skipReason}`);

const browserTitle = `the leaderboard page in headless Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`;

describe.skipIf(skipReason !== undefined)(browserTitle, () => {
  let page: string;
  let report: OpenedReport;
  const dialogs: string[] = [];

  beforeAll(async () => {
    page = join(root, 'leaderboard.html');
    const written = runCli(['runs', results, '--html', page]);
    if (written.status !== 0) throw new Error(`lme runs --html failed: ${written.stderr}`);
    report = await openReport(page, { executablePath: executablePath! });
    report.page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await report.page.reload();
  }, 120_000);

  afterAll(async () => {
    await report?.close();
  });

  it("shows every run once with each headline figure equal to its summary.json's", async () => {
    const cells = await report.page.$$eval('td[data-metric]', (tds) =>
      tds.map((td) => ({
        run: td.closest('tr')!.querySelector('td[data-run]')!.getAttribute('data-run')!,
        metric: td.getAttribute('data-metric')!,
        value: Number(td.getAttribute('data-sort')),
      })),
    );
    const shown = await report.page.$$eval('td[data-run]', (tds) =>
      tds.map((td) => td.getAttribute('data-run')),
    );
    expect(shown.sort()).toEqual(runs.map((run) => run.run_id).sort());
    let compared = 0;
    for (const run of runs) {
      const mine = cells.filter((cell) => cell.run === run.run_id);
      expect(mine.map((cell) => cell.metric).sort()).toEqual(run.headline.map(({ metric }) => metric).sort());
      if (!existsSync(join(run.dir, 'summary.json'))) continue;
      const summary = JSON.parse(readFileSync(join(run.dir, 'summary.json'), 'utf8')) as SummaryFile;
      for (const cell of mine) {
        expect(cell.value, `${run.run_id} ${cell.metric}`).toBe(summary.metrics.overall.metrics[cell.metric]);
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(60);
  });

  it('sorts a table by the column clicked, and back', async () => {
    const { page: browser } = report;
    const column = (
      await browser.$$eval('#group-0 thead th', (ths) => ths.map((th) => th.textContent))
    ).indexOf('questions');
    const values = () =>
      browser.$$eval(`#group-0 tbody tr td:nth-child(${column + 1})`, (tds) =>
        tds.map((td) => Number(td.getAttribute('data-sort'))),
      );
    await browser.click(`#group-0 thead th:nth-child(${column + 1}) button`);
    const descending = await values();
    expect(descending).toEqual([...descending].sort((left, right) => right - left));
    await browser.click(`#group-0 thead th:nth-child(${column + 1}) button`);
    const ascending = await values();
    expect(ascending).toEqual([...ascending].sort((left, right) => left - right));
    expect(new Set(ascending).size).toBeGreaterThan(1);
  });

  it("links each run with a report to its own report, and puts another question set's runs apart", async () => {
    const links = await report.page.$$eval('td[data-run] a', (anchors) =>
      anchors.map((anchor) => ({
        run: anchor.closest('td')!.getAttribute('data-run')!,
        href: (anchor as unknown as { href: string }).href,
      })),
    );
    const withReport = runs.filter((run) => run.report !== null);
    expect(links.length).toBe(withReport.length);
    for (const link of links) {
      const target = fileURLToPath(link.href);
      expect(target).toBe(runs.find((run) => run.run_id === link.run)!.report);
      expect(existsSync(target)).toBe(true);
    }
    const apart = await report.page.$$eval('p.apart', (paragraphs) => paragraphs.map((p) => p.textContent));
    // The previous release's run (4 questions of another copy of the sample) is a table of its own,
    // titled with its question set, not beside the 22-question runs.
    const heading = await report.page.$eval(
      'td[data-run="dcc388a-bm25-official"]',
      (cell) => cell.closest('section')!.querySelector('h2')!.textContent,
    );
    expect(heading).toMatch(/ 4 questions · session level/);
    if (existsSync(LOCOMO_CONV26))
      expect(apart.some((text) => /different errata \(locomo10-conv26@1/.test(text ?? ''))).toBe(true);
    await report.page.click('td[data-run="sample-turn"] a');
    await report.page.waitForURL(/sample-turn\/report\.md$/);
    await report.page.goBack();
  });

  it('shows hostile labels as text: no script dialog, no request, no console error, a small file', async () => {
    const text = await report.page.textContent('body');
    for (const label of HOSTILE_LABELS) expect(text).toContain(label);
    expect(dialogs).toEqual([]);
    expect(report.requests).toEqual([]);
    expect(report.errors).toEqual([]);
    expect(statSync(page).size).toBeLessThan(runs.length * 4096);
  });
});
