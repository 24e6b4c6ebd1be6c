import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MetricMeans, Summary } from '../results/summary.js';
import { makeSampleQaRun } from '../testing/make-qa-run.js';
import { REPO_ROOT } from '../testing/run-cli.js';

/**
 * The pandas recipe of docs/outputs.md ("Reading the CSVs with pandas"), run as written on a real
 * QA run of the committed sample (4 `_abs` questions, 3 with no user-side gold left out by
 * --exclusion B): every mean it computes from samples.csv is summary.json's.
 */
const pandas = spawnSync('python3', ['-c', 'import pandas'], { encoding: 'utf8' });
const skipReason =
  pandas.status === 0
    ? undefined
    : 'pandas is not installed (python3 -c "import pandas" failed): pip install pandas to run this test';
if (skipReason) console.warn(`pandas recipe test skipped: ${skipReason}`);

const PLACEHOLDER = "RUN = 'results/<run-id>'";

/** The first ```python block after the recipe's heading in docs/outputs.md. */
function recipe(): string {
  const page = readFileSync(join(REPO_ROOT, 'docs/outputs.md'), 'utf8');
  const section = page.slice(page.indexOf('## Reading the CSVs with pandas'));
  const block = /```python\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined)
    throw new Error('docs/outputs.md has no python block under "Reading the CSVs with pandas".');
  if (!block.includes(PLACEHOLDER)) throw new Error(`The recipe no longer sets ${PLACEHOLDER}.`);
  return block;
}

const title = `the pandas recipe of docs/outputs.md${skipReason ? ` (skipped: ${skipReason})` : ''}`;

describe.skipIf(skipReason !== undefined)(title, () => {
  let root: string;
  let dir: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'lme-pandas-recipe-'));
    dir = await makeSampleQaRun(root, 'recipe', (question) => question.length % 2 === 0, { exclusion: 'B' });
  }, 120_000);

  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("gives summary.json's means from samples.csv, per type, overall and for abstention", () => {
    const script = [
      recipe().replace(PLACEHOLDER, `RUN = ${JSON.stringify(dir)}`),
      'import json',
      'print(json.dumps({"recall": recall.to_dict(), "accuracy": accuracy.to_dict()}))',
    ].join('\n');
    const result = spawnSync('python3', ['-c', script], { encoding: 'utf8', cwd: root });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const lines = result.stdout.trim().split('\n');
    const computed = JSON.parse(lines.at(-1)!) as {
      recall: Record<string, number>;
      accuracy: Record<string, number>;
    };
    // The recipe prints its means beside summary.csv's, one row per group: the two columns agree.
    const printed = lines
      .slice(0, -1)
      .map((line) => /^(\S+) +(\S+) +(\S+)$/.exec(line))
      .filter((match) => match !== null && match[1] !== 'question_type');
    expect(printed.filter((match) => match![1] === 'overall')).toHaveLength(2);
    for (const match of printed) expect(match![2], match![1]).toBe(match![3]);

    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as Summary;
    const groups: [string, MetricMeans][] = [
      ...Object.entries(summary.metrics.by_type),
      ['overall', summary.metrics.overall],
      ['abstention', summary.metrics.abstention],
    ];
    // The run has what the recipe must get right: abstention questions and questions exclusion B leaves out.
    expect(summary.metrics.abstention.n).toBe(4);
    expect(summary.metrics.overall.counts['session.recall_any@5']).toBe(15);
    // Under exclusion B no single-session-assistant question is in a retrieval mean: no figure either side.
    expect(
      summary.metrics.by_type['single-session-assistant']!.metrics['session.recall_any@5'],
    ).toBeUndefined();
    const close = (value: number | undefined, expected: number | undefined, what: string) => {
      if (expected === undefined) expect(value, what).toBeUndefined();
      else expect(value, what).toBeCloseTo(expected, 12);
    };
    for (const [group, means] of groups) {
      close(computed.recall[group], means.metrics['session.recall_any@5'], `${group} session.recall_any@5`);
      close(computed.accuracy[group], means.metrics['qa.accuracy_strict'], `${group} qa.accuracy_strict`);
    }
    expect(Object.keys(computed.accuracy).length).toBe(groups.length);
  });
});
