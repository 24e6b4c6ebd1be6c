import { z } from 'zod';

/**
 * Every setting of a run. The CLI maps each flag to one key; presets, environment and flags are
 * merged (defaults < preset < env < flags) and validated here, once.
 */
/**
 * An endpoint URL. Config is written to config.json, so a URL carrying credentials
 * (`https://user:secret@host`) is refused: keys belong in the environment.
 */
const endpointUrl = z
  .string()
  .url()
  .refine((value) => {
    const url = new URL(value);
    return url.username === '' && url.password === '';
  }, 'must not carry credentials (user:password@); put keys in the environment');

export const runConfigSchema = z
  .object({
    /** The preset the config started from (recorded for provenance). */
    preset: z.string().min(1).optional(),
    dataset: z.string().min(1).default('sample'),
    dataDir: z.string().min(1).default('datasets'),
    provider: z.enum(['pipeline', 'full-context', 'oracle', 'http']).default('pipeline'),
    /** `--provider http`: a server speaking docs/provider-protocol.md. */
    providerUrl: endpointUrl.optional(),
    /** Name of the environment variable holding the provider's auth header value (never the value). */
    providerAuthEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name')
      .optional(),
    providerAuthHeader: z.string().min(1).default('Authorization'),
    providerTimeoutMs: z.number().int().min(1).default(60_000),
    providerMaxRetries: z.number().int().min(0).max(20).default(3),
    /** Documents every provider is graded on (the same budget for all); unset: the whole haystack. */
    topK: z.number().int().min(1).optional(),
    retriever: z.enum(['bm25', 'dense', 'hybrid']).default('bm25'),
    tokenizer: z.enum(['official', 'words']).default('words'),
    granularity: z.enum(['session', 'turn']).default('session'),
    indexRoles: z.enum(['user', 'all']).default('user'),
    convention: z.enum(['official', 'evidence']).default('official'),
    /** Which questions the official means skip: A = `_abs`; B = also those with no user-side gold. */
    exclusion: z.enum(['A', 'B']).default('A'),
    duplicateSessions: z.enum(['keep', 'first']).default('keep'),
    embedder: z.string().min(1).default('local:use-lite'),
    vectorStore: z.enum(['memory', 'qdrant']).default('memory'),
    fusion: z.enum(['rrf', 'weighted']).default('weighted'),
    rrfK: z.number().positive().default(60),
    /** BM25 weight, dense weight for the weighted fusion. */
    weights: z.tuple([z.number().min(0), z.number().min(0)]).default([0.3, 0.7]),
    /**
     * Pseudo-relevance feedback on the dense route: the query vector moves towards the best parts
     * of its top `feedbackDocs` documents by `feedbackWeight`, then the haystack is searched again.
     */
    feedbackDocs: z.number().int().min(0).default(0),
    feedbackWeight: z.number().min(0).default(0.3),
    /** Two-stage retrieval: sessions first, then turns inside them (turn-granularity documents). */
    sessionAware: z.boolean().default(false),
    topSessions: z.number().int().min(1).default(5),
    turnsPerSession: z.number().int().min(1).default(3),
    finalTopK: z.number().int().min(1).default(10),
    sessionIndex: z.enum(['summary', 'text', 'both']).default('text'),
    summarizer: z.enum(['extractive', 'llm']).default('extractive'),
    summarizerModel: z.string().min(1).default('gpt-4o-mini'),
    /** Stage-1 weights (text, dense, summary, centroid); unset keys take the session index's defaults. */
    sessionWeights: z
      .object({
        text: z.number().min(0),
        dense: z.number().min(0),
        summary: z.number().min(0),
        centroid: z.number().min(0),
      })
      .partial()
      .strict()
      .optional(),
    /**
     * What one indexed chunk is; sets the granularity (`turn` and `round` grade as turns). `round`:
     * a user turn and the assistant reply after it, under the user turn's id. Unset: the granularity's unit.
     */
    chunkUnit: z.enum(['turn', 'round', 'session']).optional(),
    /** Contextual chunks: a context line put before each chunk's text at index time. */
    contextual: z.enum(['none', 'template', 'llm']).default('none'),
    contextualModel: z.string().min(1).default('gpt-4o-mini'),
    /** Whether the dense route embeds the contextualized text (true) or the original text (false). */
    contextualDense: z.boolean().default(true),
    /** Multi-route recall: turn BM25, turn dense and session-text BM25 fused by RRF (turn documents). */
    multiRoute: z.boolean().default(false),
    /** With multiRoute: sessions ranked by their session-level score plus bounded turn support. */
    sessionFirst: z.boolean().default(false),
    /** Query understanding and the multi-signal re-rank of the candidate pool. */
    multiSignal: z.boolean().default(false),
    /** Near-duplicate merging of the candidate pool. */
    dedup: z.boolean().default(false),
    dedupThreshold: z.number().min(0).max(1).default(0.95),
    /** Maximal marginal relevance over the candidate pool. */
    mmr: z.boolean().default(false),
    mmrLambda: z.number().min(0).max(1).default(0.78),
    mmrDuplicate: z.number().min(0).max(1).default(0.94),
    /**
     * Tokens (o200k_base) of the packed context `context.evidence_recall` is measured on; unset:
     * not measured (packing tokenizes the top documents, which the plain BM25 run should not pay).
     */
    contextBudget: z.number().int().min(1).optional(),
    /** Write explain.jsonl: per question the routes, stages, decisions and timings. */
    explain: z.boolean().default(false),
    cache: z.boolean().default(true),
    cacheDir: z.string().min(1).default('.lme-cache'),
    /** Hits stored per question in samples.jsonl. */
    saveHits: z.number().int().min(0).default(50),
    concurrency: z.number().int().min(1).default(1),
    /** At most this many questions, stratified by type with `seed`. */
    limit: z.number().int().min(1).optional(),
    seed: z.number().int().default(42),
    questionIds: z.array(z.string().min(1)).min(1).optional(),
    questionTypes: z.array(z.string().min(1)).min(1).optional(),
    /** `i/n`: the questions whose dataset position % n is i - 1. */
    shard: z
      .string()
      .regex(/^\d+\/\d+$/, 'expected i/n such as 1/4')
      .optional(),
    /** The QA stage runs when a reader model is set. */
    readerModel: z.string().min(1).optional(),
    readerPrompt: z.enum(['direct', 'cot']).default('cot'),
    historyFormat: z.enum(['json', 'nl']).default('json'),
    /** Retrieved sessions (in rank order) handed to the reader by the pipeline provider. */
    readerTopK: z.number().int().min(1).default(10),
    judgeModel: z.string().min(1).default('gpt-4o-2024-08-06'),
    judgeSamples: z.number().int().min(1).max(15).default(1),
    /** OpenAI-compatible endpoint (else OPENAI_BASE_URL, else api.openai.com); per-role overrides. */
    baseUrl: endpointUrl.optional(),
    readerBaseUrl: endpointUrl.optional(),
    judgeBaseUrl: endpointUrl.optional(),
    maxRetries: z.number().int().min(0).max(20).default(6),
    timeoutMs: z.number().int().min(1).default(180_000),
    /** Stop starting questions once the estimated spend (USD) passes this. */
    maxCost: z.number().positive().optional(),
    out: z.string().min(1).default('results'),
    runId: z
      .string()
      .regex(/^[\w.-]+$/, 'use letters, digits, dot, dash and underscore')
      .optional(),
  })
  .strict();

export type RunConfig = z.infer<typeof runConfigSchema>;

/**
 * Keys that do not change what a run measures: a resumed run may differ in these. Every other
 * key must match the stored config (the same dataset, pipeline, conventions and questions).
 */
export const NON_RESULT_KEYS = [
  'dataDir',
  'cache',
  'cacheDir',
  'saveHits',
  'concurrency',
  'out',
  'runId',
  'baseUrl',
  'readerBaseUrl',
  'judgeBaseUrl',
  'maxRetries',
  'timeoutMs',
  'maxCost',
  'providerUrl',
  'providerAuthEnv',
  'providerAuthHeader',
  'providerTimeoutMs',
  'providerMaxRetries',
  'explain',
] as const;

/** Keys whose values differ (compared as JSON) among the configs, in first-seen order, except `ignored`. */
export function differingKeys(
  configs: readonly Readonly<Record<string, unknown>>[],
  ignored: ReadonlySet<string>,
): string[] {
  const keys = new Set(configs.flatMap((config) => Object.keys(config)));
  return [...keys].filter(
    (key) => !ignored.has(key) && new Set(configs.map((config) => JSON.stringify(config[key]))).size > 1,
  );
}

/** The keys whose values differ between two configs, ignoring NON_RESULT_KEYS, sorted. */
export function resultKeyDifferences(stored: RunConfig, current: RunConfig): string[] {
  // A run stored before a key existed holds that key's default.
  const filled = runConfigSchema.safeParse(stored);
  const before: RunConfig = filled.success ? { ...filled.data, ...stored } : stored;
  return differingKeys([before, current], new Set(NON_RESULT_KEYS)).sort();
}
export type RunConfigInput = z.input<typeof runConfigSchema>;

/** Validates a merged config; throws one sentence per bad key, naming the key. */
export function parseRunConfig(input: RunConfigInput): RunConfig {
  const parsed = runConfigSchema.safeParse(input);
  if (parsed.success) {
    // Session-aware retrieval ranks turns inside sessions: its documents are turns.
    if (parsed.data.sessionAware) parsed.data.granularity = 'turn';
    // Multi-route recall ranks turns (and sessions from them); a chunk unit names its granularity.
    if (parsed.data.multiRoute) parsed.data.granularity = 'turn';
    if (parsed.data.chunkUnit)
      parsed.data.granularity = parsed.data.chunkUnit === 'session' ? 'session' : 'turn';
    const conflict =
      parsed.data.sessionFirst && !parsed.data.multiRoute
        ? 'sessionFirst: needs multiRoute (--multi-route)'
        : parsed.data.multiRoute && parsed.data.sessionAware
          ? 'multiRoute: cannot be combined with sessionAware (both are base retrievers)'
          : parsed.data.multiRoute && parsed.data.chunkUnit === 'session'
            ? 'chunkUnit: multiRoute ranks turns or rounds, not sessions'
            : undefined;
    if (conflict) throw new Error(`Invalid configuration: ${conflict}.`);
    return parsed.data;
  }
  const problems = parsed.error.issues.map((issue) => {
    const key = issue.path.join('.') || '(config)';
    return `${key}: ${issue.message}`;
  });
  throw new Error(`Invalid configuration: ${problems.join('; ')}.`);
}
