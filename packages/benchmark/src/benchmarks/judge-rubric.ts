import type { LongMemEvalRecord } from './longmemeval-record.js';

/** What a judge reads of a question. */
export type JudgeRecord = Pick<LongMemEvalRecord, 'question_id' | 'question_type' | 'question' | 'answer'>;

/** One judge rubric: the prompt for a question and answer, and how a reply is read. */
export type JudgeRubricDefinition = {
  description: string;
  prompt(record: JudgeRecord, hypothesis: string): string;
  /** true correct, false wrong, null unreadable; default parseJudgeReply (official `'yes' in reply`). */
  parse?(reply: string): boolean | null;
  /** `max_tokens`; default 10, the official judge's. */
  maxTokens?: number;
  /**
   * Whether the rubric grades this question at all; default every question. A question it does not
   * grade gets no judge call and no accuracy (Mem0's LoCoMo judge skips adversarial questions).
   */
  grades?(record: JudgeRecord): boolean;
  /**
   * Real questions of its benchmark with an answer of each probe kind (`lme judge-probe` grades
   * them to see whether a judge model is sound with this rubric); none: no probe for it.
   */
  probes?: readonly ProbeQuestion[];
  /** Whether abstention questions (`_abs` ids) are judged with a template of their own (a plan notes it). */
  gradesAbstention?: boolean;
};

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
