import type { ProbeQuestion } from '../judge-rubric.js';

/** Real questions of LoCoMo conv-26 (../shared/datasets/locomo/locomo10-conv26.json), categories 1-4, none in its errata. */
export const LOCOMO_PROBES: readonly ProbeQuestion[] = [
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
