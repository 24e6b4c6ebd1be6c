import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { type DatasetSources, loadDatasetSources } from '../../dataset/dataset-sources.js';
import { COMMITTED_SAMPLE } from './load-longmemeval.js';
import { sha256OfDatasetJson, verifyDatasets } from './verify-datasets.js';

const json = gunzipSync(readFileSync(COMMITTED_SAMPLE));
const digest = createHash('sha256').update(json).digest('hex');

function sourcesWith(files: DatasetSources['files'], knownCopies: DatasetSources['knownCopies'] = []) {
  return { ...loadDatasetSources(), files, knownCopies };
}

describe('verifyDatasets', () => {
  it('hashes the JSON inside a .gz, so a compressed copy of the published file verifies', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lme-verify-'));
    copyFileSync(COMMITTED_SAMPLE, join(dir, 'longmemeval_s_cleaned.json.gz'));
    expect(await sha256OfDatasetJson(join(dir, 'longmemeval_s_cleaned.json.gz'))).toBe(digest);
    const sources = sourcesWith({
      s: { file: 'longmemeval_s_cleaned.json', bytes: json.length, sha256: digest },
    });
    const [result] = await verifyDatasets(sources, ['s'], dir);
    expect(result).toMatchObject({ dataset: 's', status: 'verified', sha256: digest });
  });

  it('tells a known rebuilt copy, an unknown checksum and a changed file apart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lme-verify-'));
    writeFileSync(join(dir, 'longmemeval_s_cleaned.json'), json);
    writeFileSync(join(dir, 'longmemeval_oracle.json'), json);
    writeFileSync(join(dir, 'longmemeval_m_cleaned.json'), json);
    const sources = sourcesWith(
      {
        s: { file: 'longmemeval_s_cleaned.json', bytes: 1, sha256: 'f'.repeat(64) },
        oracle: { file: 'longmemeval_oracle.json', bytes: null, sha256: null },
        m: { file: 'longmemeval_m_cleaned.json', bytes: 1, sha256: 'e'.repeat(64) },
      },
      [{ dataset: 's', sha256: digest, questions: 22, note: 'a rebuilt copy with 22 questions' }],
    );
    const results = await verifyDatasets(sources, ['s', 'oracle', 'm'], dir);
    expect(results.map((result) => [result.dataset, result.status, result.detail])).toEqual([
      ['s', 'known-copy', 'a rebuilt copy with 22 questions'],
      [
        'oracle',
        'unverified',
        'no published checksum is known for longmemeval_oracle.json, so this file could not be verified',
      ],
      [
        'm',
        'mismatch',
        `expected ${'e'.repeat(64)} (the published longmemeval_m_cleaned.json at revision ${sources.revision}); this is the checksum of s`,
      ],
    ]);
  });
});
