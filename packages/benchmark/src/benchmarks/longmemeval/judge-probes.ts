import type { ProbeQuestion } from '../judge-rubric.js';

/**
 * Real questions of LongMemEval (the committed sample, cut from the cleaned S file) with their
 * published gold answers; the probe answers are written for lme (a verbose answer pads the gold
 * with talk, never with another fact). None is a question the errata list.
 */
export const LONGMEMEVAL_PROBES: readonly ProbeQuestion[] = [
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
