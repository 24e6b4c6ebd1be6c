import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../testing/run-cli.js';
import { loadAnyDataset } from './load-dataset.js';
import { COMMITTED_SAMPLE } from './longmemeval/load-longmemeval.js';
import { validateDataset } from './validate-dataset.js';

const dir = mkdtempSync(join(tmpdir(), 'lme-validate-'));
const sample = JSON.parse(gunzipSync(readFileSync(COMMITTED_SAMPLE)).toString('utf8')) as Array<
  Record<string, unknown>
>;

describe('validateDataset', () => {
  it('lists every question of a good file with the checksum a load gives', async () => {
    const fractions: number[] = [];
    const validation = await validateDataset(COMMITTED_SAMPLE, {
      onProgress: (fraction) => fractions.push(fraction),
    });
    const loaded = await loadAnyDataset(COMMITTED_SAMPLE);
    expect(validation.format).toBe('longmemeval');
    expect(validation.sha256).toBe(loaded.sha256);
    expect(validation.questions).toEqual(
      loaded.records.map((record) => ({
        questionId: record.question_id,
        questionType: record.question_type,
      })),
    );
    expect(fractions.at(-1)).toBe(1);
  });

  it('finds a bad last record in one pass, before any question is handed out', async () => {
    const records = structuredClone(sample.slice(0, 3));
    delete records[2]!.question;
    const path = join(dir, 'bad-last.json');
    writeFileSync(path, JSON.stringify(records));
    await expect(validateDataset(path)).rejects.toThrow(
      `${path}: question ${records[2]!.question_id}: field "question" is missing or not a string`,
    );
  });

  it('finds a repeated question id', async () => {
    const path = join(dir, 'twice.json');
    writeFileSync(path, JSON.stringify([sample[0], sample[1], sample[0]]));
    await expect(validateDataset(path)).rejects.toThrow(
      `${path}: question ${sample[0]!.question_id} appears twice`,
    );
  });

  it('validates LoCoMo files and returns their warnings', async () => {
    const validation = await validateDataset(resolve(REPO_ROOT, 'datasets/fixtures/locomo-mini.json'));
    expect(validation.format).toBe('locomo');
    expect(validation.questions[0]).toEqual({
      questionId: 'conv-mini_q1',
      questionType: 'locomo-4-single-hop',
    });
    expect(validation.warnings).toHaveLength(1);
  });
});
