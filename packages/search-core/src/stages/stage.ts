import type { DedupMerge } from '../core/dedup.js';
import type { MemoryDocument, RetrievalHit, SearchOptions } from '../core/retriever.js';
import type { QueryUnderstanding } from '../query/understand-query.js';
import type { DenseScorer } from '../retrievers/dense-scorer.js';
import type { MmrDecision } from './mmr.js';
import type { SignalWeights } from './multi-signal-ranking.js';

export type StageTrace = {
  /** The base retriever's top hits (the pool the stages act on) before any stage, best first. */
  basePool: RetrievalHit[];
  /** The stages applied, by their names, in order. */
  stages: string[];
  /** Milliseconds per step: `retrieve` (the base retriever), then each stage applied. */
  timings: Record<string, number>;
  /** What near-duplicate merging folded (empty when it did not run). */
  merges: DedupMerge[];
  understanding?: QueryUnderstanding;
  /** The signal weights multi-signal used (its query class's row). */
  signalWeights?: SignalWeights;
  /** One decision per hit MMR saw, in its input order, with the hit's document index. */
  mmr?: (MmrDecision & { document: number })[];
};

/** What a stage sees of one search besides the pool. */
export type StageContext = {
  readonly search: SearchOptions;
  /** The indexed documents (a hit's `document` indexes them). */
  readonly documents: readonly MemoryDocument[];
  /** The number of hits the pipeline returns (K). */
  readonly finalK: number;
  /** Document vectors, for a stage that `needsVectors`. */
  readonly dense: DenseScorer | undefined;
  /** The search's trace: a stage records what `explain` reports of it here. */
  readonly trace: StageTrace;
};

/**
 * One step between the base retriever and the reader: it takes the candidate pool (best first)
 * and returns it re-ranked, merged or cut. `withStages` applies a list of them in order.
 */
export type Stage = {
  /** The name the trace, the timings and the staged retriever's id give it (`multi_signal`). */
  readonly name: string;
  /** It compares document vectors (a dense scorer must be given). */
  readonly needsVectors?: boolean;
  apply(pool: RetrievalHit[], context: StageContext): Promise<RetrievalHit[]> | RetrievalHit[];
};
