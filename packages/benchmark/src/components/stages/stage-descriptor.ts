import type {
  CandidateReranker,
  ChatClientOptions,
  ChunkStatus,
  MemoryDocument,
  Stage,
  StageTrace,
  Summarizer,
} from '@lme/search-core';
import type { ComponentDescriptor, ComponentOptions, OptionValues } from '../component.js';

/** What the rest of the program asks of a stage instead of its name. */
export type StageCapabilities = {
  /**
   * Where it may run: `pipeline`, on lme's own candidate pool only (it reads the pipeline's
   * documents or vectors), so under an external memory system its flags have no effect.
   */
  readonly runsOn: 'pipeline';
  /**
   * When it acts: `index`, on a haystack before it is indexed (its `indexDocuments` or
   * `summarizer` hook); `pool` (the default), on the candidate pool between retrieval and the
   * reader (the `Stage` its `create` returns); `ranking`, on the final ranking after the pool
   * stages (its `reranker` hook).
   */
  readonly at?: 'index' | 'pool' | 'ranking';
  /** Its place among the stages: the selected stages run in ascending order. */
  readonly order: number;
  /** It compares document vectors, so the pipeline embeds when it is on. */
  readonly needsVectors: boolean;
  /**
   * It gives the run's session summarizer: selected, with no switch, when the base retriever
   * writes summaries or a selected stage `needsSummaries`.
   */
  readonly providesSummaries?: boolean;
  /** It reads session summaries (a stage that `providesSummaries` is then selected). */
  readonly needsSummaries?: boolean;
};

/** What a stage's explain record and provenance draw on. */
export type StageExplainContext = {
  /** The search's trace (what the stages recorded). */
  readonly trace: StageTrace;
  /** The number of hits the pipeline returns. */
  readonly finalK: number;
};

/** What the pipeline hands a stage's `create`: the run's shared parts, each made on first use. */
export type StageParts = {
  /** The run's OpenAI-compatible endpoint (`--base-url`, `OPENAI_API_KEY`, retries, timeout). */
  endpoint(): ChatClientOptions;
  /** The completion cache folder, when the cache is on. */
  readonly cacheDir: string | undefined;
  /** The run's session summarizer (for a stage that `needsSummaries`). */
  summarizer(): Summarizer;
  /** The reranker an id names (`--reranker`), built by its family with the run's options, and `--rerank-depth`. */
  reranker(id: string): { reranker: CandidateReranker; depth: number };
};

/** A haystack's documents as an index-time stage rewrote them, with one status per document. */
export type IndexedDocuments = {
  readonly documents: MemoryDocument[];
  readonly statuses: readonly ChunkStatus[];
};

/** What the dry run hands a stage's `plan`: the run's haystacks as the pipeline would index them. */
export type StagePlanInput = {
  /** Each question's documents (turns, rounds or sessions), before any index-time stage. */
  readonly haystacks: readonly (readonly MemoryDocument[])[];
  /** Each distinct session's turn texts, by session id. */
  readonly sessions: ReadonlyMap<string, readonly string[]>;
  /** o200k_base tokens per character of haystack text, measured on a few questions. */
  readonly tokensPerChar: number;
  /** The pipeline embeds text. */
  readonly embeds: boolean;
};

/** A stage's chat model calls over a run (none: it calls no model under these options), and notes for the plan. */
export type StagePlan = {
  readonly calls?: {
    readonly calls: number;
    readonly promptTokens: number;
    readonly completionTokens: number;
  };
  readonly notes: readonly string[];
};

/** What a stage that acts outside the candidate pool gives the pipeline (its `create` returns these instead of a `Stage`). */
export type StageHooks = {
  /** `index`: rewrites one haystack's documents before they are indexed. */
  indexDocuments?(documents: readonly MemoryDocument[], signal?: AbortSignal): Promise<IndexedDocuments>;
  /** `index`: the run's session summarizer (`providesSummaries`). */
  summarizer?(): Summarizer;
  /** `ranking`: reranks the final ranking (a base that reranks its own candidates does so through it). */
  readonly reranker?: { readonly reranker: CandidateReranker; readonly depth: number };
  /** Its run totals for config.json's `provider_stats`, by key (`summaries`). */
  stats?(): Record<string, unknown>;
};

/**
 * One stage of the pipeline outside the base retriever: a folder `components/stages/<name>/` and a
 * line in `STAGES`. It is on when its `switch` option is on (`--dedup`; `switchOn` says which
 * values are), or, for one that `providesSummaries`, when another component needs them. Its other
 * options matter only when it is on.
 */
export type StageDescriptor<O extends ComponentOptions = ComponentOptions> = ComponentDescriptor<
  O,
  StageCapabilities
> & {
  /** The option that turns it on (its flag selects it), or chooses the kind of a stage selected by need. */
  readonly switch: keyof O & string;
  /**
   * Which values of a non-boolean switch turn it on (none, for a stage selected by need), and one
   * to turn it on with (docs and tests). Default: `true` turns it on.
   */
  readonly switchOn?: { readonly value: unknown; is(value: unknown): boolean };
  /** What selects a stage by need, for the "has no effect" warning (`--session-index summary|both`). */
  readonly selectedBy?: string;
  /**
   * Options of its own that matter only under its other options or when the pipeline embeds: the
   * condition and what it needs (`--summarizer-model`: `--summarizer llm`).
   */
  readonly optionRules?: {
    readonly [K in keyof O]?: {
      used(options: OptionValues<O>, run: { readonly embeds: boolean }): boolean;
      readonly needs: string;
    };
  };
  create(options: OptionValues<O>, parts: StageParts): Stage | StageHooks;
  /**
   * The chat model it calls under these options at the run's endpoint, named for its `role`
   * (preflight checks the key, the dry run prices it); undefined: none.
   */
  chatModel?(options: OptionValues<O>): { readonly role: string; readonly model: string } | undefined;
  /** What the dry run counts of it: its `chatModel`'s calls and tokens over the run, and notes. */
  plan?(options: OptionValues<O>, input: StagePlanInput): StagePlan;
  /** How the report's provenance lists it under these options (`dedup (0.95)`); undefined: not listed. */
  provenance(options: OptionValues<O>): string | undefined;
  /** What it adds to an explain record's `weights` (by key) after a search; undefined: nothing. */
  explain?(options: OptionValues<O>, context: StageExplainContext): Record<string, unknown> | undefined;
};

/** Declares a stage, keeping its options' types (the run config's keys are typed from them). */
export const defineStage = <const O extends ComponentOptions>(descriptor: StageDescriptor<O>) => descriptor;
