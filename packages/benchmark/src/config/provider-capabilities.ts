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
  /** Ranks the haystack (false for full-context and oracle: no retrieval metrics). */
  ranks: boolean;
  /** Must start from an empty store for every question (no namespace shared between questions). */
  freshPerQuestion?: boolean;
  /** Environment variables holding its credentials (names only, never values). */
  apiKeyEnv?: readonly string[];
  /** Run config keys only this provider reads (`providerUrl`): set under another, they have no effect. */
  runKeys?: readonly string[];
};

/** A provider that ranks in-process and is not an external system (the pipeline). */
export const IN_PROCESS_CAPABILITIES: ProviderCapabilities = {
  external: false,
  answersItself: false,
  ranks: true,
};
