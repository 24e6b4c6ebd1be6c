import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../results/sample.js';
import { rankingsSha256 } from '../run/outputs/run-fingerprint.js';
import { makeSampleRun } from '../testing/make-sample-run.js';
import { withoutLatency } from '../testing/without-latency.js';
import { mergeRuns, writeMergedRun } from './merge-runs.js';
import { type Run, readRun } from './read-run.js';

let root: string;
let whole: Run;

/** A shard run folder holding `samples` under the whole run's config (with some keys changed). */
function shard(
  name: string,
  samples: readonly Sample[],
  config: Record<string, unknown> = {},
  fields: Record<string, unknown> = {},
): Run {
  const dir = join(root, name);
  mkdirSync(dir);
  const manifest = {
    ...whole.config,
    ...fields,
    run_id: name,
    config: { ...whole.config.config, runId: name, ...config },
  };
  // A shard records the rankings of its own questions, as a real --shard run does.
  if (manifest.fingerprint)
    manifest.fingerprint = { ...manifest.fingerprint, rankings: rankingsSha256(samples) };
  writeFileSync(join(dir, 'config.json'), JSON.stringify(manifest));
  writeFileSync(join(dir, 'samples.jsonl'), samples.map((sample) => `${JSON.stringify(sample)}\n`).join(''));
  return readRun(dir);
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'lme-merge-'));
  whole = readRun(await makeSampleRun(root, 'whole', { tokenizer: 'official' }));
});

describe('mergeRuns', () => {
  it('merges the two shard runs of the sample (--shard 1/2, 2/2) into the unsharded summary', async () => {
    const shards = await Promise.all(
      ['1/2', '2/2'].map(async (shard, index) =>
        readRun(await makeSampleRun(root, `shard-${index + 1}`, { tokenizer: 'official', shard })),
      ),
    );
    expect(shards.map((run) => run.samples.length)).toEqual([11, 11]);
    const merged = mergeRuns(shards, { outDir: join(root, 'from-shards') });
    expect(merged.warnings).toEqual([]);
    expect(merged.manifest.config.shard).toBeUndefined();
    // The fingerprint the unsharded run recorded: same settings, code, dataset and rankings.
    expect(merged.manifest.fingerprint).toEqual(whole.config.fingerprint);
    expect(merged.manifest.merged_from.map((from) => from.setup)).toEqual(
      shards.map((run) => run.config.fingerprint!.setup),
    );
    const { summary } = writeMergedRun(merged);
    // Latency percentiles come from each shard's own timings; every other figure must be equal.
    expect({ ...summary, metrics: withoutLatency(summary.metrics) }).toEqual({
      ...whole.summary,
      metrics: withoutLatency(whole.summary!.metrics),
      run_id: 'from-shards',
    });
  });

  it('merges two halves of a real run into exactly the whole run', () => {
    const even = whole.samples.filter((_, index) => index % 2 === 0);
    const odd = whole.samples.filter((_, index) => index % 2 === 1).reverse();
    const merged = mergeRuns([shard('odd', odd, { concurrency: 4 }), shard('even', even)], {
      outDir: join(root, 'merged'),
    });
    expect(merged.warnings).toEqual([]);
    expect(merged.samples.map((sample) => sample.question_id)).toEqual(
      whole.samples.map((sample) => sample.question_id),
    );
    const { summary } = writeMergedRun(merged);
    expect(summary).toEqual({ ...whole.summary, run_id: 'merged' });

    const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');
    const mergedDir = join(root, 'merged');
    expect(read(mergedDir, 'samples.jsonl')).toBe(read(whole.dir, 'samples.jsonl'));
    expect(read(mergedDir, 'samples.csv')).toBe(read(whole.dir, 'samples.csv'));
    expect(read(mergedDir, 'summary.csv')).toBe(
      read(whole.dir, 'summary.csv').replace(/^whole,/gm, 'merged,'),
    );
    const config = JSON.parse(read(mergedDir, 'config.json'));
    expect(config.run_id).toBe('merged');
    expect(config.merged_from.map((from: { run_id: string }) => from.run_id)).toEqual(['odd', 'even']);
    expect(() => writeMergedRun(merged)).toThrow(/already holds samples\.jsonl/);
  });

  it('is not blocked by a merge killed on the way, and removes the temporary files it left', () => {
    const even = whole.samples.filter((_, index) => index % 2 === 0);
    const odd = whole.samples.filter((_, index) => index % 2 === 1);
    const out = join(root, 'merged-after-kill');
    mkdirSync(out);
    // What a merge killed mid-write leaves: an empty samples.jsonl, a temporary file, a cut summary.
    writeFileSync(join(out, 'samples.jsonl'), '');
    writeFileSync(join(out, '.summary.json.lme-tmp-4242-0badc0de'), '{"run_id": "merg');
    writeFileSync(join(out, 'summary.csv'), 'run_id,variant');
    const merged = mergeRuns([shard('odd-k', odd), shard('even-k', even)], { outDir: out });
    writeMergedRun(merged);
    expect(readdirSync(out).filter((name) => name.includes('lme-tmp'))).toEqual([]);
    expect(readFileSync(join(out, 'samples.jsonl'), 'utf8')).toBe(
      readFileSync(join(whole.dir, 'samples.jsonl'), 'utf8'),
    );
  });

  it('keeps a question both runs hold with the same result once, latencies aside', () => {
    const first = whole.samples.slice(0, 12);
    const second = whole.samples
      .slice(10)
      .map((sample) => ({ ...sample, latency_ms: { index: 9, retrieve: 9 } }));
    const merged = mergeRuns([shard('first', first), shard('second', second)], { outDir: join(root, 'x') });
    expect(merged.samples).toHaveLength(22);
    expect(withoutLatency(writeMergedRun(merged).summary.metrics)).toEqual(
      withoutLatency(whole.summary!.metrics),
    );
  });

  it('refuses a question with different results in two runs', () => {
    const changed = whole.samples
      .slice(0, 2)
      .map((sample) => ({ ...sample, metrics: { ...sample.metrics, x: 1 } }));
    const id = whole.samples[0]!.question_id;
    expect(() =>
      mergeRuns([shard('a1', whole.samples.slice(0, 5)), shard('a2', changed)], { outDir: join(root, 'y') }),
    ).toThrow(
      new RegExp(`^Question ${id} is in run a1 .* and run a2 .* with different results \\(metrics\\)\\.$`),
    );
  });

  it('refuses runs whose configs differ in result-affecting keys, listing them', () => {
    expect(() =>
      mergeRuns(
        [
          shard('b1', whole.samples.slice(0, 5)),
          shard('b2', whole.samples.slice(5), { tokenizer: 'words', granularity: 'turn', out: 'elsewhere' }),
        ],
        { outDir: join(root, 'z') },
      ),
    ).toThrow(
      'Cannot merge runs made with different settings: tokenizer (b1: official, b2: words); granularity (b1: session, b2: turn).',
    );
  });

  it('orders runs that record no positions by question id, with a warning', () => {
    const unpositioned = whole.samples.map(({ position: _position, ...rest }) => rest as Sample);
    const merged = mergeRuns([shard('c1', unpositioned.slice(0, 9)), shard('c2', unpositioned.slice(9))], {
      outDir: join(root, 'w'),
    });
    expect(merged.warnings).toEqual([expect.stringMatching(/ordered by question id/)]);
    const expected = whole.summary!.metrics.overall.metrics;
    const { summary } = writeMergedRun(merged);
    expect(Object.keys(summary.metrics.overall.metrics)).toEqual(Object.keys(expected));
    for (const [metric, value] of Object.entries(summary.metrics.overall.metrics)) {
      expect(value).toBeCloseTo(expected[metric]!, 12);
    }
  });

  describe('shard runs', () => {
    /** The samples of shard `i/n`: dataset positions p with p % n === i - 1. */
    const ofShard = (spec: string) => {
      const [index, count] = spec.split('/').map(Number) as [number, number];
      return whole.samples.filter((sample) => sample.position % count === index - 1);
    };
    const shardRun = (name: string, spec: string, fields: Record<string, unknown> = {}) =>
      shard(name, ofShard(spec), { shard: spec }, fields);

    it('refuses shards of different counts (1/2 with 1/3)', () => {
      const runs = [shardRun('half-1', '1/2'), shardRun('third-1', '1/3')];
      expect(() => mergeRuns(runs, { outDir: join(root, 's1') })).toThrow(
        /^Cannot merge shards of different counts: half-1 \(.*\) is shard 1\/2 and third-1 \(.*\) is shard 1\/3\.$/,
      );
    });

    it('refuses a missing shard unless allowPartial, then warns', () => {
      const runs = [shardRun('quarter-1', '1/4'), shardRun('quarter-3', '3/4')];
      expect(() => mergeRuns(runs, { outDir: join(root, 's2') })).toThrow(
        'Cannot merge an incomplete set of shards: 2/4, 4/4 are missing (given 1/4, 3/4); add them, or pass --allow-partial to merge part of the dataset.',
      );
      const partial = mergeRuns(runs, { outDir: join(root, 's2'), allowPartial: true });
      expect(partial.samples).toHaveLength(ofShard('1/4').length + ofShard('3/4').length);
      expect(partial.warnings).toEqual([
        'Shards 2/4, 4/4 are missing (--allow-partial): the merged run holds only shards 1/4, 3/4 of the dataset.',
      ]);
    });

    it('refuses the same shard twice, and a run that is not a shard among shards', () => {
      expect(() =>
        mergeRuns([shardRun('twice-a', '1/2'), shardRun('twice-b', '1/2'), shardRun('twice-c', '2/2')], {
          outDir: join(root, 's3'),
        }),
      ).toThrow(
        /^Cannot merge shard 1\/2 twice: runs twice-a \(.*\) and twice-b \(.*\) are both that shard\.$/,
      );
      expect(() =>
        mergeRuns([shardRun('lone-1', '1/2'), shard('unsharded', ofShard('2/2'))], {
          outDir: join(root, 's4'),
        }),
      ).toThrow(
        /^Cannot merge run unsharded \(.*\), which is not a shard, with shard runs \(lone-1 \(.*\) is shard 1\/2\)\.$/,
      );
    });

    it('refuses shards of different datasets by SHA-256', () => {
      const other = { dataset: { ...whole.config.dataset, sha256: 'f'.repeat(64) } };
      expect(() =>
        mergeRuns([shardRun('data-1', '1/2'), shardRun('data-2', '2/2', other)], {
          outDir: join(root, 's5'),
        }),
      ).toThrow(
        /^Cannot merge runs made with different dataset: dataset.sha256 \(data-1: \w{64}, data-2: f{64}\)\.$/,
      );
    });

    it('refuses unfinished shards (no text hash yet) whose dataset files differ', () => {
      const unfinished = (fileSha256: string) => ({
        dataset: { ...whole.config.dataset, sha256: null, file_sha256: fileSha256 },
      });
      expect(() =>
        mergeRuns(
          [
            shardRun('file-1', '1/2', unfinished('a'.repeat(64))),
            shardRun('file-2', '2/2', unfinished('b'.repeat(64))),
          ],
          {
            outDir: join(root, 's6'),
          },
        ),
      ).toThrow(
        `Cannot merge runs made with different dataset: dataset.file_sha256 (file-1: ${'a'.repeat(64)}, file-2: ${'b'.repeat(64)}).`,
      );
      const same = mergeRuns(
        [
          shardRun('same-1', '1/2', unfinished('c'.repeat(64))),
          shardRun('same-2', '2/2', unfinished('c'.repeat(64))),
        ],
        { outDir: join(root, 's7') },
      );
      expect(same.samples).toHaveLength(whole.samples.length);
    });

    describe('setup fingerprints', () => {
      const fingerprint = () => whole.config.fingerprint!;
      const withFingerprint = (changes: Record<string, unknown>) => ({
        fingerprint: { ...fingerprint(), ...changes },
      });
      const onCpu = (family: string) => ({
        provider_stats: {
          embedderIdentity: `hf:Xenova/bge-small-en-v1.5@q8#sha256:ab#calls:one-text#cpu:${family}`,
        },
      });

      it('refuses shards made with different code, naming the code', () => {
        const runs = [
          shardRun('code-1', '1/2'),
          shardRun('code-2', '2/2', withFingerprint({ code: 'e'.repeat(64) })),
        ];
        expect(() => mergeRuns(runs, { outDir: join(root, 'f1') })).toThrow(
          /^Cannot merge runs made with different code: code-1 \(.*\) has [0-9a-f]{12} and code-2 \(.*\) has eeeeeeeeeeee; make every shard with the same lme checkout and merge again\.$/,
        );
      });

      it('refuses shards made with different model files, naming the models', () => {
        const models = (sha: string) => ({
          'Xenova/bge-small-en-v1.5': { model: sha, tokenizer: 'b'.repeat(64) },
        });
        const runs = [
          shardRun('model-1', '1/2', withFingerprint({ models: models('a'.repeat(64)) })),
          shardRun('model-2', '2/2', withFingerprint({ models: models('c'.repeat(64)) })),
        ];
        expect(() => mergeRuns(runs, { outDir: join(root, 'f2') })).toThrow(
          /^Cannot merge runs made with different models: model-1 \(.*\) has Xenova\/bge-small-en-v1\.5 aaaaaaaaaaaa and model-2 \(.*\) has Xenova\/bge-small-en-v1\.5 cccccccccccc; /,
        );
      });

      it('merges shards embedded on CPUs with different int8 kernels only when allowed, and records them', () => {
        const runs = [
          shardRun('cpu-1', '1/2', onCpu('x64-avx2')),
          shardRun('cpu-2', '2/2', onCpu('x64-avx512vnni')),
        ];
        expect(() => mergeRuns(runs, { outDir: join(root, 'f3') })).toThrow(
          'Cannot merge runs whose int8 embeddings were made on CPUs with different kernels (cpu-1: x64-avx2, cpu-2: x64-avx512vnni), which round the last digits of a vector differently; rerun the shards on one kind of machine, or pass --allow-mixed-cpus to merge them anyway (recorded in config.json).',
        );
        const merged = mergeRuns(runs, { outDir: join(root, 'f3'), allowMixedCpus: true });
        expect(merged.manifest.merged_across_cpus).toEqual({
          'cpu-1': 'x64-avx2',
          'cpu-2': 'x64-avx512vnni',
        });
        expect(merged.warnings).toEqual([
          expect.stringMatching(/^Merging runs embedded on CPUs with different int8 kernels/),
        ]);
        const same = mergeRuns(
          [shardRun('cpu-3', '1/2', onCpu('x64-avx2')), shardRun('cpu-4', '2/2', onCpu('x64-avx2'))],
          {
            outDir: join(root, 'f4'),
          },
        );
        expect(same.manifest.merged_across_cpus).toBeUndefined();
      });

      it('warns that a shard with no fingerprint is not checked', () => {
        const runs = [shardRun('print-1', '1/2'), shardRun('print-2', '2/2', { fingerprint: undefined })];
        const merged = mergeRuns(runs, { outDir: join(root, 'f5') });
        expect(merged.warnings).toEqual([
          expect.stringMatching(
            /^Run print-2 \(.*\) records no setup fingerprint \(it did not finish, or predates fingerprints\)/,
          ),
        ]);
        expect(merged.manifest.fingerprint).toEqual(fingerprint());
      });
    });
  });
});
