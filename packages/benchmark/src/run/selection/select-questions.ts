import { createHash } from 'node:crypto';
import type { LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import { devQuestionIds, inSplit, type SplitName } from './dev-test-split.js';

export type Shard = { index: number; count: number };

/** What selecting a question looks at: its id and type, never its haystack. */
export type QuestionHead = Pick<LongMemEvalRecord, 'question_id' | 'question_type'>;

export type Selection = {
  questionIds?: readonly string[];
  questionTypes?: readonly string[];
  /** 1-based shard `index` of `count`: questions whose dataset position % count === index - 1. */
  shard?: Shard;
  /** At most this many questions, or this share of them (0 < limit < 1), stratified by question type. */
  limit?: number;
  seed: number;
  /** Dev/test protocol part (run/selection/dev-test-split.ts); decided over the whole file, so it needs every record. */
  split?: SplitName;
};

/** Whether a selection needs every record before choosing (a stratified limit does). */
export function needsAllRecords(selection: Selection): boolean {
  return selection.limit !== undefined || (selection.split !== undefined && selection.split !== 'all');
}

/**
 * The records of the selection's dev/test part (all of them without a split), decided over every
 * record of the file before any other filter.
 */
export function splitCandidates<T extends { record: QuestionHead }>(
  selection: Selection,
  candidates: readonly T[],
): T[] {
  const split = selection.split;
  if (split === undefined || split === 'all') return [...candidates];
  const dev = devQuestionIds(candidates.map(({ record }) => record));
  return candidates.filter(({ record }) => inSplit(split, record.question_id, dev));
}

/**
 * The dataset positions a selection that needs every record chooses (`needsAllRecords`): its
 * dev/test part, the per-record filters, then the stratified limit; in dataset order.
 */
export function chosenPositions(selection: Selection, heads: readonly QuestionHead[]): number[] {
  const candidates = splitCandidates(
    selection,
    heads.map((record, position) => ({ record, position })),
  ).filter(({ record, position }) => acceptsRecord(selection, record, position));
  return selection.limit === undefined
    ? candidates.map(({ position }) => position)
    : stratifiedPositions(candidates, limitCount(selection.limit, candidates.length), selection.seed);
}

/** `--limit` as a count: a share (0 < limit < 1) of `candidates` questions, rounded, at least 1. */
export function limitCount(limit: number, candidates: number): number {
  return limit < 1 ? Math.max(1, Math.round(limit * candidates)) : limit;
}

/** The filters that decide per record, in any order: ids, types, shard. */
export function acceptsRecord(selection: Selection, record: QuestionHead, position: number): boolean {
  if (selection.questionIds && !selection.questionIds.includes(record.question_id)) return false;
  if (selection.questionTypes && !selection.questionTypes.includes(record.question_type)) return false;
  if (selection.shard && position % selection.shard.count !== selection.shard.index - 1) return false;
  return true;
}

/**
 * A stratified, seeded subset of `limit` questions: each question type gets a share proportional
 * to its size (largest remainders settle the rounding), and within a type the questions with the smallest sha256(seed, id) are taken.
 * Returns the chosen positions in dataset order. The same seed and data give the same subset.
 */
export function stratifiedPositions(
  candidates: readonly { record: QuestionHead; position: number }[],
  limit: number,
  seed: number,
): number[] {
  if (limit >= candidates.length) return candidates.map((candidate) => candidate.position);
  const byType = new Map<string, { position: number; key: string }[]>();
  for (const { record, position } of candidates) {
    const key = createHash('sha256').update(`${seed}\0${record.question_id}`).digest('hex');
    byType.set(record.question_type, [...(byType.get(record.question_type) ?? []), { position, key }]);
  }
  const types = [...byType.keys()];
  const exact = types.map((type) => (byType.get(type)!.length / candidates.length) * limit);
  const quota = exact.map((value) => Math.floor(value));
  const order = types
    .map((_, index) => index)
    .sort((left, right) => exact[right]! - quota[right]! - (exact[left]! - quota[left]!) || left - right);
  let remaining = limit - quota.reduce((sum, value) => sum + value, 0);
  for (const index of order) {
    if (remaining === 0) break;
    quota[index]!++;
    remaining--;
  }
  const chosen: number[] = [];
  types.forEach((type, index) => {
    const members = [...byType.get(type)!].sort((left, right) => (left.key < right.key ? -1 : 1));
    chosen.push(...members.slice(0, quota[index]).map((member) => member.position));
  });
  return chosen.sort((left, right) => left - right);
}

/** `2/4` → {index: 2, count: 4}. */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) {
    throw new Error(`--shard expects i/n with 1 <= i <= n, such as 1/4 (got "${text}")`);
  }
  return { index, count };
}
