import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { datasetRecords } from '../benchmarks/load-dataset.js';
import { REPO_ROOT, runCli } from '../testing/run-cli.js';
import { samplesOf } from '../testing/sample-run.js';

const SAMPLE = ['--dataset', 'sample', '--data-dir', join(REPO_ROOT, 'datasets')];

describe('lme claims', () => {
  it('checks a claim end to end on the committed sample: an ordinary run, the author metric beside the official one', async () => {
    const out = mkdtempSync(join(tmpdir(), 'lme-claims-'));
    const checked = runCli(['claims', 'check', 'memini-bm25-longmemeval-s', ...SAMPLE, '--out', out]);
    expect(checked.stderr).not.toMatch(/error/i);
    expect(checked.status).toBe(0);
    const [runId] = readdirSync(out);
    const dir = join(out, runId!);
    // The run folder is an ordinary one, plus the claim check.
    for (const file of ['config.json', 'samples.jsonl', 'summary.json', 'claim.json'])
      expect(existsSync(join(dir, file))).toBe(true);
    const claim = JSON.parse(readFileSync(join(dir, 'claim.json'), 'utf8'));
    // Recount any evidence session in the top 5 from the folder and the dataset, every question counted.
    const gold = new Map<string, string[]>();
    for await (const record of datasetRecords(
      join(REPO_ROOT, 'datasets/sample/longmemeval_s_sample.json.gz'),
    ))
      gold.set(record.question_id, record.answer_session_ids);
    const samples = samplesOf(dir);
    const hits = samples.filter((sample) =>
      sample.hits.slice(0, 5).some((hit) => gold.get(sample.question_id)!.includes(hit.session_id)),
    ).length;
    expect(claim.figures[0].measured.n).toBe(samples.length);
    expect(claim.figures[0].measured.value).toBeCloseTo(hits / samples.length, 12);
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
    expect(claim.official.value).toBe(summary.metrics.overall.metrics['session.recall_all@5']);
    expect(checked.stdout).toContain(
      `published 0.976 recall_any_all_questions@5 over 500; measured ${(hits / samples.length).toFixed(3)}`,
    );
    expect(checked.stdout).toMatch(/official session\.recall_all@5 over \d+: \d\.\d{3}/);
    expect(checked.stdout).toMatch(
      /^dataset: this run read SHA-256 [0-9a-f]{12}…, not the claim's d6f21ea9d60a…/m,
    );
    expect(checked.stdout).toMatch(
      /^verdict: (reproduced|not reproduced) \(on \d+ questions; the claim counts 500\)/m,
    );

    const listed = runCli(['claims', 'list', out]);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`\\| memini-bm25-longmemeval-s .*\\| ${runId} \\|`));
    // A check on part of the claim's questions never reads as a plain verdict.
    expect(listed.stdout).toMatch(/\| (reproduced|not reproduced) on \d+ of 500 questions \|/);
    expect(listed.stdout).toMatch(
      /\| zep-gpt-4o-longmemeval-s +\|.*\| +not measured here \|.*\| +unchecked \|/,
    );

    const page = join(mkdtempSync(join(tmpdir(), 'lme-claims-page-')), 'board.html');
    expect(runCli(['runs', out, '--html', page]).status).toBe(0);
    const html = readFileSync(page, 'utf8');
    expect(html).toContain('<h2>claims</h2>');
    expect(html).toContain(`>${runId}</a>`);
  });

  it('says in one sentence what a claim needs and runs nothing without it', () => {
    const out = mkdtempSync(join(tmpdir(), 'lme-claims-'));
    const key = runCli(['claims', 'check', 'zep-gpt-4o-longmemeval-s', ...SAMPLE, '--out', out], {
      ZEP_API_KEY: '',
      OPENAI_API_KEY: '',
    });
    expect(key.status).toBe(1);
    expect(key.stderr).toContain(
      'Claim zep-gpt-4o-longmemeval-s needs ZEP_API_KEY and OPENAI_API_KEY set (Zep Cloud); it was not run.',
    );
    const service = runCli(['claims', 'check', 'automem-longmemeval-s', ...SAMPLE, '--out', out]);
    expect(service.status).toBe(1);
    expect(service.stderr).toMatch(
      /Claim automem-longmemeval-s needs --provider-url set \(an AutoMem server/,
    );
    expect(readdirSync(out)).toEqual([]);
  });

  it('asks for the file of a dataset lme knows by no name, and refuses another benchmark', () => {
    const result = runCli(['claims', 'check', 'memini-bm25-locomo']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('give its file with --dataset <path>');
    const other = runCli(['claims', 'check', 'memini-bm25-locomo', ...SAMPLE]);
    expect(other.status).toBe(1);
    expect(other.stderr).toContain(
      'Claim memini-bm25-locomo is about locomo, but --dataset sample holds longmemeval questions.',
    );
  });
});
