import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunConfigInput } from '../../config/run-config.js';
import { sampleConfig } from '../../testing/sample-run.js';
import { runBenchmark } from '../run-benchmark.js';
import { codeSha256, rankingsSha256 } from './run-fingerprint.js';
import type { RunManifest } from './run-manifest.js';

const config = (overrides: RunConfigInput = {}) => sampleConfig(overrides, 'lme-fingerprint-');
const fingerprintOf = async (overrides: RunConfigInput) => {
  const result = await runBenchmark(config(overrides), { argv: [] });
  const manifest = JSON.parse(readFileSync(join(result.dir, 'config.json'), 'utf8')) as RunManifest;
  return manifest.fingerprint!;
};

describe('a run records what shaped its rankings (config.json fingerprint)', () => {
  it('records config, code, dataset and rankings hashes, the same for the same run anywhere', async () => {
    const first = await fingerprintOf({ runId: 'a' });
    for (const key of ['setup', 'config', 'code', 'dataset', 'rankings'] as const) {
      expect(first[key]).toMatch(/^[0-9a-f]{64}$/);
    }
    // Another folder, id, concurrency and cache: nothing that shapes a ranking changed.
    const again = await fingerprintOf({ runId: 'b', concurrency: 3, cache: false, saveHits: 50 });
    expect(again).toEqual(first);
  });

  it('changes setup and rankings when a setting that changes rankings changes', async () => {
    const base = await fingerprintOf({ retriever: 'bm25', tokenizer: 'words' });
    const other = await fingerprintOf({ retriever: 'bm25', tokenizer: 'official' });
    expect(other.config).not.toBe(base.config);
    expect(other.setup).not.toBe(base.setup);
    expect(other.code).toBe(base.code);
    expect(other.rankings).not.toBe(base.rankings);
  });

  it('hashes the rankings by hit order, whatever order the questions finished in', () => {
    const hit = (id: string, rank: number) => ({ id, session_id: id, rank, score: 1, routes: {} });
    const a = { question_id: 'q1', hits: [hit('s1', 1), hit('s2', 2)] };
    const b = { question_id: 'q2', hits: [hit('s3', 1)] };
    expect(rankingsSha256([a, b])).toBe(rankingsSha256([b, a]));
    const swapped = { question_id: 'q1', hits: [hit('s2', 1), hit('s1', 2)] };
    expect(rankingsSha256([swapped, b])).not.toBe(rankingsSha256([a, b]));
  });

  const scratch = mkdtempSync(join(tmpdir(), 'lme-code-hash-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('hashes the code: a source file or the lockfile edited changes it, a test file does not', () => {
    const packages = join(scratch, 'packages');
    mkdirSync(join(packages, 'core/src/ranking'), { recursive: true });
    writeFileSync(join(packages, 'core/src/ranking/score.ts'), 'export const k1 = 1.2;\n');
    writeFileSync(join(packages, 'core/src/ranking/score.test.ts'), 'test\n');
    writeFileSync(join(scratch, 'pnpm-lock.yaml'), 'onnxruntime-node: 1.30.0\n');
    const before = codeSha256(packages);
    writeFileSync(join(packages, 'core/src/ranking/score.test.ts'), 'another test\n');
    expect(codeSha256(packages)).toBe(before);
    // A hidden folder beside the packages (a test's scratch copy of one) is not lme's code.
    mkdirSync(join(packages, '.scratch-1/src'), { recursive: true });
    writeFileSync(join(packages, '.scratch-1/src/copy.ts'), 'export const copy = 1;\n');
    expect(codeSha256(packages)).toBe(before);
    writeFileSync(join(packages, 'core/src/ranking/score.ts'), 'export const k1 = 1.5;\n');
    const edited = codeSha256(packages);
    expect(edited).not.toBe(before);
    writeFileSync(join(scratch, 'pnpm-lock.yaml'), 'onnxruntime-node: 1.31.0\n');
    expect(codeSha256(packages)).not.toBe(edited);
  });
});
