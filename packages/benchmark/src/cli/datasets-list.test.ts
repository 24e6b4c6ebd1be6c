import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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
    expect(listings.slice(0, 4).map((listing) => [listing.name, listing.status])).toEqual([
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
    expect(text.split('\n').find((line) => line.startsWith('s ')))!.toMatch(
      new RegExp(
        `^s +verified: the published file +500 questions  ${join(dataDir, 'longmemeval_s_cleaned.json')}$`,
      ),
    );
    expect(text).toMatch(
      /\nm +not downloaded +500 questions\n +about 500 sessions per question \(longmemeval_m_cleaned\.json\)\n +get: lme datasets download m \(2737 MB\)\n/,
    );
    const unchecked = await listDatasets(sources, dataDir, false);
    expect(unchecked.slice(0, 4).map((listing) => listing.status)).toEqual([
      'always here',
      'present (not checked)',
      'present (not checked)',
      'not downloaded',
    ]);
  });

  // Issue 52, item 4: BEAM and LoCoMo-Plus were missing from the list, though lme reads four benchmarks.
  it("lists every benchmark's datasets from the registry, downloaded or not, with how to get each", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lme-datasets-catalog-'));
    mkdirSync(join(dataDir, 'beam', 'chats', '100K', '1'), { recursive: true });
    writeFileSync(join(dataDir, 'locomo10.json'), '[]');
    const listings = await listDatasets(loadDatasetSources(), dataDir, false);
    const byName = new Map(listings.map((listing) => [listing.name, listing]));
    expect([...byName.keys()]).toEqual([
      'sample',
      'oracle',
      's',
      'm',
      'realtalk',
      'locomo',
      'locomo-plus',
      'beam-100k',
      'beam-500k',
      'beam-1m',
      'beam-10m',
    ]);
    expect(byName.get('locomo')).toMatchObject({
      status: 'present (not checked)',
      path: join(dataDir, 'locomo10.json'),
    });
    expect(byName.get('locomo')!.get).toBeUndefined();
    // An empty tier folder (a failed download's) is not the dataset: it says how to get it.
    expect(byName.get('beam-100k')).toMatchObject({
      status: 'not downloaded',
      path: join(dataDir, 'beam', 'chats', '100K'),
      get: expect.stringMatching(/^run `lme datasets download beam-100k` \(40 files, 13\.9 MB;/),
    });
    expect(byName.get('locomo-plus')!.get).toMatch(/xjtuleeyf\/Locomo-Plus .* --dataset /);
    expect(byName.get('beam-1m')!.get).toMatch(/yourself/);
    const text = renderDatasetList(listings);
    expect(text).toMatch(
      /\nbeam-500k +not downloaded +\? questions +\S+500K\n +BEAM 500K tier: 35 conversations/,
    );
  });
});
