import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunConfigInput } from '../../config/run-config.js';
import { sampleConfig } from '../../testing/sample-run.js';
import { runBenchmark } from '../run-benchmark.js';
import { defaultRunId } from '../run-id.js';
import { ensureDirectory } from './ensure-directory.js';

const config = (overrides: RunConfigInput = {}) =>
  sampleConfig({ tokenizer: 'official', ...overrides }, 'lme-folder-');

describe('run folders', () => {
  it('refuses "." and ".." as run ids and writes nothing outside --out', async () => {
    for (const runId of ['.', '..']) {
      const base = config();
      // The runner resolves what it is given: the schema refuses them before anything is written.
      await expect(runBenchmark({ ...base, runId }, { argv: [] })).rejects.toThrow(
        /--run-id must not be "\." or "\.\."/,
      );
      expect(readdirSync(base.out)).toEqual([]);
      expect(existsSync(join(base.out, '..', 'config.json'))).toBe(false);
    }
    expect(() => sampleConfig({ runId: '..' })).toThrow(/--run-id must not be "\." or "\.\."/);
    expect(() => sampleConfig({ runId: 'a/b' })).toThrow(/--run-id must be a folder name/);
  });

  it('creates the folder exclusively: a second run of the same id fails unless --overwrite', async () => {
    const first = config({ runId: 'ci-gate' });
    await runBenchmark(first, { argv: [] });
    await expect(runBenchmark(first, { argv: [] })).rejects.toThrow(
      /Run folder .*ci-gate already exists: choose another --run-id, continue it with --resume .*, or replace its outputs with --overwrite\./,
    );
    const again = await runBenchmark({ ...first, overwrite: true }, { argv: [] });
    expect(again.summary.n).toBe(22);
    const stored = JSON.parse(readFileSync(join(again.dir, 'config.json'), 'utf8'));
    expect(stored.config.overwrite).toBeUndefined();
  });

  it('names the lock to delete when its process id is alive but may have been reused', async () => {
    const first = config({ runId: 'stale' });
    const { dir } = await runBenchmark(first, { argv: [] });
    // A lock left by a crash, whose process id now belongs to a live process (this one).
    writeFileSync(join(dir, '.lme-run.lock'), String(process.pid));
    await expect(runBenchmark({ ...first, overwrite: true }, { argv: [] })).rejects.toThrow(
      `Run folder ${dir} is in use by another run (process ${process.pid}); wait for it, or choose another --run-id. If no lme run is using it (after a crash the process id may have been reused), delete ${join(dir, '.lme-run.lock')}.`,
    );
  });

  it('lets only one of two simultaneous runs with the same id write', async () => {
    const shared = config({ runId: 'twice', overwrite: true });
    const results = await Promise.allSettled([
      runBenchmark(shared, { argv: [] }),
      runBenchmark(shared, { argv: [] }),
    ]);
    const rejected = results.filter((result) => result.status === 'rejected');
    expect(rejected).toHaveLength(1);
    expect(String((rejected[0] as PromiseRejectedResult).reason)).toMatch(/is in use by another run/);
    const lines = readFileSync(join(shared.out, 'twice', 'samples.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(lines).toHaveLength(22);
  });

  it('gives shards started in the same millisecond different default ids naming the shard', () => {
    const now = new Date('2026-11-22T01:02:03.456Z');
    const ids = ['1/4', '2/4', '1/4'].map((shard) => defaultRunId(config({ shard }), now));
    expect(ids[0]).toMatch(/^2026-11-22T01-02-03-456Z-bm25-session-sample-shard-1-of-4-[0-9a-f]{6}$/);
    expect(ids[1]).toContain('-shard-2-of-4-');
    expect(new Set(ids).size).toBe(3);
    expect(defaultRunId(config({ dataset: '/data/x/my file.json.gz' }), now)).not.toMatch(/[/ ]/);
  });

  it('names a run by its preset, then the dataset, so bm25-official and bm25 runs tell apart', () => {
    const now = new Date('2026-11-22T01:02:03.456Z');
    expect(defaultRunId(config({ preset: 'bm25-official' }), now)).toMatch(
      /^2026-11-22T01-02-03-456Z-bm25-official-sample-[0-9a-f]{6}$/,
    );
    expect(defaultRunId(config({ preset: 'bm25' }), now)).toMatch(/Z-bm25-sample-[0-9a-f]{6}$/);
    // A preset file by path: its name, never its folders.
    const fromFile = defaultRunId(config({ preset: '/home/me/my presets/fast one.yaml' }), now);
    expect(fromFile).toMatch(/Z-fast-one-sample-[0-9a-f]{6}$/);
    expect(fromFile).not.toMatch(/[/ ]/);
  });

  it('leaves no folder behind when the start fails, so the id can be used again', async () => {
    const base = config({ runId: 'bad-start' });
    const dataset = join(base.out, 'bad.json');
    writeFileSync(dataset, JSON.stringify([{ question_id: 'q1', question_type: 'multi-session' }]));
    await expect(runBenchmark({ ...base, dataset }, { argv: [] })).rejects.toThrow(/q1/);
    expect(existsSync(join(base.out, 'bad-start'))).toBe(false);
    await expect(
      runBenchmark({ ...base, readerModel: 'gpt-4o-mini' }, { argv: [], environment: {} }),
    ).rejects.toThrow(/No API key for the reader \(gpt-4o-mini\), judge/);
    expect(existsSync(join(base.out, 'bad-start'))).toBe(false);
    expect((await runBenchmark(base, { argv: [] })).summary.n).toBe(22);
  });

  it('records --label in config.json and as a column of both CSVs and the report', async () => {
    const { dir } = await runBenchmark(config({ runId: 'labelled', label: 'nightly, main' }), { argv: [] });
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).config.label).toBe('nightly, main');
    const summaryCsv = readFileSync(join(dir, 'summary.csv'), 'utf8').split('\n');
    expect(summaryCsv[0]).toBe('run_id,variant,question_type,metric,value,n,label,errata');
    expect(summaryCsv[1]).toMatch(/,"nightly, main",$/);
    const samplesCsv = readFileSync(join(dir, 'samples.csv'), 'utf8').split('\n');
    expect(samplesCsv[0]).toMatch(/,error,label,errata$/);
    expect(samplesCsv[1]).toMatch(/,"nightly, main",$/);
    expect(readFileSync(join(dir, 'report.md'), 'utf8').split('\n')[0]).toContain('labelled (nightly, main)');
  });
});

describe('--out', () => {
  it('fails in one sentence for a folder that cannot be created, instead of looping', () => {
    expect(() => ensureDirectory('/proc/nope', '--out')).toThrow(
      '--out /proc/nope is not a writable folder: cannot create /proc/nope (ENOENT).',
    );
  });

  it('fails for a path under a file', () => {
    const base = config();
    const file = join(base.out, 'file');
    writeFileSync(file, '');
    expect(() => ensureDirectory(join(file, 'child'), '--out')).toThrow(/is not a folder/);
    mkdirSync(join(base.out, 'ok'));
    expect(() => ensureDirectory(join(base.out, 'ok', 'a', 'b'), '--out')).not.toThrow();
  });
});
