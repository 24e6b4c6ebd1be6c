import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { COMMITTED_SAMPLE } from '../benchmarks/longmemeval/load-longmemeval.js';
import { loadDatasetSources } from '../dataset/dataset-sources.js';
import { listDatasets, renderDatasetList } from './datasets-list.js';

describe('lme datasets list', () => {
  it('lists every known dataset: what it is, downloaded or not, where, verified or not', async () => {
    const json = gunzipSync(readFileSync(COMMITTED_SAMPLE));
    const published = loadDatasetSources();
    // The sample stands in for the published S file: its checksum is the one listed.
    const sources = {
      ...published,
      files: {
        ...published.files,
        s: { ...published.files.s!, sha256: createHash('sha256').update(json).digest('hex') },
      },
      knownCopies: [],
    };
    const dataDir = mkdtempSync(join(tmpdir(), 'lme-datasets-list-'));
    writeFileSync(join(dataDir, 'longmemeval_s_cleaned.json'), json);
    writeFileSync(join(dataDir, 'longmemeval_oracle.json'), '[]');
    const listings = await listDatasets(sources, dataDir, true);
    expect(listings.map((listing) => [listing.name, listing.status])).toEqual([
      ['sample', 'always here'],
      ['oracle', 'MISMATCH: not the published file'],
      ['s', 'verified: the published file'],
      ['m', 'not downloaded'],
    ]);
    expect(listings[2]).toMatchObject({
      path: join(dataDir, 'longmemeval_s_cleaned.json'),
      what: expect.stringMatching(/per question \(longmemeval_s_cleaned\.json\)$/),
    });
    const text = renderDatasetList(listings);
    expect(text).toContain(
      `\ns       verified: the published file      500 questions  ${join(dataDir, 'longmemeval_s_cleaned.json')}\n`,
    );
    expect(text).toMatch(/\nm {7}not downloaded {20}500 questions\n {8}about 500 sessions/);
    const unchecked = await listDatasets(sources, dataDir, false);
    expect(unchecked.map((listing) => listing.status)).toEqual([
      'always here',
      'present (not checked)',
      'present (not checked)',
      'not downloaded',
    ]);
  });
});
