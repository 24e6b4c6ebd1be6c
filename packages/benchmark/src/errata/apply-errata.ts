import type { Benchmark } from '../benchmarks/benchmark.js';
import { benchmarkOfRecord } from '../benchmarks/benchmark-registry.js';
import type { LongMemEvalRecord } from '../benchmarks/longmemeval-record.js';
import type { SampleErrata } from '../results/errata-summary.js';
import { type Erratum, excludes } from './errata-schema.js';
import type { LoadedErrata } from './load-errata.js';

/** How errata touched one question, as its sample records it (`sample.errata`). */

export type ErrataApplication = { record: LongMemEvalRecord; mark?: SampleErrata };

/** The evidence and category rules of a record's benchmark (`Benchmark.errata`). */
type ErrataRules = Benchmark['errata'];

/** `longmemeval-s@1`: how tables and samples name an errata file. */
export function errataLabel(errata: Pick<LoadedErrata, 'name' | 'version'>): string {
  return `${errata.name}@${errata.version}`;
}

/**
 * A function that applies the entries of `errata` to a record: corrected values replace the
 * published ones (on a copy), and the returned mark says what changed and whether the question is
 * excluded. A published value that is not the record's means the errata were written for another
 * file: an error naming the question, unless `skipMismatches` (then the entry is left out). The
 * evidence and category rules are the run's `benchmark`'s, found once; without one, each record's.
 */
export function createErrataApplier(
  errata: LoadedErrata,
  options: { skipMismatches?: boolean; benchmark?: Benchmark | undefined } = {},
): (record: LongMemEvalRecord) => ErrataApplication {
  const { benchmark } = options;
  const rulesOf = (record: LongMemEvalRecord): ErrataRules =>
    (benchmark ?? benchmarkOfRecord(record))?.errata;
  const byQuestion = new Map<string, Erratum[]>();
  for (const entry of errata.entries) {
    byQuestion.set(entry.question_id, [...(byQuestion.get(entry.question_id) ?? []), entry]);
  }
  const label = errataLabel(errata);
  return (original) => {
    const entries = byQuestion.get(original.question_id);
    if (!entries) return { record: original };
    let record: LongMemEvalRecord = { ...original };
    const applied: Erratum[] = [];
    for (const entry of entries) {
      const rules = rulesOf(record);
      const mismatch = publishedMismatch(record, entry, rules);
      if (mismatch !== undefined) {
        if (options.skipMismatches) continue;
        throw new Error(
          `Errata ${label} do not fit this dataset: question ${record.question_id} ${mismatch} (${errata.path}); pass the errata written for this file.`,
        );
      }
      applied.push(entry);
      if (!excludes(entry)) record = corrected(record, entry, rules);
    }
    if (applied.length === 0) return { record: original };
    return {
      record,
      mark: {
        errata: label,
        kinds: [...new Set(applied.map((entry) => entry.kind))],
        fields: [...new Set(applied.map((entry) => entry.field))],
        excluded: applied.some(excludes),
      },
    };
  };
}

const same = (left: unknown, right: unknown) => JSON.stringify(left) === JSON.stringify(right);

/** Why the record does not hold the entry's published value, or undefined when it does. */
function publishedMismatch(
  record: LongMemEvalRecord,
  entry: Erratum,
  rules: ErrataRules,
): string | undefined {
  switch (entry.field) {
    case 'answer':
      return String(record.answer) === String(entry.published)
        ? undefined
        : `has answer ${JSON.stringify(record.answer)}, not the published ${JSON.stringify(entry.published)}`;
    case 'answer_session_ids':
      return same(record.answer_session_ids, entry.published)
        ? undefined
        : `has answer_session_ids ${JSON.stringify(record.answer_session_ids)}, not ${JSON.stringify(entry.published)}`;
    case 'evidence': {
      const evidence = rules?.evidence(record);
      return same(evidence, entry.published)
        ? undefined
        : `has evidence ${JSON.stringify(evidence ?? null)}, not ${JSON.stringify(entry.published)}`;
    }
    case 'category': {
      const category = rules?.category(record);
      return category === entry.published
        ? undefined
        : `is of type ${record.question_type}, not category ${entry.published}`;
    }
    case 'haystack_session_ids': {
      const { session_id: sessionId, positions } = entry.published;
      const wrong = positions.filter((position) => record.haystack_session_ids[position] !== sessionId);
      return wrong.length === 0
        ? undefined
        : `does not hold session ${sessionId} at position ${wrong.join(', ')}`;
    }
  }
}

/** The record with one entry's corrected value in place (never the `exclude` entries). */
function corrected(record: LongMemEvalRecord, entry: Erratum, rules: ErrataRules): LongMemEvalRecord {
  switch (entry.field) {
    case 'answer':
      return entry.corrected === 'exclude' ? record : { ...record, answer: entry.corrected };
    case 'answer_session_ids': {
      if (entry.corrected === 'exclude') return record;
      // Gold no retriever can rank would be scored as found under the official convention.
      const absent = entry.corrected.filter((id) => !record.haystack_session_ids.includes(id));
      if (absent.length > 0) {
        throw new Error(
          `Errata entry for question ${record.question_id} moves its evidence to ${absent.length === 1 ? 'a session' : 'sessions'} its haystack does not hold (${absent.join(', ')}); correct the errata file, or exclude the question.`,
        );
      }
      const kept = new Set(entry.corrected);
      // Sessions that are no longer evidence lose their has_answer marks (turn-level gold).
      const sessions = record.haystack_sessions.map((turns, index) =>
        kept.has(record.haystack_session_ids[index]!) || !turns.some((turn) => turn.has_answer)
          ? turns
          : turns.map(({ has_answer: _dropped, ...turn }) => turn),
      );
      return { ...record, answer_session_ids: [...entry.corrected], haystack_sessions: sessions };
    }
    case 'evidence': {
      if (entry.corrected === 'exclude') return record;
      // Unreachable: an entry whose published evidence the record does not hold is never applied.
      if (!rules)
        throw new Error(`Errata evidence of question ${record.question_id}: its benchmark has no evidence.`);
      return rules.correctEvidence(record, entry.corrected);
    }
    case 'category':
      return record;
    case 'haystack_session_ids': {
      const drop = new Set(entry.published.positions.filter((position) => position !== entry.corrected.keep));
      const keep = (_: unknown, index: number) => !drop.has(index);
      return {
        ...record,
        haystack_session_ids: record.haystack_session_ids.filter(keep),
        haystack_dates: record.haystack_dates.filter(keep),
        haystack_sessions: record.haystack_sessions.filter(keep),
      };
    }
  }
}
