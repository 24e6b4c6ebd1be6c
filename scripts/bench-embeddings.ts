/**
 * Embedding throughput of the offline embedder (USE-Lite) on real LongMemEval S user turns,
 * cold (empty disk cache, workers starting) and warm (every text a cache hit).
 *
 *   pnpm tsx --conditions=source scripts/bench-embeddings.ts [n=2000] [--threads=N] [--batch-size=N] [--warm-run]
 *
 * With --warm-run it also times the full-S hybrid run end to end (`lme run --dataset s --preset
 * hybrid`) against the project's cache (.lme-cache or LME_CACHE_DIR), which must already hold
 * every S user turn (a first hybrid run fills it).
 *
 * Data: LME_DATA_DIR (default ../shared/datasets/longmemeval). Prints figures only.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import {
  createUseLiteEmbedder,
  readEmbeddingCacheStats,
  withDiskCache,
} from '../packages/search-core/src/embedding/index.js';

type Turn = { role: string; content: string };
type Question = { haystack_sessions: Turn[][] };

const CALL_SIZE = 256; // texts per embedDocuments call, about one question's user turns

function option(name: string): number | undefined {
  const flag = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  return flag ? Number(flag.split('=')[1]) : undefined;
}

function readUserTurns(limit: number): { turns: string[]; file: string; seconds: number } {
  const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const dataDir = process.env['LME_DATA_DIR'] ?? resolve(repoRoot, '../shared/datasets/longmemeval');
  const plain = join(dataDir, 'longmemeval_s_cleaned.json');
  const file = existsSync(plain) ? plain : `${plain}.gz`;
  const started = performance.now();
  const raw = readFileSync(file);
  const questions = JSON.parse((file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8')) as Question[];
  const seen = new Set<string>();
  const turns: string[] = [];
  outer: for (const question of questions) {
    for (const session of question.haystack_sessions) {
      for (const turn of session) {
        if (turn.role !== 'user' || seen.has(turn.content)) continue;
        seen.add(turn.content);
        turns.push(turn.content);
        if (turns.length >= limit) break outer;
      }
    }
  }
  return { turns, file, seconds: (performance.now() - started) / 1000 };
}

async function embedAll(embedder: ReturnType<typeof withDiskCache>, texts: string[]): Promise<number> {
  const started = performance.now();
  for (let start = 0; start < texts.length; start += CALL_SIZE) {
    await embedder.embedDocuments({ texts: texts.slice(start, start + CALL_SIZE) });
  }
  return (performance.now() - started) / 1000;
}

const n = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 2000);
const threads = option('threads');
const batchSize = option('batch-size');
const { turns, file, seconds: loadSeconds } = readUserTurns(n);
const averageChars = turns.reduce((sum, text) => sum + text.length, 0) / turns.length;
console.log(`data: ${file} (parsed in ${loadSeconds.toFixed(1)} s)`);
console.log(`texts: ${turns.length} distinct user turns, ${averageChars.toFixed(0)} chars on average`);
console.log(`cpus: ${availableParallelism()}`);

const cacheDir = await mkdtemp(join(tmpdir(), 'lme-bench-embeddings-'));
try {
  const cold = withDiskCache(createUseLiteEmbedder({ threads, batchSize }), { dir: cacheDir });
  const cpuBefore = process.cpuUsage();
  const coldSeconds = await embedAll(cold, turns);
  const cpu = process.cpuUsage(cpuBefore);
  await cold.close();
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  console.log(
    `cold: ${(turns.length / coldSeconds).toFixed(1)} texts/s (${coldSeconds.toFixed(1)} s, threads ${
      threads ?? Math.min(availableParallelism(), 4)
    }, batch ${batchSize ?? 16}, ${(turns.length / cpuSeconds).toFixed(1)} texts per CPU-second, misses ${
      cold.stats().misses
    })`,
  );

  const warm = withDiskCache(createUseLiteEmbedder({ threads, batchSize }), { dir: cacheDir });
  const warmSeconds = await embedAll(warm, turns);
  const { hits, misses } = warm.stats();
  await warm.close();
  console.log(
    `warm: ${(turns.length / warmSeconds).toFixed(0)} texts/s (${(warmSeconds * 1000).toFixed(0)} ms, hit rate ${(
      (100 * hits) / (hits + misses)
    ).toFixed(1)}%)`,
  );
  const summary = await readEmbeddingCacheStats({ dir: cacheDir });
  console.log(
    `cache: ${summary.vectors} vectors, ${(summary.bytes / 1e6).toFixed(1)} MB in ${summary.embedders
      .map((entry) => `${entry.segments} segment(s) of ${entry.embedderId}`)
      .join(', ')}`,
  );
} finally {
  await rm(cacheDir, { recursive: true, force: true });
}

if (process.argv.includes('--warm-run')) {
  const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const out = await mkdtemp(join(tmpdir(), 'lme-bench-warm-'));
  const started = performance.now();
  const result = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--conditions=source',
      'packages/benchmark/src/cli/main.ts',
      'run',
      '--dataset',
      's',
      '--preset',
      'hybrid',
      '--out',
      out,
      '--run-id',
      'warm',
    ],
    { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, LME_DATA_DIR: dirname(file) } },
  );
  const wall = (performance.now() - started) / 1000;
  const hitLine =
    result.stderr
      .split('\n')
      .filter((line) => line.includes('cache hits'))
      .at(-1) ?? '';
  console.log(
    `warm full-S hybrid run: ${wall.toFixed(1)} s wall, exit ${result.status}; last progress: ${hitLine.trim()}`,
  );
  await rm(out, { recursive: true, force: true });
}
