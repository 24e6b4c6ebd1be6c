import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Sample } from '../results/sample.js';
import type { Summary } from '../results/summary.js';
import { REPO_ROOT } from './run-cli.js';

// scripts/compare-run-outputs.mjs (issue 47's "every output unchanged, before vs after") on copies of
// two real results folders (fixtures/release-e020621), with differences planted in the "after" copy.
const SCRIPT = join(REPO_ROOT, 'scripts/compare-run-outputs.mjs');
const FIXTURES = join(import.meta.dirname, 'fixtures/release-e020621');
const SHARD_1 = 'release-e020621-shard-1-of-2';
const SHARD_2 = 'release-e020621-shard-2-of-2';

function compare(...args: string[]) {
  const result = spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

let before: string;
let after: string;
beforeEach(() => {
  const root = mkdtempSync(join(tmpdir(), 'lme-compare-outputs-'));
  before = join(root, 'before');
  after = join(root, 'after');
  for (const side of [before, after])
    for (const run of [SHARD_1, SHARD_2]) cpSync(join(FIXTURES, run), join(side, run), { recursive: true });
});

/** Rewrites a file of a run folder on one side. */
function edit(side: string, run: string, file: string, change: (text: string) => string): void {
  const path = join(side, run, file);
  writeFileSync(path, change(readFileSync(path, 'utf8')));
}
/** The parts of config.json the test changes. */
type Manifest = {
  config: Record<string, unknown>;
  fingerprint: Record<string, unknown>;
  provenance: Record<string, unknown>;
};

/** Rewrites a JSON file of a run folder on one side. */
function editJson<T>(side: string, run: string, file: string, change: (value: T) => void): void {
  edit(side, run, file, (text) => {
    const value = JSON.parse(text) as T;
    change(value);
    return JSON.stringify(value, null, 2);
  });
}
/** Rewrites every line of a run folder's samples.jsonl on one side. */
function editSamples(side: string, run: string, change: (sample: Sample, index: number) => void): void {
  edit(side, run, 'samples.jsonl', (text) =>
    text
      .trim()
      .split('\n')
      .map((line, index) => {
        const sample = JSON.parse(line) as Sample;
        change(sample, index);
        return `${JSON.stringify(sample)}\n`;
      })
      .join(''),
  );
}

describe('scripts/compare-run-outputs.mjs', () => {
  it('finds two runs the same when only latency, wall times, ports, run ids and machine paths differ', () => {
    editSamples(after, SHARD_1, (sample) => {
      sample.latency_ms = { index: 1, retrieve: 2, ingest: 3 };
    });
    editJson<Summary>(after, SHARD_1, 'summary.json', (summary) => {
      summary.metrics.overall.metrics['latency.retrieve_ms.p50'] = 123;
      summary.metrics.by_type['multi-session']!.counts['latency.retrieve_ms.p95'] = 7;
    });
    for (const [side, port, ms] of [
      [before, 8787, 120],
      [after, 40123, 98.5],
    ] as const) {
      editJson<Summary>(side, SHARD_2, 'summary.json', (summary) => {
        summary.provider = { kind: 'http', url: `http://127.0.0.1:${port}` };
        summary.ingest = {
          ingests: 2,
          shared: 0,
          ms_p50: ms,
          ms_p95: ms,
          ms_total: 2 * ms,
          search_ms_p50: ms / 10,
          search_ms_p95: ms / 5,
        };
      });
      edit(
        side,
        SHARD_2,
        'report.md',
        (text) => `${text}\ningest: 2 ingests · p50 ${ms} ms · total ${2 * ms}ms\n`,
      );
      editJson<Manifest>(side, SHARD_2, 'config.json', (manifest) => {
        manifest.config.out = `/${side}/results`;
        manifest.config.cacheDir = `/${side}/cache`;
        manifest.config.providerUrl = `http://127.0.0.1:${port}`;
        manifest.fingerprint.code = `${side} code`;
        manifest.provenance.started_at = `${side} start`;
      });
    }
    editJson<Manifest>(after, SHARD_2, 'config.json', (manifest) => {
      manifest.fingerprint.config = 'another settings hash';
    });
    const result = compare(before, after);
    expect(result).toEqual({
      status: 0,
      stdout: `${SHARD_1}: same\n${SHARD_2}: same (note: config.json fingerprint.config (the settings hash) changed)\n`,
      stderr: '',
    });
    expect(compare(join(before, SHARD_1), join(after, SHARD_1))).toMatchObject({
      status: 0,
      stdout: `${SHARD_1}: same\n`,
    });
  });

  it('names a changed hit, a changed metric and a changed report line, and exits 1', () => {
    editSamples(after, SHARD_1, (sample, index) => {
      if (index === 1) sample.hits[2]!.score = 2.5;
    });
    editJson<Summary>(after, SHARD_2, 'summary.json', (summary) => {
      summary.metrics.abstention.metrics['session.recall_all@5'] = 0.5;
    });
    edit(after, SHARD_2, 'report.md', (text) => text.replace('0.0000', '0.0001'));
    const result = compare(before, after);
    expect(result.status).toBe(1);
    const [first, second] = result.stdout.trim().split('\n');
    expect(first).toBe(
      `${SHARD_1}: 1 difference: samples.jsonl (1): line 2 (gpt4_59c863d7) hits[2].score: 6.649513629417993 → 2.5`,
    );
    expect(second).toContain(`${SHARD_2}: 2 differences: `);
    expect(second).toContain('summary.json (1): metrics.abstention.metrics.session.recall_all@5: 1 → 0.5');
    expect(second).toMatch(/report\.md \(1\): line 5: ".*0\.0000.*" → ".*0\.0001.*"/);
  });

  it('names a missing sample, a reordered hit list, a missing file and a run on one side only', () => {
    edit(after, SHARD_1, 'samples.jsonl', (text) => `${text.trim().split('\n')[0]}\n`);
    editSamples(after, SHARD_2, (sample, index) => {
      if (index === 0) sample.hits.reverse();
    });
    rmSync(join(after, SHARD_2, 'explain.jsonl'));
    cpSync(join(FIXTURES, SHARD_1), join(after, 'extra-run'), { recursive: true });
    const lines = compare(before, after).stdout.trim().split('\n');
    expect(lines[0]).toBe(`extra-run: only after (${join(after, 'extra-run')})`);
    expect(lines[1]).toBe(`${SHARD_1}: 1 difference: samples.jsonl (1): lines: 2 → 1`);
    expect(lines[2]).toMatch(
      new RegExp(
        `^${SHARD_2}: \\d+ differences: files \\(1\\): only before: explain\\.jsonl \\| samples\\.jsonl \\(\\d+\\): line 1 \\(0862e8bf_abs\\) hits\\[0\\]\\.id: `,
      ),
    );
    expect(compare(before, after).status).toBe(1);
  });

  it('compares the resolved config unless --outputs-only, and refuses bad arguments in one sentence', () => {
    editJson<Manifest>(after, SHARD_1, 'config.json', (manifest) => {
      manifest.config.tokenizer = 'official';
    });
    expect(compare(before, after)).toMatchObject({
      status: 1,
      stdout: `${SHARD_1}: 1 difference: config.json (1): config.tokenizer: "words" → "official"\n${SHARD_2}: same\n`,
    });
    expect(compare(before, after, '--outputs-only')).toMatchObject({ status: 0 });
    const bad = compare(before);
    expect(bad.status).toBe(2);
    expect(bad.stderr.split('\n')[0]).toBe('compare-run-outputs: give two folders: before and after');
  });
});
