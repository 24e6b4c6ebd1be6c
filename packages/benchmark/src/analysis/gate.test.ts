import { describe, expect, it } from 'vitest';
import type { Summary } from '../results/summary.js';
import { evaluateGate, parseBound, parseThreshold } from './gate.js';
import type { Run } from './read-run.js';
import { gateResultJson, renderGateResult } from './render-gate-result.js';

function summary(overall: Record<string, number>, multiSession: Record<string, number> = overall): Summary {
  return {
    run_id: 'r',
    dataset: 's',
    convention: 'official',
    exclusion: 'A',
    n: 10,
    errors: 0,
    metrics: {
      overall: { n: 8, metrics: overall, counts: {} },
      by_type: { 'multi-session': { n: 4, metrics: multiSession, counts: {} } },
      abstention: { n: 2, metrics: overall, counts: {} },
    },
  };
}

describe('parseThreshold', () => {
  it('reads metric, operator and number, overall by default', () => {
    expect(parseThreshold('session.recall_all@5>=0.85')).toEqual({
      scope: 'overall',
      metric: 'session.recall_all@5',
      operator: '>=',
      value: 0.85,
    });
    expect(parseThreshold('latency.retrieve_ms.p95 < 2e1')).toMatchObject({ operator: '<', value: 20 });
    expect(parseThreshold('session.ndcg_any@5>.5')).toMatchObject({ operator: '>', value: 0.5 });
  });

  it('reads a question type scope', () => {
    expect(parseThreshold('multi-session:session.recall_all@5<=0.7')).toEqual({
      scope: 'multi-session',
      metric: 'session.recall_all@5',
      operator: '<=',
      value: 0.7,
    });
  });

  it('rejects malformed expressions with one sentence naming them', () => {
    expect(() => parseThreshold('session.recall_all@5=0.85')).toThrow(
      /Threshold "session.recall_all@5=0.85" is not .*<metric><op><number>/,
    );
    expect(() => parseThreshold('session.recall_all@5>=high')).toThrow(/"high", which is not a number/);
    expect(() => parseThreshold('>=0.5')).toThrow(/is not/);
    expect(() => parseThreshold('session.recall_all@5>=0.8 0.9')).toThrow(/is not/);
  });

  it('holds --min to lower bounds and --max to upper bounds', () => {
    expect(parseBound('session.recall_all@5>0.8', 'min').operator).toBe('>');
    expect(() => parseBound('session.recall_all@5<=0.8', 'min')).toThrow(/--min .* must use >= or >/);
    expect(() => parseBound('latency.retrieve_ms.p95>=20', 'max')).toThrow(/--max .* must use <= or </);
  });
});

describe('evaluateGate', () => {
  const run = summary({
    'session.recall_all@5': 0.85,
    'session.recall_any@5': 0.9,
    'latency.retrieve_ms.p95': 30,
  });

  it('passes and fails thresholds per scope', () => {
    const result = evaluateGate({
      summary: run,
      summaryPath: 'run/summary.json',
      thresholds: [
        parseThreshold('session.recall_all@5>=0.85'),
        parseThreshold('session.recall_all@5>0.85'),
        parseThreshold('multi-session:session.recall_any@5>=0.95'),
        parseThreshold('latency.retrieve_ms.p95<=20'),
      ],
    });
    expect(result.checks.map((check) => check.passed)).toEqual([true, false, false, false]);
    expect(result.failed).toBe(3);
    const text = renderGateResult(result);
    expect(text).toMatch(/^PASS {2}overall +session\.recall_all@5 +0\.8500 {2}>= 0\.8500$/m);
    expect(text).toMatch(/^FAIL {2}multi-session {2}session\.recall_any@5 +0\.9000 {2}>= 0\.9500$/m);
    expect(text).toMatch(/gate failed: 3 of 4 checks\n$/);
  });

  it('fails a threshold on a metric the run lacks, naming it and the close ones', () => {
    const result = evaluateGate({
      summary: run,
      summaryPath: 'x.json',
      thresholds: [parseThreshold('session.recal_all@5>=0.8')],
    });
    expect(result.passed).toBe(false);
    expect(renderGateResult(result)).toBe(
      'FAIL  overall  session.recal_all@5  -  >= 0.8000, not in the run (close names: session.recall_all@5, session.recall_any@5); pass --allow-missing-metrics to skip it\n\ngate failed: 1 of 1 check\n',
    );
  });

  it('checks every metric the baseline has: one the run lacks fails, naming it, unless allowed and said so', () => {
    const base = summary({ 'session.recall_all@5': 0.85, 'context.evidence_recall': 0.7 });
    const unpacked = summary({ 'session.recall_all@5': 0.9 });
    const options = {
      summary: unpacked,
      summaryPath: 'x',
      baseline: { summary: base, path: 'base' },
      perType: true,
    };
    const result = evaluateGate(options);
    expect(result.passed).toBe(false);
    const text = renderGateResult(result);
    expect(text).toMatch(
      /^FAIL {2}overall +context\.evidence_recall +- {2}baseline 0\.7000, not in the run; pass --allow-missing-metrics to skip it$/m,
    );
    expect(text).toMatch(/^FAIL {2}multi-session +context\.evidence_recall /m);
    expect(text).toMatch(/gate failed: 2 of 4 checks\n$/);
    const allowed = evaluateGate({ ...options, allowMissingMetrics: true });
    expect(allowed.passed).toBe(true);
    expect(renderGateResult(allowed)).toMatch(
      /^SKIP {2}overall +context\.evidence_recall +- {2}baseline 0\.7000, not in the run, skipped \(--allow-missing-metrics\)$/m,
    );
    expect(renderGateResult(allowed)).toMatch(
      /gate passed: 4 checks, 2 skipped as the run lacks their metric \(--allow-missing-metrics\)\n$/,
    );
    expect(allowed.warnings).toContain(
      '2 checks skipped as the run lacks the metric (--allow-missing-metrics): context.evidence_recall (overall), context.evidence_recall (multi-session).',
    );
    const json = gateResultJson(allowed, { run: 'x', exitCode: 0 });
    expect(json.allow_missing_metrics).toBe(true);
    expect(json.checks.filter((check) => check.missing).map((check) => [check.group, check.passed])).toEqual([
      ['overall', true],
      ['multi-session', true],
    ]);
  });

  it('names an unknown question type and the close ones', () => {
    expect(() =>
      evaluateGate({
        summary: run,
        summaryPath: 'x.json',
        thresholds: [parseThreshold('multi-sesion:session.recall_all@5>=0.7')],
      }),
    ).toThrow(/unknown question type "multi-sesion"; close names: multi-session/);
  });

  it('refuses a question type the run has no questions of', () => {
    expect(() =>
      evaluateGate({
        summary: run,
        summaryPath: 'x.json',
        thresholds: [parseThreshold('temporal-reasoning:m>=1')],
      }),
    ).toThrow(/needs temporal-reasoning questions, and x.json has none/);
  });

  it('checks drops from a baseline, score metrics only, with float slack', () => {
    const baseline = summary(
      { 'session.recall_all@5': 0.87, 'session.recall_any@5': 0.95, 'latency.retrieve_ms.p95': 10 },
      { 'session.recall_all@5': 0.9, 'session.recall_any@5': 0.9 },
    );
    const options = {
      summary: run,
      summaryPath: 'run',
      baseline: { summary: baseline, path: 'base' },
      maxDrop: 0.02,
    };
    const overall = evaluateGate(options);
    expect(overall.checks.map((check) => [check.metric, check.passed])).toEqual([
      ['session.recall_all@5', true],
      ['session.recall_any@5', false],
    ]);
    const perType = evaluateGate({ ...options, perType: true, metrics: ['session.recall_all@5'] });
    expect(perType.checks.map((check) => [check.scope, check.passed])).toEqual([
      ['overall', true],
      ['multi-session', false],
    ]);
    expect(perType.checks[1]!.condition).toBe('baseline 0.9000, change -0.0500, may drop 0.0200');
    expect(() => evaluateGate({ ...options, metrics: ['latency.retrieve_ms.p95'] })).toThrow(
      /lower-is-better/,
    );
  });

  it('refuses a gate with nothing to check', () => {
    expect(() => evaluateGate({ summary: run, summaryPath: 'x' })).toThrow(/nothing to check/);
  });

  it('fails a run with failed questions, whose means exclude them, unless allowErrors covers them', () => {
    const failing: Summary = {
      ...run,
      errors: 2,
      first_error: { question_id: 'q7', message: 'question q7: judge answered 500.' },
    };
    const options = {
      summary: failing,
      summaryPath: 'x',
      thresholds: [parseThreshold('session.recall_all@5>=0.8')],
    };
    const result = evaluateGate(options);
    expect(result.failed).toBe(0);
    expect(result.passed).toBe(false);
    expect(result.problems).toEqual([
      '2 of 10 questions failed (none allowed; see --allow-errors), and the means exclude these 2 failed questions: question q7: judge answered 500.',
    ]);
    expect(renderGateResult(result)).toMatch(/\ngate failed \(1 reason\):\n- 2 of 10 questions failed/);
    const allowed = evaluateGate({ ...options, allowErrors: 2 });
    expect(allowed.passed).toBe(true);
    expect(allowed.warnings[0]).toMatch(
      /^2 of 10 questions failed \(--allow-errors 2\), and the means exclude/,
    );
  });

  it('warns, without failing, when a summary records no errors count', () => {
    const old = { ...run } as Partial<Summary>;
    delete old.errors;
    const result = evaluateGate({
      summary: old as Summary,
      summaryPath: 'old.json',
      thresholds: [parseThreshold('session.recall_all@5>=0.8')],
    });
    expect(result.passed).toBe(true);
    expect(result.warnings).toEqual([
      'old.json records no "errors" count (an older lme wrote it), so failed questions cannot be checked.',
    ]);
  });

  it('fails a gate that evaluated no check', () => {
    const result = evaluateGate({
      summary: summary({ 'session.recall_all@5': 1 }),
      summaryPath: 'x',
      baseline: { summary: summary({ 'turn.recall_all@5': 1 }), path: 'base' },
      allowMissingMetrics: true,
    });
    expect(result.checks.map((check) => [check.metric, check.missing, check.passed])).toEqual([
      ['turn.recall_all@5', true, true],
    ]);
    expect(result.passed).toBe(false);
    expect(result.problems).toEqual([
      'The gate evaluated 0 checks, so it shows nothing: the run and the baseline share no metric to compare.',
    ]);
    expect(renderGateResult(result)).toMatch(
      /^SKIP {2}overall {2}turn.recall_all@5 {2}- {2}baseline 1.0000, not in the run, skipped \(--allow-missing-metrics\)\n\n/,
    );
    expect(renderGateResult(result)).toMatch(
      'gate failed (1 reason):\n- The gate evaluated 0 checks, so it shows nothing: the run and the baseline share no metric to compare.\n',
    );
  });

  it('fails when the summaries count other questions than the baseline, unless allowSubset', () => {
    const base = summary({ 'session.recall_all@5': 0.85 });
    const smaller: Summary = {
      ...run,
      n: 6,
      metrics: { ...run.metrics, by_type: { 'multi-session': { n: 3, metrics: {}, counts: {} } } },
    };
    const options = { summary: smaller, summaryPath: 'x', baseline: { summary: base, path: 'base' } };
    expect(evaluateGate(options).problems).toEqual([
      "The run's questions differ from the baseline's: the run has 6 questions and the baseline 10; 1 type differs in questions counted (multi-session 3 vs 4); gate the same questions, or pass --allow-subset to compare the means anyway.",
    ]);
    const allowed = evaluateGate({ ...options, allowSubset: true });
    expect(allowed.passed).toBe(true);
    expect(allowed.warnings).toContain(
      "The run's questions differ from the baseline's (--allow-subset): the run has 6 questions and the baseline 10; 1 type differs in questions counted (multi-session 3 vs 4).",
    );
  });

  it('warns when the run and the baseline folders read different dataset files', () => {
    const folder = (sha256: string) =>
      ({
        dir: `/r/${sha256}`,
        config: {
          run_id: sha256,
          config: {},
          provenance: {},
          dataset: { path: 'p', sha256 },
          finished_at: 'then',
        },
        samples: [],
        warnings: [],
      }) as unknown as Run;
    const result = evaluateGate({
      summary: run,
      summaryPath: 'x',
      run: folder('a'),
      baseline: { summary: run, path: 'base', run: folder('b') },
    });
    expect(result.passed).toBe(true);
    expect(result.warnings).toContain(
      'The run and the baseline base read different dataset files (their SHA-256 differ).',
    );
  });
});
