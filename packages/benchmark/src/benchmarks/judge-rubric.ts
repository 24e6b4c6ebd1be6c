import type { LongMemEvalRecord } from './longmemeval-record.js';

/** What a judge reads of a question. */
export type JudgeRecord = Pick<LongMemEvalRecord, 'question_id' | 'question_type' | 'question' | 'answer'>;

/**
 * One judge rubric with a yes/no verdict (the special case of a score: yes 1, no 0): the prompt for
 * a question and answer, and how a reply is read.
 */
export type BinaryJudgeRubricDefinition = {
  /** Absent or `binary`: one verdict per question. */
  kind?: 'binary';
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

/** One item of a question's rubric, as the judge is asked about it (one judge call each). */
export type JudgeRubricItem = {
  /** The criterion, as the benchmark names it (e.g. the rubric line itself); shown in reports. */
  name: string;
  /** The whole prompt sent for this item (one user message). */
  prompt: string;
  /** The most the item can score; default 1. */
  max?: number;
};

/** A judge's reading of one item's reply: `score` in [0, max]; `reason` when the reply gives one. */
export type JudgeItemReading = { score: number; reason?: string };

/**
 * A rubric with partial credit (BEAM's judge): the question's items, one judge call each, and how an
 * item's reply is read. The question's score is `combine` of the items (default: the mean of
 * score / max, BEAM's `sum(score) / len(rubric)` when every max is 1), a number in [0, 1]. An item
 * whose reply cannot be read leaves the question's score null (a judge error, as a yes/no judge's
 * unreadable reply).
 */
export type GradedJudgeRubricDefinition = {
  kind: 'graded';
  description: string;
  /** The items graded for this question; none is a judge error naming the question. */
  items(record: JudgeRecord, hypothesis: string): JudgeRubricItem[];
  /** null when the reply cannot be read; a score outside [0, max] is a judge error too. */
  parseItem(reply: string, item: JudgeRubricItem): JudgeItemReading | null;
  /** The question's score from its items' (read) scores; default mean of score / max. Must be in [0, 1]. */
  combine?(items: readonly { name: string; score: number; max: number }[]): number;
  /** `max_tokens` of every item call; default 10 (the official LongMemEval judge's): set it. */
  maxTokens?: number;
  /** As for a yes/no rubric: a question it does not grade gets no call and no score. */
  grades?(record: JudgeRecord): boolean;
  /** As for a yes/no rubric: real questions `lme judge-probe` grades with it; none: no probe. */
  probes?: readonly ProbeQuestion[];
  /** Whether abstention questions are judged with a template of their own (a plan notes it). */
  gradesAbstention?: boolean;
};

/** One judge rubric: a yes/no verdict or a graded score with items. */
export type JudgeRubricDefinition = BinaryJudgeRubricDefinition | GradedJudgeRubricDefinition;

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
