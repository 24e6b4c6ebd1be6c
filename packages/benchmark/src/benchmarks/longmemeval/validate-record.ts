import type { z } from 'zod';
import { type LongMemEvalRecord, LongMemEvalRecordSchema } from '../longmemeval-record.js';

/**
 * Checks one parsed record against `LongMemEvalRecordSchema` and returns it typed (the same
 * object: unknown fields are kept), or throws an Error whose message names the question id (or
 * the record's position in the file, counted from 0) and the field at fault. The caller adds the
 * file.
 */
export function validateRecord(value: unknown, position: number): LongMemEvalRecord {
  if (LongMemEvalRecordSchema.safeParse(value).success) return value as LongMemEvalRecord;
  // Again, with the offending values in the issues (slower; only for a bad record).
  const result = LongMemEvalRecordSchema.safeParse(value, { reportInput: true });
  if (result.success) return value as LongMemEvalRecord;
  const questionId = (value as { question_id?: unknown } | null)?.question_id;
  const where = typeof questionId === 'string' ? `question ${questionId}` : `record ${position}`;
  const issue = result.error.issues[0]!;
  if (issue.path.length === 0) {
    const problem = issue.code === 'custom' ? issue.message : `${issue.message}${got(issue)}`;
    throw new Error(typeof questionId === 'string' ? `${where}: ${problem}` : `${where} ${problem}`);
  }
  throw new Error(`${where}: field "${fieldPath(issue.path)}" ${issue.message}${got(issue)}`);
}

/** `haystack_sessions[3][1].role` from zod's `['haystack_sessions', 3, 1, 'role']`. */
function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`,
    )
    .join('');
}

/** ` (got <value>)` for a value that is present, shortened to keep the message one line. */
function got(issue: z.core.$ZodIssue): string {
  if (issue.input === undefined) return '';
  const text = JSON.stringify(issue.input) ?? String(issue.input);
  return ` (got ${text.length > 60 ? `${text.slice(0, 57)}...` : text})`;
}
