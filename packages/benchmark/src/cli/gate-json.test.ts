import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GateJson } from '../analysis/render-gate-result.js';
import { makeSampleQaRun } from '../testing/make-qa-run.js';
import { runCli } from '../testing/run-cli.js';

// Two QA runs on the 22-question sample: QA means count its 4 abstention questions, retrieval
// means do not (n 22 and 18 overall).
let root: string;
let baseline: string;
let candidate: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'lme-gate-json-'));
  baseline = await makeSampleQaRun(root, 'baseline', (question) => question.length % 2 === 0);
  candidate = await makeSampleQaRun(root, 'candidate', () => true);
}, 120_000);

describe('lme gate --format json', () => {
  it('prints one object: the verdict, the exit code, each check with its group, value, n and bound or baseline', () => {
    const result = runCli([
      'gate',
      candidate,
      '--min',
      'qa.accuracy_strict>=0.9',
      '--min',
      'single-session-user:session.recall_all@5>=0.99',
      '--baseline',
      baseline,
      '--metrics',
      'qa.accuracy_strict',
      '--format',
      'json',
    ]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const gate = JSON.parse(result.stdout) as GateJson;
    expect(gate).toMatchObject({
      passed: true,
      exit_code: 0,
      run: join(candidate, 'summary.json'),
      baseline: join(baseline, 'summary.json'),
      failed_checks: 0,
      problems: [],
    });
    expect(gate.checks).toEqual([
      expect.objectContaining({
        kind: 'threshold',
        group: 'overall',
        metric: 'qa.accuracy_strict',
        value: 1,
        n: 22,
        operator: '>=',
        threshold: 0.9,
        baseline: null,
        passed: true,
      }),
      expect.objectContaining({
        group: 'single-session-user',
        metric: 'session.recall_all@5',
        value: 1,
        n: 3,
        passed: true,
      }),
      expect.objectContaining({
        kind: 'drop',
        group: 'overall',
        metric: 'qa.accuracy_strict',
        value: 1,
        n: 22,
        baseline_n: 22,
        max_drop: 0,
        passed: true,
      }),
    ]);
  });

  it('fails a partial run with exit code 3 and names the problem in the object', () => {
    const partial = join(root, 'partial');
    cpSync(candidate, partial, { recursive: true });
    const summary = JSON.parse(readFileSync(join(partial, 'summary.json'), 'utf8'));
    summary.partial = { reason: 'estimated spend $0.0100 reached --max-cost' };
    writeFileSync(join(partial, 'summary.json'), JSON.stringify(summary));
    const result = runCli(['gate', partial, '--min', 'qa.accuracy_strict>=0.5', '--format', 'json']);
    expect(result.status).toBe(3);
    const gate = JSON.parse(result.stdout) as GateJson;
    expect(gate.passed).toBe(false);
    expect(gate.exit_code).toBe(3);
    expect(gate.checks[0]).toMatchObject({ metric: 'qa.accuracy_strict', n: 22, passed: true });
    expect(gate.problems).toHaveLength(1);
    expect(gate.problems[0]).toContain('reached --max-cost');
  });
});
