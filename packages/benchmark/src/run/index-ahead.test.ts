import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createHashingEmbedder, startFakeQdrant } from '@lme/search-core/testing';
import { describe, expect, it } from 'vitest';
import type { LongMemEvalRecord } from '../benchmarks/longmemeval-record.js';
import type { RunConfigInput } from '../config/run-config.js';
import { groupConfig } from '../config/run-sections.js';
import { createPipelineProvider } from '../providers/pipeline/pipeline-provider.js';
import type { Provider } from '../providers/provider.js';
import { REPO_ROOT } from '../testing/run-cli.js';
import { sampleConfig, samplesOf } from '../testing/sample-run.js';
import { runBenchmark } from './run-benchmark.js';

/** The committed sample's records, in file order. */
const sampleRecords = () =>
  JSON.parse(
    gunzipSync(readFileSync(join(REPO_ROOT, 'datasets/sample/longmemeval_s_sample.json.gz'))).toString(
      'utf8',
    ),
  ) as LongMemEvalRecord[];

const config = (overrides: RunConfigInput = {}) => sampleConfig(overrides, 'lme-ahead-');

describe('the next question indexed ahead', () => {
  it('is asked of the provider while the question before is answered, and ranks as it would alone', async () => {
    const base = config({ runId: 'ahead' });
    const inner = createPipelineProvider(groupConfig(base));
    const events: string[] = [];
    const total = sampleRecords().length;
    // Each question but the last is answered only once the run has asked for the next one to be
    // prepared: no clock decides whether the run got to the next question in time.
    let prepared = 0;
    let retrieved = 0;
    let wake: (() => void) | undefined;
    const provider: Provider = {
      id: 'pipeline',
      prepare(options) {
        events.push(`prepare ${options.record.question_id}`);
        inner.prepare!(options);
        prepared++;
        wake?.();
      },
      async retrieve(options) {
        events.push(`retrieve ${options.record.question_id}`);
        const position = ++retrieved;
        if (position < total) {
          while (prepared < position) await new Promise<void>((resolve) => (wake = resolve));
        }
        return inner.retrieve(options);
      },
      close: () => inner.close!(),
    };
    const ahead = samplesOf((await runBenchmark(base, { argv: [], provider })).dir);
    const alone = samplesOf((await runBenchmark(config({ runId: 'alone' }), { argv: [] })).dir);
    const ids = ahead.map((sample) => sample.question_id);
    // Every question but the first is prepared, just after the one before it started.
    expect(events).toEqual(
      ids.flatMap((id, index) => (index === 0 ? [`retrieve ${id}`] : [`prepare ${id}`, `retrieve ${id}`])),
    );
    expect(ahead.map((sample) => sample.hits)).toEqual(alone.map((sample) => sample.hits));
  });
});

describe('a pipeline provider asked to prepare', () => {
  const records = sampleRecords();
  const qdrantConfig = () =>
    sampleConfig({ retriever: 'hybrid', vectorStore: 'qdrant', cache: false }, 'lme-ahead-q-');

  it('ranks a prepared question as one it was not asked to prepare', async () => {
    const fake = await startFakeQdrant();
    try {
      const resources = { embedder: createHashingEmbedder({ dimensions: 32 }) };
      const plain = createPipelineProvider(groupConfig(qdrantConfig()), resources, { QDRANT_URL: fake.url });
      const expected = await plain.retrieve({ record: records[1]! });
      await plain.close?.();

      const provider = createPipelineProvider(groupConfig(qdrantConfig()), resources, {
        QDRANT_URL: fake.url,
      });
      provider.prepare!({ record: records[1]! });
      const first = await provider.retrieve({ record: records[0]! });
      const second = await provider.retrieve({ record: records[1]! });
      expect(second.hits).toEqual(expected.hits);
      expect(first.hits).not.toEqual(second.hits);
      await provider.close?.();
    } finally {
      await fake.close();
    }
  });

  it('takes a prepared haystack out of the store at close when its question never ran', async () => {
    const fake = await startFakeQdrant();
    try {
      const provider = createPipelineProvider(
        groupConfig(qdrantConfig()),
        { embedder: createHashingEmbedder({ dimensions: 32 }) },
        { QDRANT_URL: fake.url },
      );
      await provider.retrieve({ record: records[0]! });
      provider.prepare!({ record: records[1]! });
      await provider.close?.();
      for (const collection of fake.collections.values()) expect(collection.points.size).toBe(0);
      expect(fake.urls.some((url) => url.includes('/points/delete'))).toBe(true);
    } finally {
      await fake.close();
    }
  });
});
