import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { aggregateMetrics } from '../run/outputs/aggregate-metrics.js';
import { makeSampleRun } from '../testing/make-sample-run.js';
import { compareRuns, compareTwoRuns } from './compare-runs.js';
import { type Run, readRun } from './read-run.js';
import { renderComparison } from './render-comparison.js';

let official: Run;
let words: Run;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'lme-compare-'));
  official = readRun(await makeSampleRun(root, 'official', { tokenizer: 'official' }));
  words = readRun(await makeSampleRun(root, 'words', { tokenizer: 'words' }));
});

function qaRun(runId: string, accuracies: number[]): Run {
  const samples = accuracies.map((accuracy, index) => ({
    ...official.samples[index]!,
    metrics: { ...official.samples[index]!.metrics, 'qa.accuracy': accuracy },
  }));
  return { ...official, config: { ...official.config, run_id: runId }, samples, warnings: [] };
}

describe('compareRuns', () => {
  it('counts QA metrics as aggregateMetrics() does: abstention questions included', () => {
    const n = official.samples.length;
    const base = qaRun(
      'base',
      Array.from({ length: n }, (_, index) => index % 2),
    );
    const other = qaRun(
      'other',
      Array.from({ length: n }, (_, index) => (index % 3 === 0 ? 1 : 0)),
    );
    const comparison = compareTwoRuns(base, other, { metrics: ['qa.accuracy', 'session.recall_all@5'] });
    expect(comparison.binaryMetrics).toEqual(['qa.accuracy', 'session.recall_all@5']);
    const summary = (run: Run) =>
      aggregateMetrics({
        runId: 'x',
        dataset: 'sample',
        convention: 'official',
        exclusion: 'A',
        samples: run.samples,
      });
    for (const category of comparison.categories) {
      const [accuracy, recall] = category.metrics;
      const pick = (run: Run, metric: string) => {
        const means = summary(run).metrics;
        const row =
          category.category === 'overall'
            ? means.overall
            : category.category === 'abstention'
              ? means.abstention
              : means.by_type[category.category];
        return row?.metrics[metric];
      };
      expect(accuracy!.base, category.category).toBe(pick(base, 'qa.accuracy'));
      expect(accuracy!.other, category.category).toBe(pick(other, 'qa.accuracy'));
      expect(recall!.base, category.category).toBe(pick(base, 'session.recall_all@5'));
    }
    const overall = comparison.categories.at(-1)!;
    expect(overall.metrics[0]!.nPaired).toBe(22);
    expect(overall.metrics[1]!.nPaired).toBe(18);
  });

  it("shows each run's own summary values and pairs the questions", () => {
    const comparison = compareTwoRuns(official, words);
    expect(comparison.metrics).toEqual([
      'session.recall_all@5',
      'session.recall_any@5',
      'session.ndcg_any@5',
    ]);
    expect(comparison.binaryMetrics).toEqual(['session.recall_all@5', 'session.recall_any@5']);
    expect(comparison.configDifferences).toEqual([{ key: 'tokenizer', values: ['official', 'words'] }]);
    expect(comparison.categories.map((category) => category.category)).toEqual([
      'single-session-user',
      'single-session-assistant',
      'single-session-preference',
      'multi-session',
      'knowledge-update',
      'temporal-reasoning',
      'abstention',
      'overall',
    ]);
    const overall = comparison.categories.at(-1)!;
    expect(overall.nPaired).toBe(18);
    for (const metric of overall.metrics) {
      expect(metric.base).toBe(official.summary!.metrics.overall.metrics[metric.metric]);
      expect(metric.other).toBe(words.summary!.metrics.overall.metrics[metric.metric]);
    }
    const recallAll = overall.metrics[0]!;
    const flips = comparison.flips[0]!;
    expect(recallAll.test).toMatchObject({ kind: 'mcnemar', b: flips.lost.length, c: flips.gained.length });
    expect(overall.metrics[2]!.test).toMatchObject({ kind: 'bootstrap', resamples: 10_000, seed: 42 });
    // Issue 60, item 3: a difference the paired tests cannot tell from noise is said to be so.
    expect(comparison.warnings).toEqual([
      'Every overall difference is inside the noise (paired test p >= 0.05 on 18 questions; the largest, session.ndcg_any@5 +0.0508, has p 0.3392).',
    ]);
  });

  it('renders one table per category and the flipped questions', () => {
    const markdown = renderComparison(compareRuns([official, words], { metrics: ['session.recall_all@5'] }));
    expect(markdown).toContain('- config differences: tokenizer official → words');
    expect(markdown).toMatch(
      /### overall\n\n\| metric +\| +n \| official \| +words \| +delta \| +test \| +p \|\n\|[-|:]+\|\n\| session\.recall_all@5 \| 18 \| /,
    );
    expect(markdown).toContain('### Flipped questions (overall)');
  });

  it('names a metric a run lacks, with close names', () => {
    expect(() => compareTwoRuns(official, words, { metrics: ['session.recall_all@7'] })).toThrow(
      /Run official \(.*\) has no metric "session.recall_all@7"; close names: session.recall_all@1, /,
    );
  });

  it('warns about different conventions and refuses runs with no question in common', () => {
    const dir = join(root, 'other');
    mkdirSync(dir);
    const renamed = words.samples.map((sample) => ({ ...sample, question_id: `x${sample.question_id}` }));
    // Unfinished (no fingerprint), so its samples may be rewritten below.
    const { fingerprint: _, ...unfinished } = words.config;
    const manifest = { ...unfinished, config: { ...words.config.config, convention: 'evidence' } };
    writeFileSync(join(dir, 'config.json'), JSON.stringify(manifest));
    writeFileSync(
      join(dir, 'samples.jsonl'),
      renamed.map((sample) => `${JSON.stringify(sample)}\n`).join(''),
    );
    expect(() => compareTwoRuns(official, readRun(dir))).toThrow(/share no questions/);
    writeFileSync(
      join(dir, 'samples.jsonl'),
      words.samples.map((sample) => `${JSON.stringify(sample)}\n`).join(''),
    );
    expect(compareTwoRuns(official, readRun(dir)).warnings).toEqual([
      expect.stringMatching(/different conventions \(official vs evidence\)/),
      expect.stringMatching(/inside the noise/),
    ]);
  });
});
