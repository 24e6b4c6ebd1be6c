import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAnyDataset } from '../load-dataset.js';
import { REALTALK_FILES, REALTALK_QUESTIONS } from './realtalk-files.js';

/** The ten published chats, when a developer put them here (`lme datasets download realtalk`, or LME_REALTALK_DIR). */
const FOLDER = process.env.LME_REALTALK_DIR ?? '/work/data/realtalk';
const present = REALTALK_FILES.every((file) => existsSync(join(FOLDER, basename(file.path))));

describe.skipIf(!present)(`the published REALTALK chats (${FOLDER}; skipped: not there)`, () => {
  it('are the pinned files, byte for byte', () => {
    for (const file of REALTALK_FILES) {
      const bytes = readFileSync(join(FOLDER, basename(file.path)));
      expect([bytes.length, createHash('sha256').update(bytes).digest('hex')]).toEqual([
        file.bytes,
        file.sha256,
      ]);
    }
  });

  it('load whole: 728 questions in three categories, every one with a question and an answer', async () => {
    const loaded = await loadAnyDataset(FOLDER);
    expect(loaded.format).toBe('realtalk');
    expect(loaded.records).toHaveLength(REALTALK_QUESTIONS);
    const types: Record<string, number> = {};
    for (const record of loaded.records) types[record.question_type] = (types[record.question_type] ?? 0) + 1;
    expect(types).toEqual({ 'realtalk-1-fact': 301, 'realtalk-2-date': 319, 'realtalk-3-inference': 108 });
    expect(loaded.records.filter((record) => record.answer_session_ids.length > 0)).toHaveLength(706);
    expect(loaded.warnings).toHaveLength(188);
  });
});
