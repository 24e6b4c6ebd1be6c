import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ChatClient, ChatCompleteOptions } from '@lme/search-core';
import { describe, expect, it } from 'vitest';
import { eventOrderingScore, kendallTauB } from './beam-event-ordering.js';
import {
  beamJudgePrompt,
  beamRubricScores,
  judgeBeamAnswer,
  parseBeamJudgeJson,
  readBeamJudgeReply,
} from './beam-judge.js';
import { BEAM_EQUIVALENCE_SYSTEM, beamEquivalenceUser } from './beam-prompts.js';
import { beamOfficialRubric, beamPartialRubric } from './beam-rubric.js';

/**
 * What BEAM's official scoring code sends and computes, recorded by running its own functions
 * (compute_metrics.py at b2a3ee8) with a scripted LLM: fixtures/make-official-reference.py.
 */
type Reference = {
  judge_prompt_example: { rubric_item: string; llm_response: string; sent: string };
  cases: {
    name: string;
    rubric: string[];
    llm_response: string;
    replies: string[];
    sent_sha256: string[];
    llm_judge_score: number;
    scores_read: number[];
  }[];
  equivalence: {
    reference: string[];
    system: string[];
    replies: string[];
    sent: { role: 'system' | 'user'; content: string }[][];
    system_out: string[];
  };
};
const reference = JSON.parse(
  readFileSync(resolve(import.meta.dirname, 'fixtures', 'official-reference.json'), 'utf8'),
) as Reference;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A chat client answering from a script and recording what it was sent. */
function scripted(replies: string[]) {
  const sent: ChatCompleteOptions[] = [];
  const client: ChatClient = {
    id: 'scripted',
    complete: async (options) => {
      sent.push(options);
      const text = replies.shift();
      if (text === undefined) throw new Error('script exhausted');
      return {
        text,
        texts: [text],
        usage: { promptTokens: 1, completionTokens: 1 },
        cached: false,
        latencyMs: 0,
      };
    },
  };
  return { client, sent };
}

describe('BEAM judge, against what the official code sends and computes', () => {
  it('sends the official prompt byte for byte (the <question> placeholder left unfilled, as the official code does)', () => {
    const example = reference.judge_prompt_example;
    const prompt = beamJudgePrompt(example.rubric_item, example.llm_response);
    expect(prompt).toBe(example.sent);
    expect(prompt).toContain('QUESTION (what the user asked): <question>');
  });

  for (const official of reference.cases) {
    it(`reproduces llm_judge_score and every prompt sent: ${official.name}`, async () => {
      const { client, sent } = scripted([...official.replies]);
      const judged = await judgeBeamAnswer({
        client,
        ability: 'information_extraction',
        rubric: official.rubric,
        response: official.llm_response,
      });
      expect(sent.map((options) => sha256(options.messages[0]!.content))).toEqual(official.sent_sha256);
      expect(sent.every((options) => options.messages.length === 1 && options.temperature === 0)).toBe(true);
      expect(judged.items.map((item) => item.score)).toEqual(official.scores_read);
      expect(judged.llmJudgeScore).toBe(official.llm_judge_score);
      expect(judged.official).toBe(official.llm_judge_score);
    });
  }

  it('counts a 0.5 as 0 under the official int() and as half under partial credit', () => {
    const items = ['{"score": 1.0}', '{"score": 0.5}', '{"score": 0.0}'].map((reply, index) =>
      readBeamJudgeReply(`item ${index}`, reply, 'information_extraction'),
    );
    expect(beamRubricScores(items)).toEqual({ partialCredit: 0.5, llmJudgeScore: 1 / 3 });
    // Event ordering reads float(): the 0.5 counts.
    const ordering = ['{"score": 1.0}', '{"score": 0.5}'].map((reply) =>
      readBeamJudgeReply('x', reply, 'event_ordering'),
    );
    expect(beamRubricScores(ordering).llmJudgeScore).toBe(0.75);
  });

  it('reads replies as parse_json_response does, and names an unreadable one', async () => {
    expect(parseBeamJudgeJson('```json\n{"score": 0.5, "reason": "r"}\n```')).toEqual({
      score: 0.5,
      reason: 'r',
    });
    expect(parseBeamJudgeJson('Verdict: {"score": 1.0, "reason": "ok"} thanks')).toEqual({
      score: 1,
      reason: 'ok',
    });
    expect(parseBeamJudgeJson('no json here')).toBeUndefined();
    const { client } = scripted(['I think it is fine']);
    const judged = await judgeBeamAnswer({
      client,
      ability: 'summarization',
      rubric: ['covers X'],
      response: 'X',
    });
    expect(judged.official).toBeNull();
    expect(judged.error).toMatch(/^1 of 1 judge replies did not read as \{"score": …\}/);
  });

  it('aligns event-ordering lines with the official equivalence messages', async () => {
    const equivalence = reference.equivalence;
    // The first message pair the official align_with_llm sent.
    expect(BEAM_EQUIVALENCE_SYSTEM).toBe(equivalence.sent[0]![0]!.content);
    expect(beamEquivalenceUser(equivalence.reference[0]!, equivalence.system[0]!)).toBe(
      equivalence.sent[0]![1]!.content,
    );
    // event_ordering: alignment calls first (one per untaken reference item until a yes), then the rubric calls.
    const { client, sent } = scripted([
      ...equivalence.replies.slice(0, 2),
      '{"score": 1.0}',
      '{"score": 0.5}',
    ]);
    const judged = await judgeBeamAnswer({
      client,
      ability: 'event_ordering',
      rubric: equivalence.reference,
      response: equivalence.system.join('\n'),
    });
    expect(sent.slice(0, 2).map((options) => options.messages)).toEqual(equivalence.sent);
    expect(judged.llmJudgeScore).toBe(0.75);
    // Aligned ["A happened", "C happened"] against ["A happened", "B happened"]: tp 1, fp 1, fn 1.
    expect(judged.eventOrdering).toMatchObject({ precision: 0.5, recall: 0.5, f1: 0.5 });
    expect(judged.official).toBe(judged.eventOrdering!.tauNorm);
  });

  it('computes Kendall tau-b as scipy does', () => {
    // scipy.stats.kendalltau documentation example: tau = -0.47140452079103173.
    expect(kendallTauB([12, 2, 1, 12, 2], [1, 4, 7, 1, 0])).toBeCloseTo(-0.47140452079103173, 15);
    expect(kendallTauB([1, 2, 3], [1, 2, 3])).toBe(1);
    expect(Number.isNaN(kendallTauB([1, 1], [1, 2]))).toBe(true);
    // Same items in reverse order: tau -1, tau_norm 0; in order: tau_norm 1.
    expect(eventOrderingScore(['a', 'b', 'c'], ['c', 'b', 'a']).tauNorm).toBe(0);
    expect(eventOrderingScore(['a', 'b', 'c'], ['a', 'b', 'c'])).toEqual({
      precision: 1,
      recall: 1,
      f1: 1,
      tauNorm: 1,
      finalScore: 1,
    });
  });

  it('grades a BEAM record through lme’s graded judge rubrics: one item per rubric line, official int() or half credit', () => {
    const record = {
      question_id: 'beam_c1_information_extraction_1',
      question_type: 'information_extraction',
      question: 'When?',
      answer: 'April 12',
      beam_rubric: ['LLM response should state: April 12', 'LLM response should mention: release'],
    };
    const items = beamOfficialRubric.items(record, 'April 12');
    expect(items.map((item) => item.name)).toEqual(record.beam_rubric);
    expect(items[0]!.prompt).toBe(beamJudgePrompt(record.beam_rubric[0]!, 'April 12'));
    expect(beamOfficialRubric.parseItem('{"score": 0.5, "reason": "half"}', items[0]!)).toEqual({
      score: 0,
      reason: 'half',
    });
    expect(beamPartialRubric.parseItem('{"score": 0.5, "reason": "half"}', items[0]!)).toEqual({
      score: 0.5,
      reason: 'half',
    });
    const ordering = beamOfficialRubric.items({ ...record, question_type: 'event_ordering' }, 'x');
    expect(beamOfficialRubric.parseItem('{"score": 0.5}', ordering[0]!)).toEqual({ score: 0.5 });
    expect(beamOfficialRubric.grades!({ ...record, beam_rubric: [] } as never)).toBe(false);
  });
});
