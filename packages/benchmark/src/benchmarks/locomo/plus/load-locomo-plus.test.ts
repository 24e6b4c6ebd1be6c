import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../testing/run-cli.js';
import { recognizeBenchmark } from '../../benchmark-registry.js';
import { buildCorpus } from '../../build-corpus.js';
import { loadAnyDataset } from '../../load-dataset.js';
import { type LocomoPlusRecord, loadLocomoPlus } from './load-locomo-plus.js';
import { officialLocomoPlus, runOfficialPython } from './locomo-plus-official-reference.js';
import { buildLocomoPlusReaderPrompt } from './locomo-plus-reader-prompt.js';

const ITEMS = [
  {
    relation_type: 'causal',
    cue_dialogue: 'A: I started learning the cello.\nB: Nice, keep at it.',
    trigger_query: 'A: My neighbours keep complaining about the noise.',
    time_gap: 'two months later',
  },
  {
    relation_type: 'state',
    cue_dialogue: 'A: I am allergic to peanuts.\nB: Good to know.',
    trigger_query: 'B: Want some of my satay?',
    time_gap: 'several months later',
  },
];

/** A folder as the repository's data/ holds it: locomo_plus.json (stand-in items) and locomo10.json (lme's LoCoMo fixture). */
function standIn(items: unknown = ITEMS, withLocomo = true): string {
  const dir = mkdtempSync(join(tmpdir(), 'lme-locomo-plus-'));
  writeFileSync(join(dir, 'locomo_plus.json'), JSON.stringify(items));
  if (withLocomo)
    copyFileSync(resolve(REPO_ROOT, 'datasets/fixtures/locomo-mini.json'), join(dir, 'locomo10.json'));
  return join(dir, 'locomo_plus.json');
}

describe('loading LoCoMo-Plus (locomo_plus.json with locomo10.json beside it)', () => {
  it('is recognised from its items and loaded as LoCoMo QA plus one Cognitive question per item', async () => {
    expect(recognizeBenchmark(ITEMS)).toBe('locomo-plus');
    const loaded = await loadAnyDataset(standIn());
    expect(loaded.format).toBe('locomo-plus');
    const records = loaded.records as LocomoPlusRecord[];
    expect(records.map((record) => record.question_type)).toEqual([
      ...Array(7)
        .fill(0)
        .map((_, index) => records[index]!.question_type),
      'locomo-plus-cognitive',
      'locomo-plus-cognitive',
    ]);
    expect(records.slice(0, 7).every((record) => record.question_type.startsWith('locomo-plus-'))).toBe(true);
    expect(records.slice(0, 7).some((record) => record.question_type === 'locomo-plus-cognitive')).toBe(
      false,
    );
    const [first, second] = records.slice(7);
    expect(first).toMatchObject({
      question_id: 'conv-mini_plus1',
      question: 'Ana: My neighbours keep complaining about the noise.',
      question_date: '2023/09/09 (Sat) 00:30',
      haystack_session_ids: ['conv-mini_s1', 'conv-mini_s2', 'conv-mini_plus1_cue', 'conv-mini_s3'],
      answer_session_ids: ['conv-mini_plus1_cue'],
      locomo_plus_category: 'Cognitive',
      locomo_plus_evidence: 'Ana：I started learning the cello.\nBen：Nice, keep at it.',
      answer: 'Ana：I started learning the cello.\nBen：Nice, keep at it.',
      locomo_plus_time_gap: 'two months later',
    });
    expect(first!.haystack_dates[2]).toBe('2023/07/11 (Tue) 00:30');
    expect(first!.haystack_sessions[2]).toEqual([
      { role: 'user', content: 'Ana: I started learning the cello.', has_answer: true },
      { role: 'user', content: 'Ben: Nice, keep at it.', has_answer: true },
    ]);
    expect(second!.question).toBe('Ben: Want some of my satay?');
    expect(second!.haystack_session_ids.at(-1)).toBe('conv-mini_plus2_cue');
  });

  it('grades the cue session (and its turns) as the evidence under the evidence convention', async () => {
    const { records } = await loadLocomoPlus(standIn());
    const cognitive = records.at(-2)!;
    const sessions = buildCorpus(cognitive, { granularity: 'session', indexRoles: 'user' });
    expect(
      sessions.documents.filter((_, index) => sessions.evidence[index]).map((document) => document.id),
    ).toEqual(['conv-mini_plus1_cue']);
    const turns = buildCorpus(cognitive, { granularity: 'turn', indexRoles: 'user' });
    expect(
      turns.documents.filter((_, index) => turns.evidence[index]).map((document) => document.id),
    ).toEqual(['conv-mini_plus1_cue_1', 'conv-mini_plus1_cue_2']);
  });

  it('fails naming the folder when locomo10.json is not beside locomo_plus.json', async () => {
    const path = standIn(ITEMS, false);
    await expect(loadLocomoPlus(path)).rejects.toThrow(
      /locomo_plus\.json: LoCoMo-Plus stitches its questions into the LoCoMo conversations, read from locomo10\.json in the same folder/,
    );
  });

  it('fails naming the file, item and field of a bad item', async () => {
    const path = standIn([ITEMS[0], { cue_dialogue: 'A: x', trigger_query: 'B: y', time_gap: 3 }]);
    await expect(loadLocomoPlus(path)).rejects.toThrow(
      `${path}: item 1: field "time_gap" is missing or not a string`,
    );
  });

  it('refuses, naming the item and field, a time_gap no date can show, an empty cue and a blank trigger', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [
        { time_gap: '99999999999 years later' },
        'item 1: field "time_gap" "99999999999 years later" puts the cue outside the years 1 to 9999',
      ],
      [{ cue_dialogue: '' }, 'item 1: field "cue_dialogue" holds no "A: …" or "B: …" line with text'],
      [{ trigger_query: '   ' }, 'item 1: field "trigger_query" holds no "A: …" or "B: …" line with text'],
      [{ trigger_query: 'A:   ' }, 'item 1: field "trigger_query" holds no "A: …" or "B: …" line with text'],
    ];
    for (const [change, message] of cases) {
      const path = standIn([ITEMS[0], { ...ITEMS[1], ...change }]);
      await expect(loadLocomoPlus(path)).rejects.toThrow(`${path}: ${message}`);
    }
  });
});

const official = officialLocomoPlus();

describe.skipIf('skip' in official)(
  `the published files against the official unified input ${'skip' in official ? `(skipped: ${official.skip})` : ''}`,
  () => {
    it('gives every sample of unified_input.py (category, question, evidence, answer, time gap) and the model input utils.py sends', async () => {
      const { dir } = official as { dir: string };
      const samples = runOfficialPython(
        dir,
        [
          'from unified_input import build_unified_samples',
          'from task_eval.utils import _build_model_input',
          'out = []',
          'for s in build_unified_samples(ROOT + "/data"):',
          '    out.append({"category": s["category"], "trigger": s["trigger"], "evidence": s["evidence"], "answer": s.get("answer"), "time_gap": s.get("time_gap"), "model_input": _build_model_input(s["input_prompt"], category=s["category"])})',
          'print(json.dumps(out))',
        ].join('\n'),
      ) as Array<{
        category: string;
        trigger: string;
        evidence: string;
        answer: string | number | null;
        time_gap: string | null;
        model_input: string;
      }>;
      const { records } = await loadLocomoPlus(join(dir, 'data/locomo_plus.json'));
      expect(records).toHaveLength(samples.length);
      expect(records.filter((record) => record.locomo_plus_category === 'Cognitive')).toHaveLength(401);
      records.forEach((record, index) => {
        const sample = samples[index]!;
        const cognitive = record.locomo_plus_category === 'Cognitive';
        const chunks = record.haystack_sessions.map((turns, at) => ({
          date: record.haystack_dates[at]!,
          turns,
        }));
        expect({
          category: record.locomo_plus_category,
          trigger: cognitive ? record.locomo_plus_trigger : record.question,
          evidence: record.locomo_plus_evidence,
          answer: cognitive || sample.answer === null ? sample.answer : record.answer,
          time_gap: record.locomo_plus_time_gap ?? null,
          model_input: buildLocomoPlusReaderPrompt(record, chunks),
        }).toEqual(sample);
      });
    }, 120_000);
  },
);
