import type { Summary } from '../results/summary.js';
import type { Run } from './read-run.js';

/** A run's failed questions (`sample.error` set): they are in no mean. */
export type FailedQuestions = {
  /** How many failed; undefined when unknown (a summary.json that records no `errors`). */
  count: number | undefined;
  /** Questions counted in all (failed ones included), when known. */
  total: number | undefined;
  /** A few `question <id>: <error>` lines, in dataset order. */
  examples: string[];
};

const EXAMPLES = 3;

/** `question <id>: <message>` without a closing period, to list in a sentence. */
function example(questionId: string, message: string): string {
  const line = message.startsWith(`question ${questionId}`) ? message : `question ${questionId}: ${message}`;
  return line.replace(/\.+$/, '');
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/**
 * The failed questions of a run: counted from its samples when the run folder was read, else from
 * summary.json's `errors` (absent in old summaries: unknown) and `first_error` when recorded.
 */
export function failedQuestions(source: { summary?: Summary; run?: Run }): FailedQuestions {
  if (source.run !== undefined) {
    const failed = source.run.samples.filter((sample) => sample.error !== null);
    return {
      count: failed.length,
      total: source.run.samples.length,
      examples: failed.slice(0, EXAMPLES).map((sample) => example(sample.question_id, sample.error ?? '')),
    };
  }
  const summary = source.summary as (Summary & { first_error?: unknown }) | undefined;
  const count = isCount(summary?.errors) ? summary.errors : undefined;
  const first = summary?.first_error as { question_id?: unknown; message?: unknown } | undefined;
  const examples =
    typeof first?.question_id === 'string' && typeof first.message === 'string'
      ? [example(first.question_id, first.message)]
      : [];
  return { count, total: isCount(summary?.n) ? summary.n : undefined, examples };
}

/** `22 of 22 questions failed` (or `3 questions failed` when the total is unknown). */
export function describeFailed(failed: FailedQuestions): string {
  const count = failed.count ?? 0;
  const noun = count === 1 && failed.total === undefined ? 'question' : 'questions';
  return failed.total === undefined
    ? `${count} ${noun} failed`
    : `${count} of ${failed.total} ${failed.total === 1 ? 'question' : 'questions'} failed`;
}
