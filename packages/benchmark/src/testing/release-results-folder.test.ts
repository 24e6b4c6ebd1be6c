import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../results/sample.js';
import type { Summary } from '../results/summary.js';
import { recordRankings } from './record-rankings.js';
import { runCli } from './run-cli.js';
import { withoutLatency } from './without-latency.js';

// Results folders the release e020621 wrote (fixtures/release-e020621/README.md): issue 47 regroups
// the run config, and folders written before it must still load for --resume, compare, report, gate,
// merge and explain. Every command runs on copies; the committed folders stay as the release wrote them.
const FIXTURES = join(import.meta.dirname, 'fixtures/release-e020621');
const SHARD_1 = 'release-e020621-shard-1-of-2';
const SHARD_2 = 'release-e020621-shard-2-of-2';

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const readSamples = (dir: string): Sample[] =>
  readFileSync(join(dir, 'samples.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Sample);
const withoutSampleLatency = ({ latency_ms: _latency, ...rest }: Sample) => rest;

let work: string;
/** A fresh copy of a committed run folder under the test's folder. */
function copyOf(run: string, name: string = run): string {
  const dir = join(work, name);
  cpSync(join(FIXTURES, run), dir, { recursive: true });
  return dir;
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'lme-release-folder-'));
});

describe('results folders written by the release e020621 (before issue 47)', () => {
  it('lme report rewrites the same summary.json and report.md from their config.json and samples.jsonl', () => {
    const dir = copyOf(SHARD_1, 'report');
    const result = runCli(['report', dir]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    for (const file of ['summary.json', 'report.md', 'summary.csv', 'samples.csv'])
      expect(readFileSync(join(dir, file), 'utf8'), file).toBe(
        readFileSync(join(FIXTURES, SHARD_1, file), 'utf8'),
      );
  });

  it("lme explain reads a question's explain.jsonl line: the gold sessions' ranks and the cause of a miss", () => {
    const result = runCli(['explain', copyOf(SHARD_1, 'explain'), 'gpt4_59c863d7']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('from explain.jsonl (every document ranked)');
    expect(result.stdout).toMatch(/✗ answer_593bdffd_3 +rank 8 +\[bm25 2\.2743 \(#8\)\]/);
    expect(result.stdout).toContain('lexical miss: bm25 rank 8');
  });

  it('lme merge joins the two shards into one run of the four questions in dataset order', () => {
    const out = join(work, 'merged');
    const result = runCli(['merge', copyOf(SHARD_1), copyOf(SHARD_2), '--out', out]);
    expect(result.status).toBe(0);
    const shards = [...readSamples(join(FIXTURES, SHARD_1)), ...readSamples(join(FIXTURES, SHARD_2))];
    const merged = readSamples(out);
    expect(merged.map((sample) => sample.position)).toEqual([2, 3, 6, 7]);
    expect(merged).toEqual(shards.sort((a, b) => a.position - b.position));
    expect(readJson<Summary>(join(out, 'summary.json'))).toMatchObject({ n: 4, errors: 0 });
  });

  describe('lme run --resume of a copy whose last question is missing', () => {
    let resumed: string;
    beforeAll(() => {
      resumed = copyOf(SHARD_1, 'resumed');
      const lines = readFileSync(join(resumed, 'samples.jsonl'), 'utf8').split('\n');
      writeFileSync(join(resumed, 'samples.jsonl'), `${lines[0]}\n`);
      recordRankings(resumed);
      const explain = readFileSync(join(resumed, 'explain.jsonl'), 'utf8').split('\n');
      writeFileSync(join(resumed, 'explain.jsonl'), `${explain[0]}\n`);
    });

    it('refuses without --resume-mixed, naming the code change, and keeps the question done', () => {
      const result = runCli(['run', '--resume', resumed]);
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain('its questions were made under another setup');
      expect(result.stderr).toContain('code (source ');
      expect(result.stderr).toContain('--resume-mixed');
      expect(readSamples(resumed)).toHaveLength(1);
    });

    // The resumed question is run again: 30 s on a loaded 2-core machine, beyond the default timeout.
    it('with --resume-mixed, runs the missing question again with the same hits and metrics', {
      timeout: 120_000,
    }, () => {
      const result = runCli(['run', '--resume', resumed, '--resume-mixed']);
      expect(result.stderr).toContain('1 done before');
      expect(result.status).toBe(0);
      expect(readSamples(resumed).map(withoutSampleLatency)).toEqual(
        readSamples(join(FIXTURES, SHARD_1)).map(withoutSampleLatency),
      );
      const summary = readJson<Summary>(join(resumed, 'summary.json'));
      const release = readJson<Summary>(join(FIXTURES, SHARD_1, 'summary.json'));
      expect(withoutLatency(summary.metrics)).toEqual(withoutLatency(release.metrics));
      expect(summary.mixed?.setups).toBe(2);
      expect(readFileSync(join(resumed, 'explain.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
    });

    it('lme gate passes the resumed run against the release as its baseline, with no drop allowed', () => {
      const gateFile = join(work, 'gate.json');
      writeFileSync(
        gateFile,
        JSON.stringify({
          min: { 'session.recall_any@5': 1, 'multi-session:session.ndcg_any@5': 0.79 },
          baseline: join(FIXTURES, SHARD_1),
          maxDrop: 0,
          perType: true,
        }),
      );
      const result = runCli(['gate', resumed, '--config', gateFile, '--format', 'json']);
      expect(result.status).toBe(0);
      const verdict = JSON.parse(result.stdout) as { passed: boolean; checks: unknown[] };
      expect(verdict.passed).toBe(true);
      expect(verdict.checks.length).toBeGreaterThan(3);
    });

    it('lme compare of the release and the resumed run: every metric the same', () => {
      const result = runCli([
        'compare',
        copyOf(SHARD_1, 'base'),
        resumed,
        '--format',
        'json',
        '--metrics',
        'all',
      ]);
      expect(result.status).toBe(0);
      const rows = JSON.parse(result.stdout) as { metric: string; delta: number | null }[];
      expect(rows.length).toBeGreaterThan(10);
      expect(rows.filter((row) => row.delta !== 0 && row.delta !== null)).toEqual([]);
    });
  });
});
