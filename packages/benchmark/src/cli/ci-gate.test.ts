import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../testing/run-cli.js';

/*
 * Issue 35: the shipped CI gate (configs/gates/ci.json) must mean something: the hybrid preset it
 * guards passes it, and plain BM25 on the same 40 S questions fails it (hybrid is far ahead at @10
 * and in evidence recall). results/baselines/ci-s-subset-bm25 is `lme run --preset bm25` on the
 * gate's questions (its config.json records the command); when S is beside the repository (as
 * in .ci/run), BM25 is also run afresh.
 */

const GATE = ['--config', 'configs/gates/ci.json'];
const S = process.env['LME_DATA_DIR'] ?? resolve(REPO_ROOT, '../shared/datasets/longmemeval');
const sPresent = existsSync(join(S, 'longmemeval_s_cleaned.json.gz'));
const out = mkdtempSync(join(tmpdir(), 'lme-ci-gate-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('the shipped CI gate (configs/gates/ci.json)', () => {
  it('passes the hybrid baseline itself', () => {
    const result = runCli(['gate', 'results/baselines/ci-s-subset/summary.json', ...GATE]);
    expect(result.stdout).toMatch(/gate passed: \d+ checks\n$/);
    expect(result.status).toBe(0);
  });

  it('checks recall at several k and evidence recall', () => {
    const result = runCli(['gate', 'results/baselines/ci-s-subset/summary.json', ...GATE]);
    for (const metric of [
      'session.recall_all@5',
      'session.recall_all@10',
      'session.recall_any@10',
      'session.ndcg_any@10',
      'context.evidence_recall',
    ]) {
      expect(result.stdout).toMatch(new RegExp(`^PASS +overall +${metric.replace(/[.@]/g, '\\$&')} `, 'm'));
    }
  });

  it('fails BM25 on the same questions, naming what it misses with --only-failures', () => {
    const result = runCli([
      'gate',
      'results/baselines/ci-s-subset-bm25/summary.json',
      ...GATE,
      '--only-failures',
    ]);
    expect(result.status).toBe(3);
    expect(result.stdout).toMatch(/^FAIL +overall +session\.recall_all@10 /m);
    expect(result.stdout).toMatch(/^FAIL +overall +context\.evidence_recall /m);
    expect(result.stdout).not.toMatch(/^PASS/m);
  });

  it.skipIf(!sPresent)(
    `fails a fresh BM25 run of the gate's questions${sPresent ? '' : ` (skipped: ${S} has no S file)`}`,
    () => {
      const run = runCli([
        'run',
        ...['--dataset', 's', '--data-dir', S, '--preset', 'bm25', '--limit', '40', '--seed', '7'],
        ...['--out', out, '--run-id', 'bm25', '--cache-dir', join(out, 'cache')],
      ]);
      expect(run.status, run.stderr).toBe(0);
      const gate = runCli(['gate', join(out, 'bm25'), ...GATE]);
      expect(gate.status).toBe(3);
      expect(gate.stdout).toMatch(/^FAIL +overall +session\.recall_all@10 /m);
    },
    120_000,
  );
});
