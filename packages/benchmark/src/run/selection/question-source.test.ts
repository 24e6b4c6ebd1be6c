import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMITTED_SAMPLE } from '../../benchmarks/longmemeval/load-longmemeval.js';
import { parseRunConfig } from '../../config/run-sections.js';
import { tinyRecord } from '../../testing/tiny-record.js';
import { openQuestionSource } from './question-source.js';

/** The ids and positions a source yields, and the checksum it reports once read. */
async function drain(source: Awaited<ReturnType<typeof openQuestionSource>>) {
  const chosen: string[] = [];
  for await (const { record, position } of source.items) chosen.push(`${position}:${record.question_id}`);
  return { chosen, sha256: source.sha256() };
}

describe('openQuestionSource', () => {
  // A file above the two-pass size is read twice (ids and types, then the chosen records) instead of
  // held whole; threshold 0 sends the committed sample down that path.
  for (const selection of [
    { limit: 7, seed: 3 },
    { split: 'dev' as const },
    { split: 'test' as const, limit: 5, questionTypes: ['multi-session', 'temporal-reasoning'] },
  ]) {
    it(`chooses the same questions in two streamed passes as in memory (${JSON.stringify(selection)})`, async () => {
      const config = parseRunConfig({ dataset: COMMITTED_SAMPLE, ...selection });
      const inMemory = await drain(await openQuestionSource(COMMITTED_SAMPLE, config));
      const streamed = await drain(await openQuestionSource(COMMITTED_SAMPLE, config, undefined, 0));
      expect(streamed).toEqual(inMemory);
      expect(streamed.chosen.length).toBeGreaterThan(0);
    });
  }

  it('refuses a file that changed between the two reads, rather than mixing questions', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'lme-two-pass-')), 'data.json');
    writeFileSync(path, JSON.stringify([0, 1, 2, 3].map((index) => tinyRecord(index, { answer: 'a' }))));
    const source = await openQuestionSource(path, parseRunConfig({ dataset: path, limit: 2 }), undefined, 0);
    writeFileSync(path, JSON.stringify([0, 1, 2, 3].map((index) => tinyRecord(index, { answer: 'b' }))));
    await expect(drain(source)).rejects.toThrow(/data\.json changed while it was read/);
  });
});
