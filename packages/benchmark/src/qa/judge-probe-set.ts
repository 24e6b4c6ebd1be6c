import type { JudgeRecord } from '../benchmarks/judge-rubric.js';

/**
 * What a probe answer is: `vague` is on topic but does not give the answer, `wrong` is specific
 * and wrong, `verbose` is right but buried in padding, `correct` is the plain right answer (the
 * control: a judge that rejects it is not lenient, it is broken).
 */
export const PROBE_KINDS = ['vague', 'wrong', 'verbose', 'correct'] as const;
export type ProbeKind = (typeof PROBE_KINDS)[number];

/** Whether a sound judge accepts a kind: it should reject vague and wrong answers, accept the others. */
export const SOUND_JUDGE_ACCEPTS = {
  vague: false,
  wrong: false,
  verbose: true,
  correct: true,
} as const satisfies Record<ProbeKind, boolean>;

/** One real question with one answer of each kind. */
export type ProbeQuestion = {
  /** Where the question is from (dataset file and question id as lme names it). */
  source: string;
  record: JudgeRecord;
  answers: Record<ProbeKind, string>;
};

/**
 * Real questions of LongMemEval (the committed sample, cut from the cleaned S file) with their
 * published gold answers; the probe answers are written for lme (a verbose answer pads the gold
 * with talk, never with another fact). None is a question the errata list.
 */
const LONGMEMEVAL_PROBES: readonly ProbeQuestion[] = [
  {
    source: 'LongMemEval S e47becba',
    record: {
      question_id: 'e47becba',
      question_type: 'single-session-user',
      question: 'What degree did I graduate with?',
      answer: 'Business Administration',
    },
    answers: {
      vague:
        'You graduated with a degree that you have mentioned in our conversations about your studies and career.',
      wrong: 'You graduated with a degree in Computer Science.',
      verbose:
        'Looking back over everything you have shared about your education, your job search and the courses you took, the degree you graduated with was in Business Administration, which you brought up when we discussed your career plans.',
      correct: 'Business Administration.',
    },
  },
  {
    source: 'LongMemEval S 118b2229',
    record: {
      question_id: '118b2229',
      question_type: 'single-session-user',
      question: 'How long is my daily commute to work?',
      answer: '45 minutes each way',
    },
    answers: {
      vague: 'Your daily commute to work takes a while, as you mentioned when we talked about your routine.',
      wrong: 'Your commute is 20 minutes each way.',
      verbose:
        'Based on what you told me in our earlier conversations about your daily routine, your commute to work is 45 minutes each way, so about an hour and a half of travel in total on a working day.',
      correct: '45 minutes each way.',
    },
  },
  {
    source: 'LongMemEval S 6a1eabeb',
    record: {
      question_id: '6a1eabeb',
      question_type: 'knowledge-update',
      question: 'What was my personal best time in the charity 5K run?',
      answer: '25 minutes and 50 seconds (or 25:50)',
    },
    answers: {
      vague: 'You set a personal best in the charity 5K run that you were proud of.',
      wrong: 'Your personal best in the charity 5K run was 27 minutes and 12 seconds.',
      verbose:
        'Going by the latest figure you gave me for the charity 5K run, which is the one that counts, your personal best time was 25 minutes and 50 seconds (25:50). Well done on it!',
      correct: '25:50.',
    },
  },
  {
    source: 'LongMemEval S 830ce83f',
    record: {
      question_id: '830ce83f',
      question_type: 'knowledge-update',
      question: 'Where did Rachel move to after her recent relocation?',
      answer: 'the suburbs',
    },
    answers: {
      vague: 'Rachel moved to a new place after her relocation.',
      wrong: 'Rachel moved to Chicago.',
      verbose:
        'From what you shared about Rachel in our conversations, the latest news is that after her most recent relocation she moved out to the suburbs rather than staying where she was before.',
      correct: 'The suburbs.',
    },
  },
  {
    source: 'LongMemEval S c4f10528',
    record: {
      question_id: 'c4f10528',
      question_type: 'single-session-assistant',
      question:
        "I'm planning to visit Bandung again and I was wondering if you could remind me of the name of that restaurant in Cihampelas Walk that serves a great Nasi Goreng?",
      answer: 'Miss Bee Providore',
    },
    answers: {
      vague: 'It was a popular restaurant in Cihampelas Walk known for its Indonesian dishes.',
      wrong: 'The restaurant was Kampung Daun.',
      verbose:
        'Of course! When we talked about places to eat in Bandung, the restaurant I recommended in Cihampelas Walk for a great Nasi Goreng was Miss Bee Providore. Enjoy your trip, and do try their other dishes too!',
      correct: 'Miss Bee Providore.',
    },
  },
];

/** Real questions of LoCoMo conv-26 (../shared/datasets/locomo/locomo10-conv26.json), categories 1-4, none in its errata. */
const LOCOMO_PROBES: readonly ProbeQuestion[] = [
  {
    source: 'LoCoMo conv-26 q4 (category 1)',
    record: {
      question_id: 'conv-26_q4',
      question_type: 'locomo-1-multi-hop',
      question: 'What did Caroline research?',
      answer: 'Adoption agencies',
    },
    answers: {
      vague: 'Caroline researched something related to her plans for the future.',
      wrong: 'Caroline researched art schools.',
      verbose:
        'Caroline spent some time looking into her options for building a family; in particular she was researching adoption agencies, especially ones that support LGBTQ+ people.',
      correct: 'Adoption agencies.',
    },
  },
  {
    source: 'LoCoMo conv-26 q17 (category 2)',
    record: {
      question_id: 'conv-26_q17',
      question_type: 'locomo-2-temporal',
      question: 'When did Melanie sign up for a pottery class?',
      answer: '2 July 2023',
    },
    answers: {
      vague: 'Melanie signed up for a pottery class during the summer.',
      wrong: 'Melanie signed up for a pottery class on 15 August 2023.',
      verbose:
        'Melanie told Caroline on 3 July 2023 that she had signed up for a pottery class the day before, so she signed up on 2 July 2023; she described it as a kind of therapy.',
      correct: '2 July 2023.',
    },
  },
  {
    source: 'LoCoMo conv-26 q93 (category 4)',
    record: {
      question_id: 'conv-26_q93',
      question_type: 'locomo-4-single-hop',
      question: "What country is Caroline's grandma from?",
      answer: 'Sweden',
    },
    answers: {
      vague: "Caroline's grandma is from her home country in Europe.",
      wrong: "Caroline's grandma is from Norway.",
      verbose:
        "Caroline's grandma, who gave her the necklace that stands for love, faith and strength, is from Caroline's home country, Sweden.",
      correct: 'Sweden.',
    },
  },
  {
    source: 'LoCoMo conv-26 q130 (category 4)',
    record: {
      question_id: 'conv-26_q130',
      question_type: 'locomo-4-single-hop',
      question: 'Which song motivates Caroline to be courageous?',
      answer: 'Brave by Sara Bareilles',
    },
    answers: {
      vague: 'A pop song about courage that means a lot to her.',
      wrong: '"Roar" by Katy Perry.',
      verbose:
        'The song that motivates Caroline to be courageous is "Brave" by Sara Bareilles; she says it is about being courageous and fighting for what is right, and it reminds her of the progress she has made.',
      correct: '"Brave" by Sara Bareilles.',
    },
  },
];

/** The probe questions each judge rubric grades: its own benchmark's questions. */
export const JUDGE_PROBES = {
  longmemeval: LONGMEMEVAL_PROBES,
  'locomo-llm': LOCOMO_PROBES,
} as const satisfies Record<string, readonly ProbeQuestion[]>;
