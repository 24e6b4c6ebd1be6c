import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../testing/run-cli.js';

describe('lme run', () => {
  it('runs BM25 on the committed sample and writes every file of the results folder', () => {
    const out = mkdtempSync(join(tmpdir(), 'lme-cli-'));
    const result = runCli([
      'run',
      '--dataset',
      'sample',
      '--tokenizer',
      'official',
      '--out',
      out,
      '--run-id',
      'bm25',
    ]);
    expect(result.stderr).toContain('read 22 questions');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/\| overall +\| +18 \|/);
    const dir = join(out, 'bm25');
    for (const file of [
      'config.json',
      'samples.jsonl',
      'summary.json',
      'summary.csv',
      'samples.csv',
      'report.md',
    ]) {
      expect(existsSync(join(dir, file)), file).toBe(true);
    }
    const lines = readFileSync(join(dir, 'samples.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(22);
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(config.config.tokenizer).toBe('official');
    expect(config.dataset.sha256).toBe('ad8e14163af76bbcaa92dc4593fe2e774e117ebb62209b76f99c5559fa7fbf08');
    expect(config.provenance.argv).toContain('--tokenizer');
    const csv = readFileSync(join(dir, 'summary.csv'), 'utf8').split('\n');
    expect(csv[0]).toBe('run_id,variant,question_type,metric,value,n,label,errata');
    expect(csv).toContainEqual(
      expect.stringMatching(/^bm25,default,overall,session\.recall_all@5,[\d.]+,18,,$/),
    );
  });

  it('rejects an unknown --granularity with exit code 1 and one line naming the flag', () => {
    const result = runCli(['run', '--granularity', 'paragraph']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/option '--granularity <unit>' argument 'paragraph' is invalid/);
  });

  it('rejects an unknown embedder or model before any question, with exit code 1 and one sentence', () => {
    const out = mkdtempSync(join(tmpdir(), 'lme-embedder-name-'));
    for (const [embedder, message] of [
      ['bogus:x', /Unknown embedder "bogus:x"\. Known: local:use-lite, hf:/],
      ['hf:Xenova/unknown', /Unknown model "Xenova\/unknown"; configs\/models.json has /],
      // Joined names are checked part by part.
      ['local:use-lite+hf:Xenova/unknown', /Unknown model "Xenova\/unknown"; configs\/models.json has /],
      ['local:use-lite+', /Unknown embedder ""\. Known: /],
    ] as const) {
      const result = runCli([
        'run',
        '--dataset',
        'sample',
        '--retriever',
        'dense',
        '--embedder',
        embedder,
        '--out',
        out,
      ]);
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(/questions failed/);
    }
  });

  it('rejects a non-numeric --save-hits', () => {
    const result = runCli(['run', '--save-hits', '5x']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/--save-hits.*expected a whole number of at least 0, got "5x"/);
  });

  it('rejects a negative --feedback-weight and a fractional --feedback-docs', () => {
    const weight = runCli(['run', '--feedback-weight', '-0.5']);
    expect(weight.status).toBe(1);
    expect(weight.stderr).toMatch(/--feedback-weight.*expected a number of at least 0, got "-0.5"/);
    const docs = runCli(['run', '--feedback-docs', '1.5']);
    expect(docs.status).toBe(1);
    expect(docs.stderr).toMatch(/--feedback-docs.*expected a whole number from 0 to 1000, got "1.5"/);
  });

  it('names the file and question of a malformed dataset, exit code 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lme-bad-'));
    const path = join(dir, 'bad.json');
    writeFileSync(path, JSON.stringify([{ question_id: 'q1', question_type: 'multi-session' }]));
    const result = runCli(['run', '--dataset', path, '--out', dir]);
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n').at(-1)).toBe(
      `lme: ${path}: question q1: field "question" is missing or not a string`,
    );
  });
});

describe('lme datasets info', () => {
  it('prints counts per question type', () => {
    const result = runCli(['datasets', 'info', 'sample']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/\| total +\| +22 \| +4 \| +1039 \| +11023 \| +5468 \| +41 \|/);
  });
});
