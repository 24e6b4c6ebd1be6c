import { describe, expect, it } from 'vitest';
import { tinyRecord } from '../../testing/tiny-record.js';
import { DEV_FRACTION, devQuestionIds, inSplit, parseSplit, stratumOf } from './dev-test-split.js';
import { splitCandidates } from './select-questions.js';

const questions = (type: string, count: number, suffix = '') =>
  Array.from({ length: count }, (_, index) => ({
    question_id: `${type}-${index}${suffix}`,
    question_type: type,
  }));

const dataset = [
  ...questions('multi-session', 133),
  ...questions('multi-session', 12, '_abs'),
  ...questions('temporal-reasoning', 127),
  ...questions('single-session-user', 70),
  ...questions('single-session-preference', 30),
];

describe('devQuestionIds', () => {
  it('takes about 30% of every question type, abstention questions apart', () => {
    const dev = devQuestionIds(dataset);
    const count = (predicate: (id: string) => boolean) => [...dev].filter(predicate).length;
    expect(count((id) => id.startsWith('multi-session') && !id.endsWith('_abs'))).toBe(
      Math.round(133 * DEV_FRACTION),
    );
    expect(count((id) => id.endsWith('_abs'))).toBe(Math.round(12 * DEV_FRACTION));
    expect(count((id) => id.startsWith('temporal'))).toBe(Math.round(127 * DEV_FRACTION));
    expect(count((id) => id.startsWith('single-session-preference'))).toBe(9);
  });

  it('splits the same way whatever the order of the file', () => {
    const reversed = [...dataset].reverse();
    const shuffled = [...dataset].sort(
      (left, right) => (left.question_id.length % 3) - (right.question_id.length % 3),
    );
    const dev = [...devQuestionIds(dataset)].sort();
    expect([...devQuestionIds(reversed)].sort()).toEqual(dev);
    expect([...devQuestionIds(shuffled)].sort()).toEqual(dev);
  });

  it('moves with the seed and keeps one dev question in a stratum of two', () => {
    expect([...devQuestionIds(dataset, { seed: 'other' })].sort()).not.toEqual(
      [...devQuestionIds(dataset)].sort(),
    );
    expect(devQuestionIds(questions('tiny', 2)).size).toBe(1);
    expect(devQuestionIds(questions('single', 1)).size).toBe(0);
  });

  it('keeps abstention in a stratum of its own type', () => {
    expect(stratumOf({ question_id: 'q1_abs', question_type: 'temporal-reasoning' })).not.toBe(
      stratumOf({ question_id: 'q1', question_type: 'temporal-reasoning' }),
    );
  });
});

describe('split selection', () => {
  const records = dataset.map((record, position) => ({ record: record as never, position }));

  it('gives dev and test as disjoint halves of the whole file', () => {
    const dev = splitCandidates({ seed: 42, split: 'dev' }, records);
    const test = splitCandidates({ seed: 42, split: 'test' }, records);
    expect(dev.length + test.length).toBe(dataset.length);
    const devIds = new Set(dev.map(({ record }) => (record as { question_id: string }).question_id));
    expect(test.some(({ record }) => devIds.has((record as { question_id: string }).question_id))).toBe(
      false,
    );
    expect(splitCandidates({ seed: 42 }, records)).toHaveLength(dataset.length);
    expect(splitCandidates({ seed: 42, split: 'all' }, records)).toHaveLength(dataset.length);
  });

  it('does not move with --seed (the --limit seed)', () => {
    const ids = (seed: number) =>
      splitCandidates({ seed, split: 'dev' }, records).map(
        ({ record }) => (record as { question_id: string }).question_id,
      );
    expect(ids(1)).toEqual(ids(7));
  });

  it('answers inSplit and parses --split, naming the known parts', () => {
    const dev = new Set(['a']);
    expect([inSplit('dev', 'a', dev), inSplit('test', 'a', dev), inSplit('all', 'a', dev)]).toEqual([
      true,
      false,
      true,
    ]);
    expect(parseSplit('test')).toBe('test');
    expect(() => parseSplit('train')).toThrow('--split expects one of dev, test, all (got "train").');
  });
});

describe('--split in a run config', () => {
  it('streams only the dev or the test questions of a LongMemEval file', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { parseRunConfig } = await import('../../config/run-sections.js');
    const { openQuestionSource } = await import('./question-source.js');
    const records = Array.from({ length: 10 }, (_, index) =>
      tinyRecord(index, { question_type: index < 5 ? 'multi-session' : 'temporal-reasoning' }),
    );
    const path = join(mkdtempSync(join(tmpdir(), 'lme-split-')), 'tiny.json');
    writeFileSync(path, JSON.stringify(records));
    const ids = async (split: 'dev' | 'test' | 'all') => {
      const source = await openQuestionSource(path, parseRunConfig({ dataset: path, split }));
      const chosen: string[] = [];
      for await (const { record } of source.items) chosen.push(record.question_id);
      return chosen;
    };
    const dev = await ids('dev');
    const test = await ids('test');
    expect(dev).toHaveLength(4);
    expect([...dev, ...test].sort()).toEqual((await ids('all')).sort());
    expect(dev).toEqual(
      [...devQuestionIds(records)].sort((left, right) => Number(left.slice(1)) - Number(right.slice(1))),
    );
  });
});
