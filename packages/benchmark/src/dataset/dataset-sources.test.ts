import { describe, expect, it } from 'vitest';
import { datasetUrl, identifyDigest, loadDatasetSources } from './dataset-sources.js';

describe('configs/datasets.json', () => {
  const sources = loadDatasetSources();

  it('pins the official repository at a commit, not a moving branch', () => {
    expect(sources.repository).toBe('xiaowu0162/longmemeval-cleaned');
    expect(sources.revision).toMatch(/^[0-9a-f]{40}$/);
    expect(sources.source).toMatch(/\S/);
    expect(datasetUrl(sources, 's')).toBe(
      `https://huggingface.co/datasets/xiaowu0162/longmemeval-cleaned/resolve/${sources.revision}/longmemeval_s_cleaned.json`,
    );
    expect(datasetUrl(sources, 'oracle', 'http://127.0.0.1:9/')).toBe(
      `http://127.0.0.1:9/datasets/xiaowu0162/longmemeval-cleaned/resolve/${sources.revision}/longmemeval_oracle.json`,
    );
  });

  it('names the three official files and refuses other names, listing the known ones', () => {
    expect(Object.entries(sources.files).map(([name, source]) => [name, source.file])).toEqual([
      ['oracle', 'longmemeval_oracle.json'],
      ['s', 'longmemeval_s_cleaned.json'],
      ['m', 'longmemeval_m_cleaned.json'],
    ]);
    expect(() => datasetUrl(sources, 'sample')).toThrow(
      'Unknown dataset "sample"; the downloadable ones are oracle, s, m.',
    );
  });

  it('knows the shared rebuilt S copy as 499 questions, not the published file', () => {
    const copy = identifyDigest(sources, 'f5eafd8edca7dc7a70f8bbb9bc8c00490bcfe4a03659f144755dac08f23f0c4c');
    expect(copy).toMatchObject({ kind: 'copy', dataset: 's', questions: 499 });
    expect(identifyDigest(sources, sources.files.s!.sha256!)).toMatchObject({
      kind: 'published',
      dataset: 's',
    });
    expect(sources.files.s!.questions).toBe(500);
  });
});
