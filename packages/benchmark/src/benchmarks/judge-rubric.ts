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
  /** Whether abstention questions (`_abs` ids) are judged with a template of their own (a plan notes it). */
  gradesAbstention?: boolean;
};
