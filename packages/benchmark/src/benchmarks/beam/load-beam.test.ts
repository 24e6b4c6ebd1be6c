import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAnyDataset } from '../load-dataset.js';
import { BEAM_ABILITIES } from './beam-abilities.js';
import type { BeamRecord } from './beam-records.js';
import { beamDate } from './beam-sessions.js';
import { flattenSourceIds } from './beam-source-ids.js';
import { loadBeam } from './load-beam.js';

const TIER = resolve(import.meta.dirname, 'fixtures', 'tier');

describe('loadBeam (stand-in tier written in BEAM’s format)', () => {
  it('makes each probing question a record whose haystack is its whole conversation, one session per turn', async () => {
    const loaded = await loadBeam(TIER);
    expect(loaded.records.map((record) => record.question_id)).toEqual([
      'beam_c1_abstention_1',
      'beam_c1_contradiction_resolution_1',
      'beam_c1_event_ordering_1',
      'beam_c1_information_extraction_1',
      'beam_c1_instruction_following_1',
      'beam_c1_knowledge_update_1',
      'beam_c2_information_extraction_1',
      'beam_c2_preference_following_1',
    ]);
    const update = loaded.records[5]!;
    expect(update.question_type).toBe('knowledge_update');
    expect(update.haystack_session_ids).toEqual(['c1_b1_t1', 'c1_b1_t2', 'c1_b2_t1', 'c1_b2_t2']);
    // Dated by the latest time_anchor seen: March 1 until message 4's March 20.
    expect(update.haystack_dates).toEqual([
      '2024/03/01 (Fri) 00:00',
      '2024/03/01 (Fri) 00:00',
      '2024/03/20 (Wed) 00:00',
      '2024/03/20 (Wed) 00:00',
    ]);
    expect(update.question_date).toBe('2024/03/20 (Wed) 00:00');
    expect(update.haystack_sessions[2]!.map((turn) => turn.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(update.answer).toBe('April 26');
    expect(update.beam_rubric).toEqual(['LLM response should state: April 26']);
  });

  it('marks the messages source_chat_ids names, user or assistant, and their sessions as gold', async () => {
    const { records } = await loadBeam(TIER);
    const update = records.find((record) => record.question_id === 'beam_c1_knowledge_update_1')!;
    // original_info [0] and updated_info [4, 5]: message 5 is the assistant's.
    expect(update.beam_evidence_messages).toEqual([0, 4, 5]);
    expect(update.answer_session_ids).toEqual(['c1_b1_t1', 'c1_b2_t1']);
    const marked = update.haystack_sessions.flatMap((turns, session) =>
      turns.flatMap((turn, index) => (turn.has_answer ? [`${session}:${index}:${turn.role}`] : [])),
    );
    expect(marked).toEqual(['0:0:user', '2:0:user', '2:1:assistant']);
    // Another question of the same conversation is not marked by it.
    const ordering = records.find((record) => record.question_id === 'beam_c1_event_ordering_1')!;
    expect(ordering.answer_session_ids).toEqual(['c1_b1_t1', 'c1_b2_t1', 'c1_b2_t2']);
    expect(ordering.haystack_sessions[2]![1]!.has_answer).toBeUndefined();
  });

  it('gives abstention questions no gold and an id lme reads as abstention', async () => {
    const { records } = await loadBeam(TIER);
    const abstention = records[0]!;
    expect(abstention.answer_session_ids).toEqual([]);
    expect(abstention.question_id).toContain('_abs');
    expect(abstention.answer).toMatch(/^Based on the provided chat, there is no information/);
  });

  it('warns, naming the question, about a gold id that names no message, and keeps the rest of the gold', async () => {
    expect((await loadBeam(TIER)).warnings).toEqual([]);
    // The stand-in tier with message 42, which its chat.json does not hold, added to one gold.
    const folder = mkdtempSync(join(tmpdir(), 'lme-beam-missing-'));
    cpSync(TIER, folder, { recursive: true });
    const questionsPath = join(folder, '2', 'probing_questions', 'probing_questions.json');
    const questions = JSON.parse(readFileSync(questionsPath, 'utf8'));
    questions.information_extraction[0].source_chat_ids = [0, 42];
    writeFileSync(questionsPath, JSON.stringify(questions));
    const { records, warnings } = await loadBeam(folder);
    expect(warnings).toEqual([
      `${join(folder, '2')}: question beam_c2_information_extraction_1 names message 42 that is not in chat.json (left out of the gold)`,
    ]);
    expect(
      records.find((record) => record.question_id === 'beam_c2_information_extraction_1')!
        .beam_evidence_messages,
    ).toEqual([0]);
  });

  it('loads one conversation folder, and a tier through loadAnyDataset as the beam format', async () => {
    const one = await loadBeam(join(TIER, '2'));
    expect(one.records.map((record) => record.question_id)).toEqual([
      'beam_c2_information_extraction_1',
      'beam_c2_preference_following_1',
    ]);
    const any = await loadAnyDataset(TIER);
    expect(any.format).toBe('beam');
    expect(any.records).toHaveLength(8);
    expect(any.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('fails in one sentence naming the file, the message and the field', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'lme-beam-bad-'));
    cpSync(join(TIER, '1'), join(folder, '1'), { recursive: true });
    const chatPath = join(folder, '1', 'chat.json');
    const chat = JSON.parse(readFileSync(chatPath, 'utf8'));
    chat[1].turns[0][2].role = 'system';
    writeFileSync(chatPath, JSON.stringify(chat));
    await expect(loadBeam(folder)).rejects.toThrow(
      `${join(folder, '1')}: chat.json batch 2 turn 1 message 3: field "role" must be "user" or "assistant"`,
    );
    await expect(loadBeam(tmpdir() + '/lme-beam-nothing-here')).rejects.toThrow(/not a BEAM folder/);
  });

  it('reads BEAM’s dates and every shape of source_chat_ids', () => {
    expect(beamDate('March-15-2024')).toBe('2024/03/15 (Fri) 00:00');
    expect(beamDate('February-30-2024')).toBeUndefined();
    expect(beamDate(null)).toBeUndefined();
    expect(flattenSourceIds({ first_event: 3, second_event: [7, 9] })).toEqual([3, 7, 9]);
    expect(flattenSourceIds([1, [2]])).toEqual([1, 2]);
    expect(flattenSourceIds(undefined)).toEqual([]);
  });
});

const BEAM_DIR = process.env.LME_BEAM_DIR;
const tier100k = BEAM_DIR ? join(BEAM_DIR, 'chats', '100K') : '';

describe.skipIf(!BEAM_DIR || !existsSync(tier100k))(
  `loadBeam on the real BEAM 100K tier (LME_BEAM_DIR=${BEAM_DIR ?? 'unset: skipped, set it to a folder holding chats/100K'})`,
  () => {
    it('reads 20 conversations of 20 questions, 2 per ability, every gold id a message', async () => {
      const { records, warnings } = await loadBeam(tier100k);
      expect(warnings).toEqual([]);
      expect(records).toHaveLength(400);
      for (const ability of BEAM_ABILITIES)
        expect(records.filter((record) => record.question_type === ability)).toHaveLength(40);
      const withGold = records.filter((record: BeamRecord) => record.beam_evidence_messages.length > 0);
      // Abstention (40) and 5 questions whose source_chat_ids is absent or empty have none (counted with Python).
      expect(withGold).toHaveLength(355);
      for (const record of records) expect(record.beam_rubric.length).toBeGreaterThan(0);
    }, 120_000);
  },
);
