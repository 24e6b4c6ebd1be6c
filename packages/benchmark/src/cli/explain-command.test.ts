import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readExplainLines } from '../analysis/read-explain-lines.js';
import { readRun } from '../analysis/read-run.js';
import { makeSampleRun } from '../testing/make-sample-run.js';
import { runCli } from '../testing/run-cli.js';
import { explainQuestion } from './explain-command.js';

let root: string;
let explained: string;
let plain: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'lme-explain-'));
  explained = await makeSampleRun(root, 'explained', { tokenizer: 'official', explain: true });
  plain = await makeSampleRun(root, 'plain', { tokenizer: 'official', saveHits: 5 });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('lme explain', () => {
  it('prints the question, every gold session with its rank, route score and cause, and the gold hits marked', () => {
    const result = runCli(['explain', explained, '6d550036']);
    expect(result.status).toBe(0);
    const out = result.stdout;
    expect(out).toContain('question: How many projects have I led or am currently leading?');
    expect(out).toContain('answer:   2');
    expect(out).toContain('from explain.jsonl (every document ranked)');
    // Four gold sessions, each with its rank and BM25 score; the ones below 5 named lexical misses.
    expect(out.match(/^ {2}[✓✗] answer_ec904b3c_\d +rank \d+ +\[bm25 [\d.]+ \(#\d+\)\]$/gm)).toHaveLength(4);
    expect(out).toMatch(/^ {6}lexical miss: bm25 rank \d+, score [\d.]+; final rank \d+$/m);
    expect(out).toMatch(/^ {2}★ +\d+ {2}answer_ec904b3c_\d/m);
    expect(out).toContain('evidence turns (has_answer):');
  });

  it('works from samples.jsonl alone, saying which gold sessions fell outside the saved hits', () => {
    const run = readRun(plain);
    const sample = run.samples.find((candidate) => candidate.question_id === '6d550036')!;
    expect(readExplainLines(plain)).toBeUndefined();
    const out = explainQuestion({ run, sample, k: 5, hits: 5, detailsUnavailable: 'not read in this test' });
    expect(out).toContain('question text not available: not read in this test');
    expect(out).toContain('from samples.jsonl (its 5 saved hits;');
    expect(out).toMatch(
      /not retrieved\n {6}not in the 5 saved hits \(run with --explain for its rank and route scores\)/,
    );
  });

  it('judges the cause at the --k given', () => {
    const run = readRun(explained);
    const sample = run.samples.find((candidate) => candidate.question_id === '6d550036')!;
    const explain = readExplainLines(explained)!.get('6d550036')!;
    const wide = explainQuestion({ run, sample, explain, k: 50, hits: 3 });
    expect(wide).not.toContain('lexical miss');
    expect(wide.match(/^ {2}✓ /gm)).toHaveLength(4);
  });

  it('names close question ids when the id is not in the run', () => {
    const result = runCli(['explain', plain, '6d55003']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/has no question 6d55003 \(close names: 6d550036\)\./);
  });
});
