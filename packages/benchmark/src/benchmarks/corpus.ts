import type { MemoryDocument } from '@lme/search-core';
import type { KeyedGold } from './convention-gold.js';

export type Granularity = 'session' | 'turn';
export type IndexRoles = 'user' | 'all';
export type Convention = 'official' | 'evidence';

export type CorpusOptions = {
  granularity: Granularity;
  indexRoles: IndexRoles;
  /** `round`: at turn granularity, a user turn and the assistant reply after it form one document. */
  chunkUnit?: 'turn' | 'round' | 'session';
  /** `--turn-form`: a turn's indexed text written in a form its benchmark names (`Benchmark.turnForms`). */
  turnForm?: string;
};

/** A haystack cut into documents, with the keys each metric convention grades them by. */
export type Corpus = {
  documents: MemoryDocument[];
  /**
   * The graded keys under the `official` convention, by the record's benchmark's rule
   * (`officialRule`; LongMemEval: the official scripts' corpus ids, a session id or `<session>_<n>`
   * with n the 1-based position among all turns, `answer` replaced by `noans` where not gold);
   * plain document ids when its benchmark defines no official gold.
   */
  officialIds: string[];
  /** The `official` convention's gold rule of the record's benchmark; undefined when it has none. */
  officialRule?: KeyedGold;
  /** Whether each document holds evidence under the `evidence` convention. */
  evidence: boolean[];
};
