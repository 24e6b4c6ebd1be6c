import type { MemoryDocument, RetrievalHit } from '../core/retriever.js';
import { wordsTokenizer } from '../lexical/tokenizer.js';
import type { QueryClass } from '../query/query-class.js';
import { parseLongMemEvalDate } from '../query/temporal-scope.js';
import type { QueryUnderstanding } from '../query/understand-query.js';
import { minMaxNormalize, ranksOf } from '../retrievers/fusion.js';

export type SignalName = 'semantic' | 'entity' | 'temporal' | 'recency';

export type SignalWeights = Readonly<Record<SignalName, number>>;

/**
 * Default weights per query class (each row sums to 1). Semantic similarity (the retriever's own
 * fused score) carries most of every class; the rest follows what the class asks for:
 * - factual: names matter ("Where did I redeem a $5 coupon…"), time only when the question names it;
 * - procedural: how-to answers are topical; a little recency for the user's current setup;
 * - exploratory: recommendations follow the user's latest preferences, so recency weighs most here;
 * - analytical: counts, orders and comparisons need every mention of the named things in the
 *   named span, so entity and temporal weigh most here.
 * A signal that is constant over the hits (no query entities, no temporal scope: 0.5 everywhere)
 * leaves the order of the others unchanged.
 */
export const DEFAULT_SIGNAL_WEIGHTS = {
  factual: { semantic: 0.7, entity: 0.15, temporal: 0.1, recency: 0.05 },
  procedural: { semantic: 0.75, entity: 0.1, temporal: 0.05, recency: 0.1 },
  exploratory: { semantic: 0.6, entity: 0.1, temporal: 0.05, recency: 0.25 },
  analytical: { semantic: 0.55, entity: 0.2, temporal: 0.2, recency: 0.05 },
} as const satisfies Record<QueryClass, SignalWeights>;

/** Temporal relevance outside the scope decays as exp(-days outside / this). */
export const TEMPORAL_DECAY_DAYS = 30;
/** Recency decays as exp(-age in days / this). */
export const RECENCY_DECAY_DAYS = 90;
/** The temporal signal when the question names no time (or the document has no date). */
export const NEUTRAL_TEMPORAL = 0.5;

export type MultiSignalOptions = {
  hits: readonly RetrievalHit[];
  /** The documents the hits index into. */
  documents: readonly MemoryDocument[];
  understanding: QueryUnderstanding;
  /** Overrides of the default weights, per class (missing signals keep their default). */
  weightsByClass?: Partial<Record<QueryClass, Partial<SignalWeights>>>;
  /**
   * Semantic score of every document in corpus order (e.g. a dense route); when omitted the
   * incoming hit score (the fused score) is the semantic signal. Min-max normalised over the hits.
   */
  semanticScores?: ArrayLike<number>;
  /** Recency is measured back from here; defaults to the question date of `understanding`. */
  now?: Date;
};

const DAY_MS = 86_400_000;

/**
 * Re-scores hits by a weighted sum of four signals, each in [0, 1]:
 * - `semantic`: the incoming score (or `semanticScores`), min-max normalised over the hits;
 * - `entity`: the share of the query's entities found in the document: an entity is found when
 *   its stems (the `words` tokenizer: lowercase, stop words out, Porter stems) occur contiguously
 *   in the document's stems, so "Korean restaurants" finds "korean restaurant";
 * - `temporal`: 1 inside the query's temporal scope, exp(-days outside / 30) outside it,
 *   0.5 when the query has no scope or the document no date;
 * - `recency`: exp(-age in days / 90), age back from `now` (never negative); 0.5 without a date.
 * Each hit's `routes` gains `signal_<name>` (score = the signal, rank = rank by that signal among
 * the hits, ties in input order) and `multi_signal`; the hit's score becomes the weighted sum and
 * the hits come back sorted by it (ties keep input order).
 */
export function rankMultiSignal(options: MultiSignalOptions): RetrievalHit[] {
  const { hits, documents, understanding } = options;
  const queryClass = understanding.queryClass;
  const weights: SignalWeights = {
    ...DEFAULT_SIGNAL_WEIGHTS[queryClass],
    ...options.weightsByClass?.[queryClass],
  };
  const now = options.now ?? understanding.referenceDate;
  const entityStems = understanding.entities
    .map((entity) => wordsTokenizer.tokenize(entity))
    .filter((stems) => stems.length > 0);
  const scope = understanding.temporalScope;

  const incoming = hits.map((hit) =>
    options.semanticScores ? options.semanticScores[hit.document]! : hit.score,
  );
  const signals: Record<SignalName, Float64Array> = {
    semantic: minMaxNormalize(incoming),
    entity: new Float64Array(hits.length),
    temporal: new Float64Array(hits.length),
    recency: new Float64Array(hits.length),
  };
  hits.forEach((hit, position) => {
    const document = documents[hit.document];
    if (!document)
      throw new Error(`multi-signal ranking: hit ${hit.id} points at no document (${hit.document})`);
    signals.entity[position] = entityOverlap(entityStems, wordsTokenizer.tokenize(document.text));
    const date = document.date === undefined ? undefined : parseLongMemEvalDate(document.date);
    signals.temporal[position] = scope && date ? temporalRelevance(date, scope) : NEUTRAL_TEMPORAL;
    signals.recency[position] = date
      ? Math.exp(-Math.max(0, (now.getTime() - date.getTime()) / DAY_MS) / RECENCY_DECAY_DAYS)
      : NEUTRAL_TEMPORAL;
  });

  const names = Object.keys(signals) as SignalName[];
  const ranks = Object.fromEntries(names.map((name) => [name, ranksOf(signals[name])])) as Record<
    SignalName,
    Int32Array
  >;
  const final = new Float64Array(hits.length);
  for (let position = 0; position < hits.length; position++)
    for (const name of names) final[position]! += weights[name] * signals[name][position]!;
  const finalRanks = ranksOf(final);

  const rescored = hits.map((hit, position) => {
    const routes: RetrievalHit['routes'] = { ...hit.routes };
    for (const name of names)
      routes[`signal_${name}`] = { score: signals[name][position]!, rank: ranks[name][position]! };
    routes['multi_signal'] = { score: final[position]!, rank: finalRanks[position]! };
    return { ...hit, score: final[position]!, routes };
  });
  return rescored
    .map((hit, position) => ({ hit, position }))
    .sort((left, right) => right.hit.score - left.hit.score || left.position - right.position)
    .map(({ hit }) => hit);
}

/** 1 inside [start, end], exp(-days outside / 30) outside. */
export function temporalRelevance(date: Date, scope: { start: Date; end: Date }): number {
  const time = date.getTime();
  const outside =
    time < scope.start.getTime()
      ? scope.start.getTime() - time
      : time > scope.end.getTime()
        ? time - scope.end.getTime()
        : 0;
  return Math.exp(-outside / DAY_MS / TEMPORAL_DECAY_DAYS);
}

/** Share of entities (as stem sequences) occurring contiguously in the document's stems; 0 with none. */
export function entityOverlap(
  entities: readonly (readonly string[])[],
  documentStems: readonly string[],
): number {
  if (entities.length === 0) return 0;
  let found = 0;
  for (const entity of entities) if (containsSequence(documentStems, entity)) found++;
  return found / entities.length;
}

function containsSequence(haystack: readonly string[], needle: readonly string[]): boolean {
  outer: for (let start = 0; start + needle.length <= haystack.length; start++) {
    for (let offset = 0; offset < needle.length; offset++)
      if (haystack[start + offset] !== needle[offset]) continue outer;
    return true;
  }
  return false;
}
