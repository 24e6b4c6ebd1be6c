import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LongMemEvalRecord } from '../longmemeval-record.js';
import { loadLongMemEval } from './load-longmemeval.js';
import {
  collectDistractorPool,
  dateToMinutes,
  minutesToDate,
  poolSession,
  scaleRecord,
  writeMScaleDataset,
} from './make-m-scale.js';

const samplePath = resolve(
  import.meta.dirname,
  '../../../../../datasets/sample/longmemeval_s_sample.json.gz',
);
const SESSIONS = 150;
let sample: LongMemEvalRecord[];
let dir: string;

beforeAll(() => {
  sample = JSON.parse(gunzipSync(readFileSync(samplePath)).toString('utf8'));
  dir = mkdtempSync(join(tmpdir(), 'lme-m-scale-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, seed: number) =>
  writeMScaleDataset({ source: samplePath, target: join(dir, name), seed, sessionsPerQuestion: SESSIONS });

describe('writeMScaleDataset', () => {
  it('writes the same bytes for the same seed and other bytes for another seed', async () => {
    const first = await write('a.json.gz', 3);
    const again = await write('b.json.gz', 3);
    const other = await write('c.json.gz', 4);
    expect(readFileSync(join(dir, 'b.json.gz')).equals(readFileSync(join(dir, 'a.json.gz')))).toBe(true);
    expect(again.fileSha256).toBe(first.fileSha256);
    expect(again.jsonSha256).toBe(first.jsonSha256);
    expect(other.jsonSha256).not.toBe(first.jsonSha256);
    expect(first).toMatchObject({ questions: 22, sessions: 22 * SESSIONS });
    // The JSON of seed 3 as first written: a change here changes every published M-scale figure.
    expect(first.jsonSha256).toBe('41536a932fe6519e5beaa461ce1f397b07b6974cb17322e831b30a06a02fa2f3');
  });

  it('keeps every own session with its id, date and content, and pads with dated, sorted distractors', async () => {
    await write('d.json.gz', 0);
    const { records } = await loadLongMemEval(join(dir, 'd.json.gz'));
    const goldIds = new Set(sample.flatMap((record) => record.answer_session_ids));
    expect(records.map((record) => record.question_id)).toEqual(sample.map((record) => record.question_id));
    records.forEach((scaled, position) => {
      const original = sample[position]!;
      expect(scaled.haystack_session_ids).toHaveLength(SESSIONS);
      expect({ ...scaled, haystack_session_ids: 0, haystack_dates: 0, haystack_sessions: 0 }).toEqual({
        ...original,
        haystack_session_ids: 0,
        haystack_dates: 0,
        haystack_sessions: 0,
      });
      const own = original.haystack_session_ids.map((id, index) =>
        JSON.stringify([id, original.haystack_dates[index], original.haystack_sessions[index]]),
      );
      const all = scaled.haystack_session_ids.map((id, index) =>
        JSON.stringify([id, scaled.haystack_dates[index], scaled.haystack_sessions[index]]),
      );
      // Every own session is there, unchanged (S haystacks are not all in date order, so compare as sets).
      const allSet = new Set(all);
      expect(own.filter((entry) => !allSet.has(entry))).toHaveLength(0);
      const minutes = scaled.haystack_dates.map(dateToMinutes);
      expect(minutes).toEqual([...minutes].sort((a, b) => a - b));
      const span = original.haystack_dates.map(dateToMinutes);
      expect(Math.min(...minutes)).toBe(Math.min(...span));
      expect(Math.max(...minutes)).toBe(Math.max(...span));
      const ownIds = new Set(original.haystack_session_ids);
      const distractors = scaled.haystack_session_ids
        .map((id, index) => ({ id, session: scaled.haystack_sessions[index]! }))
        .filter((entry) => !ownIds.has(entry.id));
      expect(distractors).toHaveLength(SESSIONS - original.haystack_session_ids.length);
      expect(new Set(distractors.map((entry) => entry.id)).size).toBe(distractors.length);
      for (const { id, session } of distractors) {
        expect(goldIds.has(id) || id.includes('answer')).toBe(false);
        expect(session.some((turn) => turn.has_answer)).toBe(false);
      }
    });
  });

  it('refuses to write over its source, named or through a link, leaving it whole', async () => {
    const source = join(dir, 'source.json.gz');
    copyFileSync(samplePath, source);
    const link = join(dir, 'link-to-source.json.gz');
    symlinkSync(source, link);
    for (const target of [source, link]) {
      await expect(writeMScaleDataset({ source, target, sessionsPerQuestion: SESSIONS })).rejects.toThrow(
        `${target} is the source file ${source}: write the M-scale file elsewhere.`,
      );
    }
    expect(readFileSync(source).equals(readFileSync(samplePath))).toBe(true);
  });
});

describe('scaleRecord', () => {
  it('renames a distractor whose id is taken by other content, never the own session', () => {
    const record = structuredClone(sample[0]!);
    const ownId = record.haystack_session_ids[0]!;
    const pool = [poolSession(ownId, [{ role: 'user', content: 'another session' }])];
    const scaled = JSON.parse(
      scaleRecord(record, pool, {
        seed: 0,
        sessionsPerQuestion: record.haystack_session_ids.length + 1,
      }).toString(),
    ) as LongMemEvalRecord;
    expect(scaled.haystack_session_ids.filter((id) => id === ownId)).toHaveLength(1);
    const renamed = scaled.haystack_session_ids.indexOf(`${ownId}~m2`);
    expect(scaled.haystack_sessions[renamed]).toEqual([{ role: 'user', content: 'another session' }]);
    expect(scaled.haystack_sessions[scaled.haystack_session_ids.indexOf(ownId)]).toEqual(
      record.haystack_sessions[0],
    );
  });

  it('skips a pool session already in the haystack and fails naming the question when the pool runs dry', () => {
    const record = structuredClone(sample[0]!);
    const pool = [poolSession(record.haystack_session_ids[0]!, record.haystack_sessions[0])];
    expect(() =>
      scaleRecord(record, pool, { seed: 0, sessionsPerQuestion: record.haystack_session_ids.length + 1 }),
    ).toThrow(`question ${record.question_id}: the pool holds 1 distractor sessions`);
  });
});

describe('collectDistractorPool', () => {
  it('holds each non-evidence session once and no evidence session', async () => {
    const pool = await collectDistractorPool(samplePath);
    const goldIds = new Set(sample.flatMap((record) => record.answer_session_ids));
    expect(new Set(pool.map((entry) => `${entry.id} ${entry.json.toString()}`)).size).toBe(pool.length);
    expect(pool.some((entry) => goldIds.has(entry.id))).toBe(false);
    expect(pool.length).toBeGreaterThan(SESSIONS);
  });

  it("keeps to the included questions' haystacks, and writes those questions only", async () => {
    const kept = new Set(sample.slice(0, 11).map((record) => record.question_id));
    const include = (id: string) => kept.has(id);
    const pool = await collectDistractorPool(samplePath, include);
    const keptSessions = new Set(
      sample
        .filter((record) => kept.has(record.question_id))
        .flatMap((record) => record.haystack_sessions.map((session) => JSON.stringify(session))),
    );
    expect(pool.length).toBeGreaterThan(0);
    expect(pool.every((entry) => keptSessions.has(entry.json.toString()))).toBe(true);
    // Evidence of a question left out still never becomes a distractor.
    const goldIds = new Set(sample.flatMap((record) => record.answer_session_ids));
    expect(pool.some((entry) => goldIds.has(entry.id))).toBe(false);
    const target = join(dir, 'kept.json.gz');
    const written = await writeMScaleDataset({
      source: samplePath,
      target,
      sessionsPerQuestion: 100,
      include,
    });
    expect(written).toMatchObject({ questions: 11, poolSize: pool.length });
    const { records } = await loadLongMemEval(target);
    expect(records.map((record) => record.question_id)).toEqual([...kept]);
  });
});

describe('LongMemEval dates', () => {
  it('round-trips a date with its weekday', () => {
    expect(minutesToDate(dateToMinutes('2023/05/30 (Tue) 23:40'))).toBe('2023/05/30 (Tue) 23:40');
    expect(minutesToDate(dateToMinutes('2024/02/29 (Thu) 00:05') + 24 * 60)).toBe('2024/03/01 (Fri) 00:05');
  });
});
