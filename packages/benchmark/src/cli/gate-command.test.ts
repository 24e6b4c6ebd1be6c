import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readRun } from '../analysis/read-run.js';
import type { GateJson } from '../analysis/render-gate-result.js';
import type { Sample } from '../results/sample.js';
import { aggregateMetrics } from '../run/outputs/aggregate-metrics.js';
import { rankingsSha256 } from '../run/outputs/run-fingerprint.js';
import { makeSampleRun } from '../testing/make-sample-run.js';
import { runCli } from '../testing/run-cli.js';

let official: string;
let words: string;
let firstTen: string;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'lme-gate-cli-'));
  official = await makeSampleRun(root, 'official', { tokenizer: 'official' });
  words = await makeSampleRun(root, 'words', { tokenizer: 'words' });
  firstTen = await makeSampleRun(root, 'first-ten', {
    tokenizer: 'official',
    questionIds: readRun(official)
      .samples.slice(0, 10)
      .map((sample) => sample.question_id),
  });
});

/**
 * A copy of `source` whose questions `fails` picks failed as the runner records a failure (no
 * hits, no metrics, `error` set), with its summary.json rewritten from the samples.
 */
function withFailures(source: string, name: string, fails: (sample: Sample) => boolean): string {
  const dir = join(root, name);
  cpSync(source, dir, { recursive: true });
  const run = readRun(dir);
  const samples = run.samples.map((sample) =>
    fails(sample)
      ? { ...sample, hits: [], metrics: {}, error: `question ${sample.question_id}: reader answered 500.` }
      : sample,
  );
  writeFileSync(join(dir, 'samples.jsonl'), samples.map((sample) => `${JSON.stringify(sample)}\n`).join(''));
  // The rankings a run with these failures records (config.json and samples.jsonl must agree).
  const manifest = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
  manifest.fingerprint.rankings = rankingsSha256(samples);
  writeFileSync(join(dir, 'config.json'), JSON.stringify(manifest));
  const summary = aggregateMetrics({
    runId: name,
    dataset: 'sample',
    convention: 'official',
    exclusion: 'A',
    samples,
  });
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(summary));
  return dir;
}

describe('lme gate', () => {
  it('exits 0 when every threshold holds, listing each check', () => {
    // official on the sample: session.recall_all@5 0.8333 overall, multi-session 0.6667
    const result = runCli([
      'gate',
      official,
      '--min',
      'session.recall_all@5>=0.8',
      '--min',
      'multi-session:session.recall_all@5>0.6',
    ]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^PASS {2}overall +session\.recall_all@5 +0\.8333 {2}>= 0\.8000$/m);
    expect(result.stdout).toMatch(/^PASS {2}multi-session {2}session\.recall_all@5 +0\.6667 {2}> 0\.6000$/m);
    expect(result.stdout).toMatch(/gate passed: 2 checks\n$/);
  });

  it('exits 3 when a threshold fails', () => {
    const result = runCli([
      'gate',
      official,
      '--min',
      'session.recall_all@5>=0.85',
      '--max',
      'session.ndcg_any@5<=1',
    ]);
    expect(result.status).toBe(3);
    expect(result.stdout).toMatch(/^FAIL {2}overall +session\.recall_all@5 +0\.8333 {2}>= 0\.8500$/m);
    expect(result.stdout).toMatch(/gate failed: 1 of 2 checks/);
  });

  it('exits 3 when a metric dropped from the baseline by more than --max-drop, with --per-type per type', () => {
    // On the sample, official and words tie overall at recall_all@5 and recall_any@5, but official
    // loses one knowledge-update question words finds.
    const metrics = ['--metrics', 'session.recall_all@5,session.recall_any@5'];
    const overall = runCli(['gate', official, '--baseline', words, '--max-drop', '0.02', ...metrics]);
    expect(overall.status).toBe(0);
    expect(overall.stdout).toContain(`against baseline ${join(words, 'summary.json')}`);
    expect(overall.stdout).toMatch(
      /^PASS {2}overall {2}session\.recall_all@5 {2}0\.8333 {2}baseline 0\.8333, change 0\.0000, may drop 0\.0200$/m,
    );
    const perType = runCli([
      'gate',
      official,
      '--baseline',
      join(words, 'summary.json'),
      '--per-type',
      ...metrics,
    ]);
    expect(perType.status).toBe(3);
    expect(perType.stdout).toMatch(
      /^FAIL {2}knowledge-update +session\.recall_all@5 {2}0\.6667 {2}baseline 1\.0000, change -0\.3333, may drop 0\.0000$/m,
    );
    expect(perType.stdout).toMatch(/gate failed: 1 of 14 checks\n$/);
  });

  it('prints only the failed checks with --only-failures, text and JSON, the verdict counting them all', () => {
    const args = ['gate', official, '--baseline', join(words, 'summary.json'), '--per-type'];
    const metrics = ['--metrics', 'session.recall_all@5,session.recall_any@5'];
    const text = runCli([...args, ...metrics, '--only-failures']);
    expect(text.status).toBe(3);
    expect(text.stdout).toMatch(/^FAIL {2}knowledge-update +session\.recall_all@5 /m);
    expect(text.stdout).not.toMatch(/^PASS/m);
    expect(text.stdout).toContain('(13 passing checks not shown: --only-failures)');
    expect(text.stdout).toMatch(/gate failed: 1 of 14 checks\n$/);
    const json = JSON.parse(runCli([...args, ...metrics, '--only-failures', '--format', 'json']).stdout) as {
      checks: { group: string; passed: boolean }[];
      failed_checks: number;
    };
    expect(json.checks).toEqual([expect.objectContaining({ group: 'knowledge-update', passed: false })]);
    expect(json.failed_checks).toBe(1);
    // A passing gate prints no check line, only the verdict.
    const passing = runCli(['gate', official, '--min', 'session.recall_all@5>=0.8', '--only-failures']);
    expect(passing.status).toBe(0);
    expect(passing.stdout).not.toMatch(/^PASS/m);
    expect(passing.stdout).toMatch(/gate passed: 1 check\n$/);
  });

  it('reads a gate file, flags overriding it', () => {
    const file = join(root, 'gate.json');
    writeFileSync(
      file,
      JSON.stringify({ min: { 'session.recall_all@5': 0.9 }, baseline: official, maxDrop: 0 }),
    );
    expect(runCli(['gate', words, '--config', file]).status).toBe(3);
    const overridden = runCli(['gate', words, '--config', file, '--min', 'session.recall_all@5>=0.5']);
    expect(overridden.status).toBe(0);
    expect(overridden.stdout).toMatch(/>= 0\.5000$/m);
  });

  it('exits 3 on a bound of a metric the run lacks, naming it and close names, unless --allow-missing-metrics', () => {
    const result = runCli(['gate', official, '--min', 'session.recal_all@5>=0.8']);
    expect(result.status).toBe(3);
    expect(result.stdout).toMatch(
      /^FAIL {2}overall {2}session\.recal_all@5 {2}- {2}>= 0\.8000, not in the run \(close names: session\.recall_all@5, .*\); pass --allow-missing-metrics to skip it$/m,
    );
    const allowed = runCli([
      'gate',
      official,
      '--min',
      'session.recall_all@5>=0.5',
      '--min',
      'context.evidence_recall>=0.5',
      '--allow-missing-metrics',
      '--format',
      'json',
    ]);
    expect(allowed.status).toBe(0);
    const json = JSON.parse(allowed.stdout) as GateJson;
    expect(json.allow_missing_metrics).toBe(true);
    expect(json.checks.map((check) => [check.metric, check.missing, check.passed])).toEqual([
      ['session.recall_all@5', false, true],
      ['context.evidence_recall', true, true],
    ]);
    expect(allowed.stderr).toContain(
      'lme: warning: 1 check skipped as the run lacks the metric (--allow-missing-metrics): context.evidence_recall (overall).',
    );
  });

  it('exits 1 on a malformed threshold or a missing run', () => {
    const malformed = runCli(['gate', official, '--min', 'session.recall_all@5=0.8']);
    expect(malformed.status).toBe(1);
    expect(malformed.stderr).toMatch(/^lme: Threshold "session\.recall_all@5=0\.8" is not /);
    const missing = runCli(['gate', join(root, 'nope'), '--min', 'session.recall_all@5>=0.8']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/does not exist/);
  });

  it('exits 3 when the run has failed questions, even though the means of the rest pass', () => {
    // The three non-abstention questions official misses at recall_all@5 fail: the means over the
    // others are 1.0, above a bound the healthy run (0.8333) does not reach.
    const hardest = withFailures(
      official,
      'hardest-failed',
      (sample) => !sample.abstention && sample.metrics['session.recall_all@5'] === 0,
    );
    const result = runCli(['gate', hardest, '--min', 'session.recall_all@5>=0.85']);
    expect(result.status).toBe(3);
    expect(result.stdout).toMatch(/^PASS {2}overall +session\.recall_all@5 +1\.0000 {2}>= 0\.8500$/m);
    expect(result.stdout).toMatch(
      /gate failed \(1 reason\):\n- 3 of 22 questions failed \(none allowed; see --allow-errors\), and the means exclude these 3 failed questions: question \w+: reader answered 500; /,
    );
    const allowed = runCli(['gate', hardest, '--min', 'session.recall_all@5>=0.85', '--allow-errors', '3']);
    expect(allowed.status).toBe(0);
    expect(allowed.stderr).toMatch(
      /^lme: warning: 3 of 22 questions failed \(--allow-errors 3\), and the means exclude these 3 failed questions/m,
    );
    expect(
      runCli(['gate', hardest, '--min', 'session.recall_all@5>=0.85', '--allow-errors', '2']).status,
    ).toBe(3);
  });

  it('exits 3 when every question failed: the failures listed, a bound unmeasured, no check evaluated', () => {
    const failed = withFailures(official, 'all-failed', () => true);
    const againstBaseline = runCli(['gate', failed, '--baseline', words, '--max-drop', '0.02']);
    expect(againstBaseline.status).toBe(3);
    expect(againstBaseline.stdout).toContain('gate failed (2 reasons):\n- 22 of 22 questions failed');
    expect(againstBaseline.stdout).toContain(
      '- The gate evaluated 0 checks, so it shows nothing: the run has no finished question to measure.\n',
    );
    const bound = runCli(['gate', failed, '--min', 'session.recall_all@5>=0.85']);
    expect(bound.status).toBe(3);
    expect(bound.stdout).toMatch(
      /^FAIL {2}overall {2}session\.recall_all@5 {2}- {2}>= 0\.8500 \(no finished overall question\)$/m,
    );
    expect(bound.stdout).toContain('- 1 of 1 check failed.');
  });

  it('exits 3 when the run holds other questions than the baseline, unless --allow-subset', () => {
    const byId = runCli(['gate', firstTen, '--baseline', official, '--max-drop', '1']);
    expect(byId.status).toBe(3);
    expect(byId.stdout).toMatch(
      /- The run's questions differ from the baseline's: 12 of the baseline's 22 questions are not in the run \([\w]+, [\w]+, [\w]+, …\); gate the same questions, or pass --allow-subset to compare the means anyway\.\n/,
    );
    const byCount = runCli([
      'gate',
      firstTen,
      '--baseline',
      join(official, 'summary.json'),
      '--max-drop',
      '1',
    ]);
    expect(byCount.status).toBe(3);
    expect(byCount.stdout).toMatch(
      /the run has 10 questions and the baseline 22; \d types? differs? in questions counted \(/,
    );
    const allowed = runCli(['gate', firstTen, '--baseline', official, '--max-drop', '1', '--allow-subset']);
    expect(allowed.status).toBe(0);
    expect(allowed.stderr).toMatch(
      /^lme: warning: The run's questions differ from the baseline's \(--allow-subset\): 12 of/m,
    );
    expect(readFileSync(join(firstTen, 'samples.jsonl'), 'utf8').trimEnd().split('\n')).toHaveLength(10);
  });
});

describe('lme gate with nothing to check', () => {
  it('exits 3, as its help says, in one sentence', () => {
    const result = runCli(['gate', official]);
    expect(result.status).toBe(3);
    expect(result.stderr).toBe(
      'lme: The gate has nothing to check: give --min, --max, --baseline or a --config file.\n',
    );
  });
});
