import type {
  Bm25DenseRetrieverOptions,
  CandidateReranker,
  DenseScorer,
  Fusion,
  MultiSourceTrace,
  RerankHookState,
  Retriever,
  Summarizer,
  Tokenizer,
} from '@lme/search-core';
import type { ComponentDescriptor, ComponentOptions, OptionValues } from '../component.js';

/** A route of the pipeline: a scorer over the indexed documents. */
export type Route = 'bm25' | 'dense';

/** The routes `--routes` names (a retriever whose routes are `configured` searches them). */
export const ROUTE_SETS = {
  bm25: ['bm25'],
  dense: ['dense'],
  hybrid: ['bm25', 'dense'],
} as const satisfies Record<string, readonly Route[]>;

export type RouteSetName = keyof typeof ROUTE_SETS;

/** A setting a retriever cannot run with, and why (said in the refusal). */
export type Refusal = { readonly key: string; readonly value: unknown; readonly reason: string };

/** What the rest of the program asks of a base retriever instead of its name. */
export type RetrieverCapabilities = {
  /** Fixed routes, or `configured`: those `--routes` names (default `defaultRoutes`). */
  readonly routes: readonly Route[] | 'configured';
  readonly defaultRoutes?: RouteSetName;
  /**
   * `turn`: it ranks turns inside sessions, so its documents are turns whatever `--granularity`
   * says (the run sets granularity to turn and records it; `--granularity` given as a flag warns).
   */
  readonly ranks?: 'turn';
  /**
   * How it reads `--fusion`: `routes`, when it searches more than one route; `always` (it fuses its
   * own stages); `rrf`, never: it fuses by reciprocal rank alone (`--rrf-k`).
   */
  readonly fusion: 'routes' | 'always' | 'rrf';
  /** It reads the BM25 route's settings (`--bm25-k1`, `--bm25-b`, `--bm25-feedback-*`). */
  readonly bm25Settings: boolean;
  /** It reads `--time-boost`. */
  readonly timeBoost: boolean;
  /** It reads `--dense-neighbours` (with a dense route). */
  readonly denseNeighbours: boolean;
  /** It reranks its merged candidates itself; the rerank stage then only attaches the trace. */
  readonly reranksCandidates?: boolean;
  readonly refuses: readonly Refusal[];
  /** The boolean key old configs and command lines set for it (`sessionAware`: `--session-aware`). */
  readonly legacyKey?: string;
};

/** The refusal of a retriever that ranks turns: `--chunk-unit session`. */
export const RANKS_TURNS_REFUSAL: Refusal = {
  key: 'chunkUnit',
  value: 'session',
  reason: 'it ranks turns (or rounds with --chunk-unit round), not whole sessions',
};

/** The route settings the pipeline gives a retriever, as far as its capabilities read them. */
export type RouteSettings = Pick<
  Bm25DenseRetrieverOptions,
  'denseNeighbours' | 'timeBoost' | 'bm25' | 'bm25Feedback'
>;

/** What the pipeline hands a base retriever's factory for one haystack. */
export type RetrieverDependencies = {
  tokenizer: Tokenizer;
  /** The dense scorer, when the routes include dense. */
  dense: DenseScorer | undefined;
  fusion: Fusion;
  routes: readonly Route[];
  namespace: string;
  /** The run's session summarizer (created on first use). */
  summarizer: () => Summarizer;
  /** `--reranker`, for a retriever that reranks its own candidates (`reranksCandidates`). */
  reranker?: { reranker: CandidateReranker; state: RerankHookState; depth: number };
  routeSettings: RouteSettings;
  /** Shared pipeline settings: RRF's k, the documents returned, the near-duplicate cosine. */
  rrfK: number;
  finalTopK: number;
  dedupThreshold: number;
};

/** A built base retriever; `lastSourceTrace` when it merges sources (multi-source). */
export type BuiltRetriever = {
  retriever: Retriever;
  lastSourceTrace?: () => MultiSourceTrace | undefined;
};

/** One base retriever `--retriever` can name: a folder `components/retrievers/<name>/` and a registry line. */
export type RetrieverDescriptor<
  O extends ComponentOptions = ComponentOptions,
  C extends RetrieverCapabilities = RetrieverCapabilities,
> = ComponentDescriptor<O, C> & {
  create(options: OptionValues<O>, dependencies: RetrieverDependencies): BuiltRetriever;
  /** It writes session summaries under these options (the summarizer's keys then matter). */
  summarizes?(options: OptionValues<O>): boolean;
  /** The most candidates per question it hands the rerank stage (unset: every indexed document). */
  rerankCandidates?(options: OptionValues<O>): number;
  /** Its stages under these options, as the report's provenance lists them. */
  stages?(options: OptionValues<O>): string[];
  /**
   * What explain.jsonl says of it under these options: `fusion` replaces the fusion of the routes
   * (a retriever that fuses its own way), `weights` join the trace's weights.
   */
  explain?(
    options: OptionValues<O>,
    shared: { rrfK: number },
  ): { fusion?: Record<string, unknown>; weights?: Record<string, unknown> };
};

/**
 * Declares a retriever, keeping its options' and capabilities' types (the run config's keys and
 * the legacy keys are typed from them).
 */
export const defineRetriever = <const O extends ComponentOptions, const C extends RetrieverCapabilities>(
  descriptor: RetrieverDescriptor<O, C>,
) => descriptor;
