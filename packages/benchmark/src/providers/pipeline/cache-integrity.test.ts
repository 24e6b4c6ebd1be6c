import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withDiskCache } from '@lme/search-core';
import { createHashingEmbedder } from '@lme/search-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAnyDataset } from '../../benchmarks/load-dataset.js';
import type { LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import { groupConfig } from '../../config/run-sections.js';
import { REPO_ROOT } from '../../testing/run-cli.js';
import { sampleConfig } from '../../testing/sample-run.js';
import { createPipelineProvider } from './pipeline-provider.js';

let question: LongMemEvalRecord;
let dir: string;

beforeAll(async () => {
  const { records } = await loadAnyDataset(join(REPO_ROOT, 'datasets/sample/longmemeval_s_sample.json.gz'), {
    duplicateSessions: 'keep',
  });
  question = records.find((record) => record.question_id === '6d550036')!;
  dir = await mkdtemp(join(tmpdir(), 'lme-cache-integrity-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Hybrid retrieval of one sample question through the disk cache: its ranking and progress note. */
async function hybridRun() {
  const embedder = withDiskCache(createHashingEmbedder(), { dir });
  const provider = createPipelineProvider(
    groupConfig(sampleConfig({ retriever: 'hybrid', granularity: 'turn' })),
    {
      embedder,
    },
  );
  try {
    const outcome = await provider.retrieve({ record: question });
    const ranking = outcome.ranking.slice(0, 50).map((document) => outcome.corpus.documents[document]!.id);
    return { ranking, progress: provider.progress?.() };
  } finally {
    await provider.close?.();
    await embedder.close();
  }
}

describe('a run over a corrupted embedding cache', () => {
  it('ranks as the uncorrupted run did and says the cache was corrupt', async () => {
    const clean = await hybridRun();
    const warm = await hybridRun();
    expect(warm.ranking).toEqual(clean.ranking);
    expect(warm.progress).toMatch(/cache hits 100%$/);

    // Flip bytes all over the vector part of every segment (the second half of each file).
    const root = join(dir, 'embeddings');
    for (const folder of await readdir(root)) {
      for (const name of await readdir(join(root, folder))) {
        const file = await readFile(join(root, folder, name));
        for (let at = Math.floor(file.length / 2); at < file.length; at += 97) file[at]! ^= 0x7f;
        await writeFile(join(root, folder, name), file);
      }
    }
    const corrupted = await hybridRun();
    expect(corrupted.ranking).toEqual(clean.ranking);
    expect(corrupted.progress).not.toMatch(/cache hits 100%/);
    expect(corrupted.progress).toMatch(/, \d+ corrupt cache segments set aside and re-embedded$/);
  });
});
