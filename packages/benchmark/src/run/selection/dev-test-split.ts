import { createHash } from 'node:crypto';
import type { LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';

/**
 * The dev/test protocol (issue 19). Every default and preset setting is chosen on `dev`; README
 * and docs report `test`. A dataset is split by question id, never by position:
 *
 * - strata: the question type, and within it abstention (`_abs` ids) apart from the rest, so each
 *   type keeps its abstention questions in both parts in proportion;
 * - within a stratum the questions are ranked by sha256(`DEV_TEST_SEED` \0 question id) and the
 *   first round(`DEV_FRACTION` × size) are dev (at least one when the stratum has two or more);
 * - the same file in any order, or any file holding the same questions, splits the same way, and
 *   the split does not depend on any other selection flag (it is computed over the whole file).
 *
 * The seed is fixed on purpose: a split that moves with `--seed` would let test questions leak
 * into the choices. Changing it (or the fraction) starts a new protocol.
 */
export const DEV_TEST_SEED = 'lme-dev-test-1';
export const DEV_FRACTION = 0.3;

export const SPLITS = ['dev', 'test', 'all'] as const;
export type SplitName = (typeof SPLITS)[number];

export type DevTestSplitOptions = { seed?: string; fraction?: number };

/** The stratum of a question: its type, with abstention questions apart. */
export function stratumOf(record: Pick<LongMemEvalRecord, 'question_id' | 'question_type'>): string {
  return `${record.question_type}${record.question_id.endsWith('_abs') ? '\0abstention' : ''}`;
}

/** The question ids of the dev part of `records` (the rest are test). */
export function devQuestionIds(
  records: readonly Pick<LongMemEvalRecord, 'question_id' | 'question_type'>[],
  options: DevTestSplitOptions = {},
): Set<string> {
  const seed = options.seed ?? DEV_TEST_SEED;
  const fraction = options.fraction ?? DEV_FRACTION;
  if (!(fraction >= 0 && fraction <= 1))
    throw new Error(`dev/test split: fraction ${fraction} is not in [0, 1].`);
  const strata = new Map<string, { id: string; key: string }[]>();
  for (const record of records) {
    const key = createHash('sha256').update(`${seed}\0${record.question_id}`).digest('hex');
    const stratum = stratumOf(record);
    const members = strata.get(stratum) ?? [];
    members.push({ id: record.question_id, key });
    strata.set(stratum, members);
  }
  const dev = new Set<string>();
  for (const members of strata.values()) {
    members.sort((left, right) => (left.key < right.key ? -1 : left.key > right.key ? 1 : 0));
    let quota = Math.round(members.length * fraction);
    if (quota === 0 && members.length >= 2 && fraction > 0) quota = 1;
    for (const member of members.slice(0, quota)) dev.add(member.id);
  }
  return dev;
}

/** Whether a question belongs to `split`, given the dev ids of its dataset. */
export function inSplit(split: SplitName, questionId: string, devIds: ReadonlySet<string>): boolean {
  if (split === 'all') return true;
  return devIds.has(questionId) === (split === 'dev');
}

/** `--split` value → split name, failing with the known names. */
export function parseSplit(text: string): SplitName {
  const name = text.trim() as SplitName;
  if (!SPLITS.includes(name)) throw new Error(`--split expects one of ${SPLITS.join(', ')} (got "${text}").`);
  return name;
}
