import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeSampleRun } from '../testing/make-sample-run.js';
import { recordRankings } from '../testing/record-rankings.js';
import type { CategoryComparison, ComparisonResult, RunComparison } from './compare-runs.js';
import { compareRuns } from './compare-runs.js';
import { type Run, readRun } from './read-run.js';
import { renderComparison } from './render-comparison.js';
import { renderComparisonTable } from './render-comparison-table.js';

let root: string;
let official: Run;
let words: Run;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'lme-compare-table-'));
  official = readRun(await makeSampleRun(root, 'official', { tokenizer: 'official' }));
  words = readRun(await makeSampleRun(root, 'words', { tokenizer: 'words' }));
});

/** A copy of a run folder with `label` in its config.json and the first `failures` questions failed. */
function variant(source: Run, name: string, label: string, failures: number): Run {
  const dir = join(root, name);
  cpSync(source.dir, dir, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
  manifest.run_id = name;
  manifest.config.label = label;
  writeFileSync(join(dir, 'config.json'), JSON.stringify(manifest));
  const lines = source.samples.map((sample, index) =>
    index < failures
      ? { ...sample, hits: [], metrics: {}, error: 'question failed: reader answered 500.' }
      : sample,
  );
  writeFileSync(join(dir, 'samples.jsonl'), lines.map((sample) => `${JSON.stringify(sample)}\n`).join(''));
  recordRankings(dir);
  return readRun(dir);
}

/** A comparison of one category and metric whose test has the given p-value. */
function pairWith(runId: string, pValue: number): RunComparison {
  const category: CategoryComparison = {
    category: 'overall',
    nBase: 100,
    nOther: 100,
    nPaired: 100,
    metrics: [
      {
        metric: 'session.recall_all@5',
        base: 0.5,
        other: 0.6,
        delta: 0.1,
        nBase: 100,
        nOther: 100,
        nPaired: 100,
        test: { kind: 'mcnemar', b: 1, c: 11, pValue },
      },
    ],
  };
  return {
    base: { runId: 'base', dir: '/r/base', errors: 0 },
    other: { runId, dir: `/r/${runId}`, errors: 0 },
    metrics: ['session.recall_all@5'],
    binaryMetrics: ['session.recall_all@5'],
    configDifferences: [],
    categories: [category],
    flips: [],
    hiddenDifferences: [],
    warnings: [],
  };
}

/** A copy of a run folder whose `metric` is set to `value` on its first `count` counted questions. */
function withChangedMetric(source: Run, name: string, metric: string, value: number, count: number): Run {
  const dir = join(root, name);
  cpSync(source.dir, dir, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
  manifest.run_id = name;
  writeFileSync(join(dir, 'config.json'), JSON.stringify(manifest));
  const changed = source.samples
    .filter((sample) => !sample.abstention && sample.metrics[metric] !== value)
    .slice(0, count)
    .map((sample) => sample.question_id);
  const lines = source.samples.map((sample) =>
    changed.includes(sample.question_id)
      ? { ...sample, metrics: { ...sample.metrics, [metric]: value } }
      : sample,
  );
  writeFileSync(join(dir, 'samples.jsonl'), lines.map((sample) => `${JSON.stringify(sample)}\n`).join(''));
  return readRun(dir);
}

function overallCells(text: string): string[] {
  const line = text.split('\n').find((row) => row.startsWith('| overall'));
  return (line ?? '').split('|').map((cell) => cell.trim());
}

describe('renderComparisonTable', () => {
  it('puts every run in one column, named by its label, with failed questions counted', () => {
    const labelled = variant(words, 'words-labelled', 'words tokenizer', 0);
    const failing = variant(words, 'words-failing', 'words, 2 failed', 2);
    const result = compareRuns([official, labelled, failing]);
    expect(result.comparisons.map((comparison) => comparison.other.label)).toEqual([
      'words tokenizer',
      'words, 2 failed',
    ]);
    expect(renderComparison(result)).toContain(`- other: ${failing.dir} (2 failed questions, in no mean)\n`);
    const text = renderComparisonTable(result);
    expect(text).toMatch(/^## 2 runs vs official \(base\)\n/);
    expect(text).toMatch(
      /^\| category +\| metric +\| +n \| official \(base\) \| +words tokenizer \| +words, 2 failed \|$/m,
    );
    expect(text).toMatch(/^\| failed questions +\| +\| +\| +0 \| +0 \| +2 \|$/m);
    // recall_all@5 overall: official 0.8333, words 0.8333 on the same 18 questions.
    expect(text).toMatch(
      /^\| overall +\| session\.recall_all@5 \| +18 \| +0\.8333 \| +0\.8333 \(0\.0000\) \| /m,
    );
    expect(text).toContain('- words tokenizer: run words-labelled, ');
    expect(text).toContain('Holm-corrected over the 6 tests of each category (2 runs × 3 metrics)');
    expect(text).toContain('> warning: 2 questions failed in words-failing and are left out.');
  });

  it('shows the metrics that differ when no default one does, and every metric with --metrics all', () => {
    // session.ndcg_any@10 is in no default metric: 3 questions lose it, the default metrics stay equal.
    const changed = withChangedMetric(official, 'official-ndcg10', 'session.ndcg_any@10', 0, 3);
    const result = compareRuns([official, changed]);
    const [comparison] = result.comparisons;
    expect(result.addedMetrics).toEqual(['session.ndcg_any@10']);
    expect(comparison!.metrics).toEqual([
      'session.recall_all@5',
      'session.recall_any@5',
      'session.ndcg_any@5',
      'session.ndcg_any@10',
    ]);
    expect(comparison!.hiddenDifferences).toEqual([]);
    const text = renderComparisonTable(result);
    expect(text).toMatch(
      /^\| overall +\| session\.recall_all@5 +\| +18 \| +0\.8333 \| +0\.8333 \(0\.0000\) \|$/m,
    );
    // The change is in a cell of the table, not only named below it.
    expect(text).toMatch(/^\| +\| session\.ndcg_any@10 +\| +18 \| +[\d.]+ \| +[\d.]+ \(-0\.\d{4}\)/m);
    expect(text).toContain(
      'No default metric differs between the runs; session.ndcg_any@10, which does, is shown after them.',
    );
    expect(text).not.toContain('not shown');
    // Two runs that differ in nothing say nothing more.
    const same = compareRuns([official, official]);
    expect(same.addedMetrics).toEqual([]);
    expect(renderComparisonTable(same)).not.toMatch(/not shown|No default metric/);

    // Named metrics are what the user asked for: the others that differ are named below the table.
    const named = compareRuns([official, changed], { metrics: ['session.recall_all@5'] });
    expect(named.addedMetrics).toEqual([]);
    expect(renderComparisonTable(named)).toMatch(
      /^official-ndcg10: the metrics shown do not differ from the base, but 1 metric not shown does: session\.ndcg_any@10 \(3 questions changed; overall -0\.\d{4}, /m,
    );
    expect(renderComparison(named)).toContain(
      '- official-ndcg10: the metrics shown do not differ from the base',
    );

    const all = compareRuns([official, changed], { metrics: ['all'] });
    expect(all.comparisons[0]!.metrics).toContain('session.ndcg_any@10');
    expect(all.comparisons[0]!.metrics).toContain('session.recall_any@50');
    expect(all.comparisons[0]!.hiddenDifferences).toEqual([]);
    expect(renderComparisonTable(all)).toMatch(
      /^\| +\| session\.ndcg_any@10 +\| +18 \| +[\d.]+ \| +[\d.]+ \(-0\.\d{4}\)/m,
    );
  });

  it('compares turn metrics by default when both runs rank turns, as their own tables do', async () => {
    const turns = readRun(await makeSampleRun(root, 'turns', { granularity: 'turn' }));
    const turnsWords = readRun(
      await makeSampleRun(root, 'turns-words', { granularity: 'turn', tokenizer: 'words' }),
    );
    const result = compareRuns([turns, turnsWords]);
    expect(result.comparisons[0]!.metrics).toEqual([
      'turn.recall_any@5',
      'turn.recall_all@10',
      'turn.ndcg_any@10',
    ]);
    // A session run on one side: the session figures both have.
    expect(compareRuns([official, turns]).comparisons[0]!.metrics[0]).toMatch(/^session\./);
  });

  it('marks significance after Holm correction across the runs compared', () => {
    const result = (pValues: number[]): ComparisonResult => ({
      resamples: 10,
      seed: 1,
      comparisons: pValues.map((pValue, index) => pairWith(`r${index}`, pValue)),
    });
    // Alone, p = 0.03 is significant; with a second test at 0.04, Holm makes both 0.06.
    expect(overallCells(renderComparisonTable(result([0.03]))).slice(4)).toEqual([
      '0.5000',
      '0.6000 (+0.1000 *)',
      '',
    ]);
    expect(overallCells(renderComparisonTable(result([0.03, 0.04]))).slice(5, 7)).toEqual([
      '0.6000 (+0.1000)',
      '0.6000 (+0.1000)',
    ]);
    // 0.0004 × 2 = 0.0008 (***) and 0.004 stays 0.004 (**).
    expect(overallCells(renderComparisonTable(result([0.0004, 0.004]))).slice(5, 7)).toEqual([
      '0.6000 (+0.1000 ***)',
      '0.6000 (+0.1000 **)',
    ]);
  });
});
