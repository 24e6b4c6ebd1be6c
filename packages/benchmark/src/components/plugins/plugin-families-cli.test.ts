import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeSha256 } from '../../run/outputs/run-fingerprint.js';
import { REPO_ROOT, runCli } from '../../testing/run-cli.js';

/**
 * `lme run --plugin <file>` with the example plugins of an embedder family, a reranker family and
 * a benchmark (examples/), each copied to a folder outside the repository and run there: the
 * component runs (its name in config.json or summary.json, its rankings in samples.jsonl), the
 * plugin is in the code hash, its names are offered in "did you mean" and its options warned about.
 * A broken plugin of each kind is refused in plugin-cli.test.ts.
 */

const EXAMPLES = {
  embedder: 'char-ngram-embedder-plugin.mjs',
  reranker: 'coverage-reranker-plugin.mjs',
  benchmark: 'tiny-recall-benchmark-plugin.mjs',
} as const;

let dir: string;
const out = () => join(dir, 'out');
const plugin = (kind: keyof typeof EXAMPLES) => join(dir, EXAMPLES[kind]);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lme-plugin-families-'));
  for (const name of [...Object.values(EXAMPLES), 'tiny-recall.json'])
    copyFileSync(join(REPO_ROOT, 'examples', name), join(dir, name));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const run = (kind: keyof typeof EXAMPLES, ...args: string[]) =>
  runCli(['run', '--plugin', plugin(kind), ...args]);
const read = (runId: string, file: string) => readFileSync(join(out(), runId, file), 'utf8');
const configOf = (runId: string) => JSON.parse(read(runId, 'config.json'));
const summaryOf = (runId: string) => JSON.parse(read(runId, 'summary.json'));
const samplesOf = (runId: string) =>
  read(runId, 'samples.jsonl')
    .trim()
    .split('\n')
    .map(
      (line) =>
        JSON.parse(line) as {
          hits: { rank: number; score: number; routes: Record<string, { rank: number }> }[];
        },
    );

describe('lme run --plugin with an embedder family, a reranker family and a benchmark', () => {
  it("embeds with the plugin's family: its option reaches the vectors and the plugin is in the code hash", () => {
    for (const [runId, dims] of [
      ['ngram', '4096'],
      ['ngram-narrow', '16'],
    ] as const) {
      const result = run(
        'embedder',
        ...['-d', 'sample', '--retriever', 'dense', '--embedder', 'ngram:3', '--ngram-dims', dims],
        ...['--limit', '6', '--out', out(), '--run-id', runId],
      );
      expect(result.stderr).not.toMatch(/error|no effect/i);
      expect(result.status).toBe(0);
      expect(configOf(runId).config).toMatchObject({
        embedder: 'ngram:3',
        ngramDims: Number(dims),
        plugins: [plugin('embedder')],
      });
    }
    // Dense rankings from the plugin's vectors: good with 4096 buckets, changed with 16.
    expect(
      samplesOf('ngram').every((sample) => sample.hits.length > 0 && 'dense' in sample.hits[0]!.routes),
    ).toBe(true);
    const recall = (runId: string) => summaryOf(runId).metrics.overall.metrics['session.recall_any@5'];
    expect(recall('ngram')).toBeGreaterThan(0.5);
    expect(summaryOf('ngram-narrow').metrics.overall.metrics['session.ndcg_any@5']).not.toBe(
      summaryOf('ngram').metrics.overall.metrics['session.ndcg_any@5'],
    );
  }, 480_000);

  it("reranks with the plugin's family, which shares --rerank-depth, and is in the code hash", () => {
    const result = run(
      'reranker',
      ...['-d', 'sample', '--preset', 'bm25', '--reranker', 'coverage:4', '--rerank-depth', '10'],
      ...['--limit', '6', '--out', out(), '--run-id', 'coverage'],
    );
    expect(result.stderr).not.toMatch(/error|no effect/i);
    expect(result.status).toBe(0);
    const stored = configOf('coverage');
    expect(stored.config).toMatchObject({ reranker: 'coverage:4', rerankDepth: 10 });
    const hits = samplesOf('coverage').flatMap((sample) => sample.hits.slice(0, 10));
    // Its scores are shares of the question's words, and it moved hits away from BM25's order.
    expect(hits.every((hit) => 'rerank_input' in hit.routes && hit.score >= 0 && hit.score <= 1)).toBe(true);
    expect(hits.some((hit) => hit.routes.bm25!.rank !== hit.rank)).toBe(true);
    // The plugin's SHA-256 joins lme's sources' in the code hash (this process loaded no plugin).
    expect(stored.setup.code).not.toBe(codeSha256());
  }, 240_000);

  it("runs the plugin's benchmark on its own dataset, named by the plugin, with its published setting", () => {
    const result = run(
      'benchmark',
      ...['-d', 'tiny-recall', '--preset', 'bm25', '--granularity', 'turn'],
      ...['--out', out(), '--run-id', 'tiny'],
    );
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.status).toBe(0);
    const summary = summaryOf('tiny');
    expect(summary.metrics.overall.n).toBe(7);
    expect(Object.keys(summary.metrics.by_type)).toEqual(['tiny-fact', 'tiny-update']);
    expect(summary.metrics.overall.metrics['turn.recall_any@5']).toBeGreaterThan(0.5);
    expect(configOf('tiny').config.benchmarkDefaults).toEqual({
      benchmark: 'tiny-recall',
      keys: ['convention', 'judge', 'readerPrompt'],
    });
    expect(configOf('tiny').config).toMatchObject({ judge: 'tiny-contains', readerPrompt: 'tiny-plain' });
  }, 240_000);

  it('offers plugin names in "did you mean" and warns about plugin options like any other', () => {
    const all = Object.keys(EXAMPLES).flatMap((kind) => ['--plugin', plugin(kind as keyof typeof EXAMPLES)]);
    const dry = (...args: string[]) => runCli(['run', ...all, ...args, '--dry-run']);
    expect(dry('-d', 'sample', '--retriever', 'dense', '--embedder', 'ngarm:3').stderr).toContain(
      'did you mean "ngram:3"?',
    );
    expect(dry('-d', 'sample', '--preset', 'bm25', '--reranker', 'coverag:4').stderr).toContain(
      'did you mean "coverage:4"?',
    );
    expect(dry('-d', 'tiny-recal', '--preset', 'bm25').stderr).toContain('did you mean tiny-recall?');
    expect(dry('-d', 'sample', '--preset', 'bm25', '--ngram-dims', '32').stderr).toContain(
      '--ngram-dims has no effect without --embedder ngram:<n> in a pipeline that embeds.',
    );
  }, 240_000);
});
