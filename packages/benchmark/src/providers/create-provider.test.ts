import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchmarkNamed } from '../benchmarks/benchmark-registry.js';
import { loadAnyDataset } from '../benchmarks/load-dataset.js';
import { parseRunSections } from '../config/run-sections.js';
import { REPO_ROOT } from '../testing/run-cli.js';
import { createProvider } from './create-provider.js';

describe('createProvider', () => {
  it("keys the documents by the run's benchmark, found once, not by each record's question type", async () => {
    const { records } = await loadAnyDataset(join(REPO_ROOT, 'datasets/sample/longmemeval_s_sample.json.gz'));
    const record = records[0]!;
    for (const provider of ['full-context', 'pipeline']) {
      const sections = parseRunSections({ dataset: 'sample', provider, retriever: 'bm25' });
      // No benchmark given: the record's (LongMemEval, whose official gold keys its sessions).
      const own = createProvider(sections, 'run');
      expect((await own.retrieve({ record })).corpus.officialRule, provider).toBeDefined();
      await own.close?.();
      // The run's benchmark (LoCoMo names no official gold), whatever the record's question type says.
      const run = createProvider(sections, 'run', undefined, process.env, benchmarkNamed('locomo'));
      expect((await run.retrieve({ record })).corpus.officialRule, provider).toBeUndefined();
      await run.close?.();
    }
  });
});
