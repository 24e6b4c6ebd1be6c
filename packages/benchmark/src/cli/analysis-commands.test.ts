import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeSampleRun } from '../testing/make-sample-run.js';
import { recordRankings } from '../testing/record-rankings.js';
import { runCli } from '../testing/run-cli.js';

let official: string;
let words: string;
let root: string;
const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'lme-analysis-cli-'));
  official = await makeSampleRun(root, 'official', { tokenizer: 'official' });
  words = await makeSampleRun(root, 'words', { tokenizer: 'words' });
});

describe('lme compare', () => {
  it('prints one side-by-side table, with --pairs a report per run too, and writes it to --out', () => {
    const out = join(root, 'compare.md');
    const args = [
      'compare',
      official,
      words,
      official,
      '--metrics',
      'session.recall_all@5,session.ndcg_any@5',
    ];
    const table = runCli(args);
    expect(table.status).toBe(0);
    expect(table.stdout).toMatch(
      /^## 2 runs vs official #1 \(base\)\n\n\| category +\| metric +\| +n \| official #1 \(base\) \| +words \| +official #3 \|$/m,
    );
    expect(table.stdout).toMatch(/^\| failed questions +\| +\| +\| +0 \| +0 \| +0 \|$/m);
    expect(table.stdout).toMatch(
      /^\| +\| session\.ndcg_any@5 +\| +18 \| +0\.6334 \| 0\.6\d{3} \([+-]0\.\d{4}\) \| 0\.6334 \(0\.0000\) \|$/m,
    );
    expect(table.stdout).not.toContain('vs words');
    const pairs = runCli([...args, '--pairs', '--output', out]);
    expect(pairs.status).toBe(0);
    expect(pairs.stdout.startsWith(table.stdout)).toBe(true);
    expect(pairs.stdout).toContain('## official (base) vs words');
    expect(pairs.stdout).toMatch(/\| session\.ndcg_any@5 +\| +18 \| +0\.6334 \|/);
    expect(read(root, 'compare.md')).toBe(pairs.stdout);
  });

  it('exits 1 with one argument', () => {
    const result = runCli(['compare', official]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/missing required argument 'runs'/);
  });
});

describe('lme report', () => {
  it('rewrites the reports of a run from config.json and samples.jsonl alone', () => {
    const dir = join(root, 'rewritten');
    cpSync(official, dir, { recursive: true });
    for (const file of ['summary.json', 'summary.csv', 'samples.csv', 'report.md']) rmSync(join(dir, file));
    const result = runCli(['report', dir]);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${read(official, 'report.md')}\nresults: ${dir}\n`);
    for (const file of ['summary.json', 'summary.csv', 'samples.csv', 'report.md']) {
      expect(read(dir, file), file).toBe(read(official, file));
    }
  });
});

describe('lme merge', () => {
  it('merges shard runs into one run equal to the whole', () => {
    const lines = read(official, 'samples.jsonl').trimEnd().split('\n');
    const config = JSON.parse(read(official, 'config.json'));
    const shards = [0, 1].map((index) => {
      const dir = join(root, `shard-${index}`);
      mkdirSync(dir);
      writeFileSync(join(dir, 'config.json'), JSON.stringify({ ...config, run_id: `shard-${index}` }));
      const half = lines.filter((_, line) => line % 2 === index);
      writeFileSync(join(dir, 'samples.jsonl'), `${half.join('\n')}\n`);
      recordRankings(dir);
      return dir;
    });
    const out = join(root, 'merged');
    const result = runCli(['merge', ...shards, '--out', out, '--run-id', 'official']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('merged 22 questions from 2 runs');
    for (const file of ['samples.jsonl', 'summary.json', 'summary.csv', 'samples.csv', 'report.md']) {
      expect(read(out, file), file).toBe(read(official, file));
    }
  });

  it('exits 2 when a shard holds failed questions, naming the first', () => {
    const lines = read(official, 'samples.jsonl').trimEnd().split('\n');
    const config = JSON.parse(read(official, 'config.json'));
    const shards = [0, 1].map((index) => {
      const dir = join(root, `failed-shard-${index}`);
      mkdirSync(dir);
      writeFileSync(join(dir, 'config.json'), JSON.stringify({ ...config, run_id: `failed-shard-${index}` }));
      const half = lines
        .filter((_, line) => line % 2 === index)
        .map((line, position) =>
          index === 1 && position === 0
            ? JSON.stringify({ ...JSON.parse(line), error: 'provider down' })
            : line,
        );
      writeFileSync(join(dir, 'samples.jsonl'), `${half.join('\n')}\n`);
      recordRankings(dir);
      return dir;
    });
    const result = runCli(['merge', ...shards, '--out', join(root, 'merged-failed')]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(
      /^1 of 22 questions failed; first: [0-9a-z_]+: provider down; rerun that shard/,
    );
  });

  it('exits 1 when the runs differ in a result-affecting key', () => {
    const result = runCli(['merge', official, words, '--out', join(root, 'bad')]);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      'lme: Cannot merge runs made with different settings: tokenizer (official: official, words: words).\n',
    );
  });

  it('refuses a lone shard, and merges it with --allow-partial', () => {
    const dir = join(root, 'lone-shard');
    mkdirSync(dir);
    const config = JSON.parse(read(official, 'config.json'));
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ ...config, run_id: 'lone-shard', config: { ...config.config, shard: '1/2' } }),
    );
    const lines = read(official, 'samples.jsonl').trimEnd().split('\n');
    writeFileSync(join(dir, 'samples.jsonl'), `${lines.filter((_, line) => line % 2 === 0).join('\n')}\n`);
    recordRankings(dir);
    const refused = runCli(['merge', dir, '--out', join(root, 'lone-merged')]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe(
      'lme: Cannot merge an incomplete set of shards: 2/2 is missing (given 1/2); add it, or pass --allow-partial to merge part of the dataset.\n',
    );
    const partial = runCli(['merge', dir, '--out', join(root, 'lone-merged'), '--allow-partial']);
    expect(partial.status).toBe(0);
    expect(partial.stderr).toBe(
      'lme: warning: Shard 2/2 is missing (--allow-partial): the merged run holds only shard 1/2 of the dataset.\n',
    );
    expect(partial.stdout).toContain('merged 11 questions from 1 run');
  });
});
