import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../testing/run-cli.js';
import { locomoRecords } from './load-locomo.js';
import {
  buildLocomoReaderPrompt,
  locomoAdversarialReply,
  locomoDateText,
  locomoDialogText,
  locomoPrediction,
  locomoQuestion,
} from './locomo-prompts.js';

const turn = (speaker: string, dia_id: string, text: string, blip_caption?: string) => ({
  speaker,
  dia_id,
  text,
  ...(blip_caption ? { blip_caption } : {}),
});
const conversation = {
  sample_id: 'conv-x',
  conversation: {
    speaker_a: 'Ann',
    speaker_b: 'Bo',
    session_1: [turn('Ann', 'D1:1', 'I adopted a cat.', 'a photo of a cat'), turn('Bo', 'D1:2', 'Nice!')],
    session_1_date_time: '1:56 pm on 8 May, 2023',
    session_2: [
      turn('Ann', 'D2:1', 'The cat is Tom.'),
      turn('Bo', 'D2:2', 'Cute.'),
      turn('Ann', 'D2:3', 'Yes.'),
    ],
    session_2_date_time: '12:09 am on 13 September, 2023',
  },
  qa: [
    { question: 'When did Ann adopt a cat?', answer: 'May 2023', evidence: ['D1:1'], category: 2 },
    { question: 'What is Bo’s cat called?', adversarial_answer: 'Tom', evidence: ['D2:1'], category: 5 },
    { question: 'What is the cat called?', answer: 'Tom', evidence: ['D2:1'], category: 4 },
  ],
};
const { records } = locomoRecords([conversation]);
const [temporal, adversarial, singleHop] = records as [
  (typeof records)[0],
  (typeof records)[0],
  (typeof records)[0],
];
const chunk = (session: number, turnIndex: number, count = 2) => ({
  date: temporal.haystack_dates[session]!,
  turns: temporal.haystack_sessions[session]!.slice(turnIndex, turnIndex + count),
});

describe('official LoCoMo reader prompt', () => {
  it('lists retrieved dialogs as "<date>: <speaker> said, ..." in rank order, then QA_PROMPT with the date hint', () => {
    const { text } = buildLocomoReaderPrompt({ record: temporal, chunks: [chunk(1, 0), chunk(0, 0)] });
    expect(text).toBe(
      '12:09 am on 13 September, 2023: Ann said, "The cat is Tom."\n' +
        '1:56 pm on 8 May, 2023: Ann said, "I adopted a cat." and shared a photo of a cat\n\n' +
        '\nBased on the above context, write an answer in the form of a short phrase for the following question. Answer with exact words from the context whenever possible.\n\n' +
        'Question: When did Ann adopt a cat? Use DATE of CONVERSATION to answer with an approximate date. Short answer:\n',
    );
  });

  it('offers category 5 the two options with QA_PROMPT_CAT_5 and maps a letter reply back (get_cat_5_answer)', () => {
    const { text, question } = buildLocomoReaderPrompt({ record: adversarial, chunks: [chunk(1, 0)] });
    const key = question.answerKey!;
    expect([key.a, key.b].sort()).toEqual(['Not mentioned in the conversation', 'Tom']);
    expect(text).toContain(
      `\nBased on the above context, answer the following question.\n\nQuestion: What is Bo’s cat called? Select the correct answer: (a) ${key.a} (b) ${key.b}.  Short answer:\n`,
    );
    expect(locomoAdversarialReply(' A ', key)).toBe(key.a);
    expect(locomoAdversarialReply('(b)', key)).toBe(key.b);
    expect(locomoPrediction('  It Is Tom  ', question)).toBe('it is tom');
    expect(locomoQuestion(adversarial)).toEqual(question);
  });

  it('writes whole sessions in the full-conversation layout: latest session first, images on their own line', () => {
    const sessions = [0, 1].map((session) => ({
      date: singleHop.haystack_dates[session]!,
      turns: singleHop.haystack_sessions[session]!,
    }));
    const { text } = buildLocomoReaderPrompt({ record: singleHop, chunks: [sessions[1]!, sessions[0]!] });
    expect(text).toBe(
      'Below is a conversation between two people: Ann and Bo. The conversation takes place over multiple days and the date of each conversation is wriiten at the beginning of the conversation.\n\n' +
        'DATE: 12:09 am on 13 September, 2023\nCONVERSATION:\n' +
        'Ann said, "The cat is Tom."\n\nBo said, "Cute."\n\nAnn said, "Yes."\n\n' +
        'DATE: 1:56 pm on 8 May, 2023\nCONVERSATION:\n' +
        'Ann said, "I adopted a cat."\n and shared a photo of a cat.\nBo said, "Nice!"\n\n' +
        '\n\n\n\n\n\n' +
        '\nBased on the above context, write an answer in the form of a short phrase for the following question. Answer with exact words from the context whenever possible.\n\nQuestion: What is the cat called? Short answer:\n',
    );
  });
});

const conversationFile = resolve(REPO_ROOT, '../shared/datasets/locomo/locomo10-conv26.json');

describe.skipIf(!existsSync(conversationFile))(
  `LoCoMo turns and dates written back (${conversationFile})`,
  () => {
    it('gives every dialog and session date of the shared conversation as the official code writes them', () => {
      type RawTurn = { speaker: string; text: string; blip_caption?: string };
      const raw = JSON.parse(readFileSync(conversationFile, 'utf8'))[0].conversation as Record<
        string,
        unknown
      >;
      const { records: loaded } = locomoRecords(JSON.parse(readFileSync(conversationFile, 'utf8')));
      const record = loaded[0]!;
      let compared = 0;
      let equal = 0;
      record.haystack_session_ids.forEach((id, index) => {
        const number = id.split('_s').pop();
        const rawTurns = raw[`session_${number}`] as RawTurn[];
        compared += 1;
        if (locomoDateText(record.haystack_dates[index]!) === raw[`session_${number}_date_time`]) equal += 1;
        record.haystack_sessions[index]!.forEach((turn, at) => {
          const official = rawTurns[at]!;
          const expected = `${official.speaker} said, "${official.text}"${'blip_caption' in official ? ` and shared ${official.blip_caption}` : ''}`;
          compared += 1;
          if (locomoDialogText(turn) === expected) equal += 1;
        });
      });
      expect(equal).toBe(compared);
      expect(compared).toBeGreaterThan(400);
    });
  },
);
