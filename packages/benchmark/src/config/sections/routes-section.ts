import { z } from 'zod';
import type { RunOptionDeclaration } from '../../components/option-declaration.js';

/** The pipeline's routes (BM25 and dense) and how they are fused. */
export const ROUTES_SHAPE = {
  fusion: z.enum(['rrf', 'weighted', 'combmnz']).default('weighted'),
  /** Score normalisation of the weighted and CombMNZ fusions (search-core score-normalization.ts); unset: min-max. */
  fusionNormalization: z.enum(['min-max', 'z-score', 'rank']).optional(),
  /** Weighted/CombMNZ: scale the route weights per query by each route's confidence (top-score z-score). */
  adaptiveWeights: z.boolean().optional(),
  /** Exponent of the confidence ratio in `adaptiveWeights`; unset: 1. */
  adaptivePower: z.number().min(0).max(8).optional(),
  /**
   * Weighted/CombMNZ: the dense route's score gap (best minus median cosine) at which it keeps its
   * full weight, at half of it none, linearly between; BM25 takes what it gives up. In the
   * embedder's cosine units; unset or 0: off.
   */
  denseGap: z.number().min(0).max(2).optional(),
  /** Dense route of `--retriever hybrid|dense`: weight of a turn's neighbour turns in its score; unset: 0 (off). */
  denseNeighbours: z.number().min(0).max(1).optional(),
  /**
   * Hybrid, dense, BM25 and session-aware stage 1: documents (sessions) dated inside the span of
   * time the question names gain this share of the score spread; unset or 0: off.
   */
  timeBoost: z.number().min(0).max(1).optional(),
  /** BM25's term-frequency saturation k1 (hybrid, BM25 and session-aware routes); unset: rank_bm25's 1.5. */
  bm25K1: z.number().min(0).max(10).optional(),
  /** BM25's length normalisation b, 0 (none) to 1 (full); unset: rank_bm25's 0.75. */
  bm25B: z.number().min(0).max(1).optional(),
  /**
   * BM25 pseudo-relevance feedback (bm25, hybrid, session-aware stage 1): the best terms of the
   * first ranking's top `bm25FeedbackDocs` documents join the BM25 query, weighing together
   * `bm25FeedbackWeight` (unset: 0.5) times the query's own terms; unset or 0: off.
   */
  bm25FeedbackDocs: z.number().int().min(0).max(100).optional(),
  bm25FeedbackWeight: z.number().min(0).max(10).optional(),
  /** With BM25 feedback: the feedback documents keep their first places; the second pass orders the rest. */
  bm25FeedbackKeep: z.boolean().optional(),
  rrfK: z.number().min(1).default(60),
  /** BM25 weight, dense weight for the weighted fusion. */
  weights: z.tuple([z.number().min(0), z.number().min(0)]).default([0.3, 0.7]),
  /**
   * Pseudo-relevance feedback on the dense route: the query vector moves towards the best parts
   * of its top `feedbackDocs` documents by `feedbackWeight`, then the haystack is searched again.
   */
  feedbackDocs: z.number().int().min(0).max(1000).default(0),
  feedbackWeight: z.number().min(0).default(0.3),
};

/** The flags of the routes section (config/run-options.ts lists every section's). */
export const ROUTES_OPTIONS = [
  {
    flags: '--fusion <name>',
    key: 'fusion',
    group: 'retrieval',
    help: 'hybrid fusion: weighted (normalised sum), combmnz (the sum times the routes agreeing) or rrf (reciprocal rank)',
  },
  {
    flags: '--fusion-normalization <name>',
    key: 'fusionNormalization',
    group: 'retrieval',
    help: 'score normalisation of --fusion weighted|combmnz: min-max, z-score or rank',
    defaultHelp: 'min-max',
  },
  {
    flags: '--adaptive-weights',
    key: 'adaptiveWeights',
    group: 'retrieval',
    help: "scale the fusion weights per query by each route's confidence (z-score of its top score)",
    defaultHelp: 'off',
  },
  {
    flags: '--adaptive-power <p>',
    key: 'adaptivePower',
    group: 'retrieval',
    help: 'with --adaptive-weights: exponent of the confidence ratio (higher: the surer route takes more)',
    defaultHelp: '1',
  },
  {
    flags: '--dense-gap <cosine>',
    key: 'denseGap',
    group: 'retrieval',
    help: 'the dense route keeps its fusion weight when its gap (best minus median cosine) reaches this value, loses it at half of it, linearly between; BM25 takes what it gives up, so a haystack whose cosines bunch together leans on BM25',
    defaultHelp: '0 (off)',
  },
  {
    flags: '--dense-neighbours <weight>',
    key: 'denseNeighbours',
    group: 'retrieval',
    help: 'dense route: score a turn with weight w on the mean of its neighbour turns (turn granularity)',
    defaultHelp: '0 (off)',
  },
  {
    flags: '--time-boost <weight>',
    key: 'timeBoost',
    group: 'retrieval',
    help: 'when the question names a span of time ("four weeks ago", "in June"), read against its date, documents dated inside it gain this share of the score spread (session-aware: in ranking sessions)',
    defaultHelp: '0 (off)',
  },
  {
    flags: '--bm25-k1 <n>',
    key: 'bm25K1',
    group: 'retrieval',
    help: "BM25's term-frequency saturation k1 (--retriever bm25, hybrid, session-aware)",
    defaultHelp: "1.5, rank_bm25's",
  },
  {
    flags: '--bm25-b <x>',
    key: 'bm25B',
    group: 'retrieval',
    help: "BM25's document-length normalisation b, 0 (none) to 1 (full)",
    defaultHelp: "0.75, rank_bm25's",
  },
  {
    flags: '--bm25-feedback-docs <n>',
    key: 'bm25FeedbackDocs',
    group: 'retrieval',
    help: "BM25 pseudo-relevance feedback: add the best terms of the first ranking's top n documents (a hybrid's fused ranking) to the BM25 query and search again",
    defaultHelp: '0, off',
  },
  {
    flags: '--bm25-feedback-weight <w>',
    key: 'bm25FeedbackWeight',
    group: 'retrieval',
    help: "with --bm25-feedback-docs: the added terms' weight, as a share of the query's own terms",
    defaultHelp: '0.5',
  },
  {
    flags: '--bm25-feedback-keep',
    key: 'bm25FeedbackKeep',
    group: 'retrieval',
    help: 'with --bm25-feedback-docs: the feedback documents keep their first places, the second pass orders the rest',
    defaultHelp: 'off',
  },
  { flags: '--rrf-k <n>', key: 'rrfK', group: 'retrieval', help: 'k of reciprocal rank fusion' },
  {
    flags: '--weights <bm25,dense>',
    key: 'weights',
    group: 'retrieval',
    help: 'weights of the weighted fusion',
  },
  {
    flags: '--feedback-docs <n>',
    key: 'feedbackDocs',
    group: 'retrieval',
    help: 'dense pseudo-relevance feedback: move the query towards its top n documents and search again',
    defaultHelp: '0, off',
  },
  {
    flags: '--feedback-weight <w>',
    key: 'feedbackWeight',
    group: 'retrieval',
    help: 'how far --feedback-docs moves the query',
  },
] as const satisfies readonly RunOptionDeclaration[];

export type RoutesSection = z.output<z.ZodObject<typeof ROUTES_SHAPE>>;
