import { copyFileSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../testing/run-cli.js';
import { EXIT } from './exit-codes.js';

describe('lme ablate', () => {
  it('names its folder by --run-id, never by the slashes of a dataset path, and refuses it twice', () => {
    const out = mkdtempSync(join(tmpdir(), 'lme-ablate-'));
    const dataset = join(out, 'copy.json.gz');
    copyFileSync(join(REPO_ROOT, 'datasets/sample/longmemeval_s_sample.json.gz'), dataset);
    const args = [
      'ablate',
      '--dataset',
      dataset,
      '--grid',
      'tokenizer=official,words',
      '--out',
      join(out, 'r'),
    ];
    const first = runCli([...args, '--run-id', 'abl']);
    expect(first.status, first.stderr).toBe(EXIT.ok);
    expect(readdirSync(join(out, 'r'))).toEqual(['abl']);
    expect(existsSync(join(out, 'r', 'abl', 'report.md'))).toBe(true);
    const again = runCli([...args, '--run-id', 'abl']);
    expect(again.status).toBe(EXIT.error);
    expect(again.stderr).toMatch(/Run folder .*abl already exists/);
    const unnamed = runCli([...args, '--grid', 'seed=1']);
    expect(unnamed.status, unnamed.stderr).toBe(EXIT.ok);
    const folders = readdirSync(join(out, 'r')).filter((name) => name !== 'abl');
    expect(folders).toHaveLength(1);
    expect(folders[0]).toMatch(/-ablation-copy-[0-9a-f]{4}$/);
  }, 120_000);

  it('exits 2 after writing every variant when questions failed, naming the variant and the first failure', () => {
    const out = mkdtempSync(join(tmpdir(), 'lme-ablate-fail-'));
    const result = runCli([
      'ablate',
      '--dataset',
      'sample',
      '--provider',
      'http',
      '--provider-url',
      'http://127.0.0.1:9',
      '--provider-retries',
      '0',
      '--question-types',
      'multi-session',
      '--grid',
      'top-k=5,10',
      '--out',
      out,
      '--run-id',
      'down',
    ]);
    expect(result.status, result.stderr).toBe(EXIT.failedQuestions);
    expect(result.stderr).toMatch(/variant top-k=5: 4 of 4 questions failed; first: [0-9a-z_]+: /);
    expect(result.stderr).toMatch(/variant top-k=10: 4 of 4 questions failed/);
    expect(existsSync(join(out, 'down', 'report.md'))).toBe(true);
  }, 120_000);
});
