import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { COMMITTED_SAMPLE } from '../benchmarks/longmemeval/load-longmemeval.js';
import { loadDatasetSources } from '../dataset/dataset-sources.js';
import { listDatasets } from './datasets-list.js';

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
    const rows = (await listDatasets(sources, dataDir, true))
      .split('\n')
      .filter((line) => /^\| \w/.test(line));
    const cells = rows.map((row) =>
      row
        .split('|')
        .map((cell) => cell.trim())
        .slice(1, -1),
    );
    expect(cells.map((row) => [row[0], row[3]])).toEqual([
      ['name', 'status'],
      ['sample', 'always here'],
      ['oracle', 'MISMATCH: not the published file'],
      ['s', 'verified: the published file'],
      ['m', 'not downloaded'],
    ]);
    expect(cells[3]![4]).toBe(join(dataDir, 'longmemeval_s_cleaned.json'));
    expect(cells[3]![1]).toMatch(/per question: longmemeval_s_cleaned\.json$/);
    const unchecked = await listDatasets(sources, dataDir, false);
    expect(unchecked).toMatch(/\| s +\|.*\| +present \(not checked\) \|/);
  });
});
