import { cpSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { datasetFileSha256 } from './dataset-checksum.js';

describe('datasetFileSha256 of a folder dataset', () => {
  it('follows symbolic links: a split of linked conversation folders hashes as a copy of them', async () => {
    const root = mkdtempSync(join(tmpdir(), 'lme-checksum-'));
    const source = join(root, 'tier', '11');
    mkdirSync(join(source, 'probing_questions'), { recursive: true });
    writeFileSync(join(source, 'chat.json'), '[]');
    writeFileSync(join(source, 'probing_questions', 'probing_questions.json'), '{}');
    mkdirSync(join(root, 'linked'));
    symlinkSync(source, join(root, 'linked', '11'));
    mkdirSync(join(root, 'copied'));
    cpSync(source, join(root, 'copied', '11'), { recursive: true });
    const empty = mkdtempSync(join(tmpdir(), 'lme-checksum-empty-'));
    expect(await datasetFileSha256(join(root, 'linked'))).toBe(await datasetFileSha256(join(root, 'copied')));
    expect(await datasetFileSha256(join(root, 'linked'))).not.toBe(await datasetFileSha256(empty));
  });
});
