import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readEmbeddingCacheStats, verifyEmbeddingCache } from '@lme/search-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeRuns } from '../analysis/merge-runs.js';
import { readRun } from '../analysis/read-run.js';
import type { Summary } from '../results/summary.js';
import type { RunManifest } from '../run/outputs/run-manifest.js';
import { REPO_ROOT, runCli } from '../testing/run-cli.js';
import { startCli } from '../testing/run-cli-async.js';
import { type StandInServer, startOpenAiStandIn } from '../testing/stand-in-servers.js';
import { withoutLatency } from '../testing/without-latency.js';

/*
 * docs/scale-out.md end to end on the committed sample: four shard processes started at once, each
 * taking its shard from the variable a Kubernetes Indexed Job sets, fill one empty embedding cache
 * (an OpenAI-compatible stand-in on loopback embeds); `lme merge` joins them; one unsharded run
 * afterwards reads every vector from that cache and equals the merged run.
 */

let root: string;
let cache: string;
let server: StandInServer;
/** Texts the embedding server was asked for, across all processes, with how many times. */
const embeddedTimes = new Map<string, number>();
let shardDirs: string[];
let merged: { status: number | null; stdout: string; stderr: string };
/** shard-1's files before its pod was retried, and the retry's output. */
let beforeRetry: Record<string, string>;
let retried: { status: number | null; stdout: string; stderr: string };
let warm: { status: number | null; stdout: string; stderr: string };

const folderFiles = (dir: string) =>
  Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')]));

const read = <T>(dir: string, file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as T;

const runArgs = (runId: string) => [
  'run',
  '--dataset',
  'sample',
  '--data-dir',
  join(REPO_ROOT, 'datasets'),
  '--retriever',
  'hybrid',
  '--embedder',
  'openai:test-embed',
  '--base-url',
  `${server.url}/v1`,
  '--cache-dir',
  cache,
  '--out',
  root,
  '--run-id',
  runId,
];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'lme-scale-out-'));
  cache = join(root, 'shared-cache');
  server = await startOpenAiStandIn({
    onEmbed: (inputs) => {
      for (const input of inputs) embeddedTimes.set(input, (embeddedTimes.get(input) ?? 0) + 1);
    },
  });
  const environment = { OPENAI_API_KEY: 'sk-test' };
  const shards = [0, 1, 2, 3].map((index) =>
    startCli([...runArgs(`shard-${index}`), '--shard-from-env', 'JOB_COMPLETION_INDEX/4'], {
      ...environment,
      JOB_COMPLETION_INDEX: String(index),
    }),
  );
  const results = await Promise.all(shards.map((shard) => shard.done));
  for (const result of results) expect(result.stderr).not.toMatch(/error|warning/i);
  expect(results.map((result) => result.status)).toEqual([0, 0, 0, 0]);
  shardDirs = [0, 1, 2, 3].map((index) => join(root, `shard-${index}`));
  // A pod retried after its shard completed runs the manifest's `lme run --resume "$dir"`.
  beforeRetry = folderFiles(shardDirs[1]!);
  retried = (await startCli(['run', '--resume', shardDirs[1]!], { ...environment, JOB_COMPLETION_INDEX: '1' })
    .done) as typeof retried;
  merged = runCli(['merge', ...shardDirs, '--out', join(root, 'merged')]);
  warm = (await startCli(runArgs('unsharded'), environment).done) as typeof warm;
}, 240_000);

afterAll(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('four shards from a job engine variable on one shared cache', () => {
  it('runs the shard the variable names, and records it as --shard does', () => {
    const shards = shardDirs.map((dir) => read<RunManifest>(dir, 'config.json'));
    expect(shards.map((manifest) => manifest.config.shard)).toEqual(['1/4', '2/4', '3/4', '4/4']);
    const questions = shardDirs.map((dir) => read<Summary>(dir, 'summary.json').n);
    expect(questions.reduce((sum, n) => sum + n, 0)).toBe(22);
  });

  it('leaves a complete shard as it was when its pod is retried (--resume), so the merge still joins it', () => {
    expect(retried.status).toBe(0);
    expect(retried.stderr).toMatch(/is already complete \(\d+ questions, none to retry\): nothing to do/);
    expect(folderFiles(shardDirs[1]!)).toEqual(beforeRetry);
  });

  it('merges into exactly the unsharded run: figures, rankings hash and fingerprint', () => {
    expect(merged.stderr).toBe('');
    expect(merged.status).toBe(0);
    expect(warm.status).toBe(0);
    const mergedDir = join(root, 'merged');
    const wholeDir = join(root, 'unsharded');
    const mergedSummary = read<Summary>(mergedDir, 'summary.json');
    const wholeSummary = read<Summary>(wholeDir, 'summary.json');
    expect(withoutLatency(mergedSummary.metrics)).toEqual(withoutLatency(wholeSummary.metrics));
    expect(mergedSummary.metrics.overall.metrics['session.recall_any@5']).toBeGreaterThan(0);
    const mergedManifest = read<RunManifest>(mergedDir, 'config.json');
    const wholeManifest = read<RunManifest>(wholeDir, 'config.json');
    expect(mergedManifest.fingerprint).toEqual(wholeManifest.fingerprint);
    expect(mergedManifest.fingerprint?.rankings).toMatch(/^[0-9a-f]{64}$/);
    // A shard's own setup hash covers its shard; the merged one is the unsharded run's.
    const shardSetup = read<RunManifest>(shardDirs[0]!, 'config.json').fingerprint!.setup;
    expect(shardSetup).not.toBe(wholeManifest.fingerprint!.setup);
    // The merged config.json keeps the documented contract (docs/schemas/config.schema.json).
    const ajv = new Ajv2020({ strict: true });
    addFormats.default(ajv);
    const validate = ajv.compile(
      JSON.parse(readFileSync(join(REPO_ROOT, 'docs/schemas/config.schema.json'), 'utf8')),
    );
    expect(validate(mergedManifest), JSON.stringify(validate.errors)).toBe(true);
  });

  it('leaves the cache whole: every vector written once, a text embedded twice only in a race it reports', async () => {
    const raced = shardDirs
      .map((dir) => read<RunManifest>(dir, 'config.json').provider_stats!)
      .reduce((sum, stats) => sum + (stats['cacheRaced'] as number), 0);
    const requests = [...embeddedTimes.values()].reduce((sum, times) => sum + times, 0);
    const verification = await verifyEmbeddingCache({ dir: cache });
    expect(verification.corruptSegments).toBe(0);
    const stats = await readEmbeddingCacheStats({ dir: cache });
    expect(stats.tempFiles + stats.invalidFiles + stats.corruptFiles).toBe(0);
    // Every embedding request ended as a vector on disk, or as a race the shard counted.
    expect(stats.vectors + raced).toBe(requests);
    // The warm unsharded run read every text from the cache the shards filled.
    const warmStats = read<RunManifest>(join(root, 'unsharded'), 'config.json').provider_stats!;
    expect(warmStats['embedded']).toBe(0);
    expect(warmStats['cacheHits']).toBeGreaterThan(1000);
  });

  it('refuses to merge a shard made with other code, in one sentence naming the code', () => {
    const changed = join(root, 'shard-3-other-code');
    cpSync(shardDirs[3]!, changed, { recursive: true });
    const manifest = read<RunManifest>(changed, 'config.json');
    writeFileSync(
      join(changed, 'config.json'),
      JSON.stringify({ ...manifest, fingerprint: { ...manifest.fingerprint, code: 'c0de'.repeat(16) } }),
    );
    // In-process (lme merge prints this sentence after `lme: `): one CLI spawn less in the suite.
    const runs = [...shardDirs.slice(0, 3), changed].map((dir) => readRun(dir));
    expect(() => mergeRuns(runs, { outDir: join(root, 'refused') })).toThrow(
      /^Cannot merge runs made with different code: shard-0 \(.*shard-0\) has [0-9a-f]{12} and shard-3 \(.*shard-3-other-code\) has c0dec0dec0de; make every shard with the same lme checkout and merge again\.$/,
    );
  });
});
