import { orderQuestionTypes } from './benchmark-registry.js';
import { isAbstention, type LongMemEvalRecord } from './longmemeval-record.js';

export type StatisticsRow = {
  label: string;
  questions: number;
  abstention: number;
  sessions: number;
  turns: number;
  userTurns: number;
  evidenceSessions: number;
};

/** Counts per question type and in total, as `lme datasets info` prints them. */
export function datasetStatistics(records: readonly LongMemEvalRecord[]) {
  const rowOf = (label: string, subset: readonly LongMemEvalRecord[]): StatisticsRow => ({
    label,
    questions: subset.length,
    abstention: subset.filter((record) => isAbstention(record.question_id)).length,
    sessions: sum(subset, (record) => record.haystack_sessions.length),
    turns: sum(subset, (record) => record.haystack_sessions.flat().length),
    userTurns: sum(
      subset,
      (record) => record.haystack_sessions.flat().filter((turn) => turn.role === 'user').length,
    ),
    evidenceSessions: sum(subset, (record) => record.answer_session_ids.length),
  });
  const rows = orderQuestionTypes(records.map((record) => record.question_type))
    .map((type) =>
      rowOf(
        type,
        records.filter((record) => record.question_type === type),
      ),
    )
    .filter((row) => row.questions > 0)
    .concat(rowOf('total', records));
  const repeatedSessionHaystacks = records.filter(
    (record) => new Set(record.haystack_session_ids).size !== record.haystack_session_ids.length,
  ).length;
  const distinctUserTurns = new Set(
    records.flatMap((record) =>
      record.haystack_sessions.flat().flatMap((turn) => (turn.role === 'user' ? [turn.content] : [])),
    ),
  ).size;
  return { rows, repeatedSessionHaystacks, distinctUserTurns };
}

function sum<T>(items: readonly T[], value: (item: T) => number): number {
  return items.reduce((total, item) => total + value(item), 0);
}
