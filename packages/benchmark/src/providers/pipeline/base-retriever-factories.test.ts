import { join } from 'node:path';
import { createHashingEmbedder } from '@lme/search-core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAnyDataset } from '../../benchmarks/load-dataset.js';
import type { LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import { BASE_RETRIEVERS, type BaseRetrieverName } from '../../config/base-retrievers.js';
import { REPO_ROOT } from '../../testing/run-cli.js';
import { sampleConfig } from '../../testing/sample-run.js';
import { BASE_RETRIEVER_FACTORIES } from './base-retriever-factories.js';
import { createPipelineProvider } from './pipeline-provider.js';

let records: LongMemEvalRecord[];
beforeAll(async () => {
  ({ records } = await loadAnyDataset(join(REPO_ROOT, 'datasets/sample/longmemeval_s_sample.json.gz'), {
    duplicateSessions: 'keep',
  }));
});

describe('BASE_RETRIEVER_FACTORIES', () => {
  it('has one factory per declared base retriever', () => {
    expect(Object.keys(BASE_RETRIEVER_FACTORIES)).toEqual(Object.keys(BASE_RETRIEVERS));
  });

  it('builds every key into a pipeline that ranks the haystack: turns for those that rank turns', async () => {
    const ranked: Record<string, [string, string]> = {};
    for (const name of Object.keys(BASE_RETRIEVERS) as BaseRetrieverName[]) {
      const config = sampleConfig({ cache: false, explain: true, retriever: name, granularity: 'session' });
      const provider = createPipelineProvider(config, { embedder: createHashingEmbedder() }, {});
      try {
        const outcome = await provider.retrieve({ record: records[0]! });
        expect(outcome.ranking.length, name).toBeGreaterThan(0);
        const first = outcome.corpus.documents[outcome.ranking[0]!]!;
        ranked[name] = [config.granularity, first.id === first.sessionId ? 'session' : 'turn'];
      } finally {
        await provider.close?.();
      }
    }
    expect(ranked).toEqual({
      bm25: ['session', 'session'],
      dense: ['session', 'session'],
      hybrid: ['session', 'session'],
      'session-aware': ['turn', 'turn'],
      'multi-route': ['turn', 'turn'],
      'multi-source': ['session', 'session'],
    });
  });
});
