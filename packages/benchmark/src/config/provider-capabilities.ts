/**
 * What the rest of the program may ask of a provider instead of comparing its name. Each provider
 * declares them in its descriptor (providers/provider-registry.ts); the config layer's rules take
 * them as an argument.
 */
export type ProviderCapabilities = {
  /** An external memory system: receives every role by default, opaque ids, one ingest per haystack. */
  external: boolean;
  /** Can answer questions itself (`--answers provider`). */
  answersItself: boolean;
  /**
   * lme's own search-core pipeline: the retrieval, routes, embedding, summaries and stages settings
   * (and the retriever, embedder and reranker) configure it. config/run-shape.ts asks this.
   */
  pipeline?: boolean;
  /**
   * The sessions it hands the reader instead of ranked ones: the whole haystack, or the evidence
   * sessions (the dry run sizes the reader's prompts by it).
   */
  readerSessions?: 'haystack' | 'evidence';
  /** Ranks the haystack (false for full-context and oracle: no retrieval metrics). */
  ranks: boolean;
  /**
   * Ranks whole sessions only (it keeps no turns), with the reason: a run at `--granularity turn`
   * is refused before any work (run/checks/check-provider-granularity.ts).
   */
  sessionsOnly?: string;
  /** Must start from an empty store for every question (no namespace shared between questions). */
  freshPerQuestion?: boolean;
  /** Environment variables holding its credentials (names only, never values). */
  apiKeyEnv?: readonly string[];
  /** Run config keys only this provider reads (`providerUrl`): set under another, they have no effect. */
  runKeys?: readonly string[];
};

/** lme's own pipeline: ranks in-process, not an external system. */
export const IN_PROCESS_CAPABILITIES: ProviderCapabilities = {
  pipeline: true,
  external: false,
  answersItself: false,
  ranks: true,
};
