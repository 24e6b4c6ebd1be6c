import { z } from 'zod';

/**
 * Every setting of a run. The CLI maps each flag to one key; presets, environment and flags are
 * merged (defaults < preset < env < flags) and validated here, once.
 */
/**
 * The embedder when neither a preset nor --embedder names one: the hybrid preset's (issue 37), so
 * `--retriever hybrid` without a preset embeds as `--preset hybrid` does (session-aware chose
 * e5-small on the dev suite and names it itself). presets.test.ts keeps the two in step.
 */
export const DEFAULT_EMBEDDER = 'hf:Xenova/bge-small-en-v1.5+hf:Xenova/e5-small-v2';

/** The embedders an `--embedder` value names: one, or several joined by `+` (their vectors concatenated). */
export const embedderParts = (embedder: string): string[] => embedder.split('+');

/**
 * An endpoint URL. Config is written to config.json, so a URL carrying credentials
 * (`https://user:secret@host`) is refused: keys belong in the environment.
 */
const endpointUrl = z
  .string()
  .url()
  // An unparsable URL is reported by .url() above; these checks must not throw on it.
  .refine((value) => {
    const url = URL.canParse(value) ? new URL(value) : undefined;
    return !url || (url.username === '' && url.password === '');
  }, 'must not carry credentials (user:password@); put keys in the environment')
  // A query can carry a key too, and config.json stores the URL: base URLs only (config/secrets.ts).
  .refine((value) => {
    const url = URL.canParse(value) ? new URL(value) : undefined;
    return !url || (url.search === '' && url.hash === '');
  }, 'must be a base URL without a query string or fragment (a query can carry a key)');

/** The weight of BM25 feedback's added terms when a run names none (`--bm25-feedback-weight`). */
export const BM25_FEEDBACK_WEIGHT = 0.5;

export const runConfigSchema = z
  .object({
    /** The preset the config started from (recorded for provenance). */
    preset: z.string().min(1).optional(),
    dataset: z.string().min(1).default('sample'),
    dataDir: z.string().min(1).default('datasets'),
    /** The memory system under test: a name of the provider registry (providers/provider-registry.ts). */
    provider: z.string().min(1).default('pipeline'),
    /**
     * `--provider-option key=value`: the provider's own options as given (strings), parsed by its
     * descriptor's schema when the run starts.
     */
    providerOptions: z.record(z.string(), z.string()).optional(),
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
    /** The base retriever, a key of BASE_RETRIEVERS (config/base-retrievers.ts). */
    retriever: z
      .enum(['bm25', 'dense', 'hybrid', 'session-aware', 'multi-route', 'multi-source'])
      .default('bm25'),
    /** The routes a session-aware, multi-route or multi-source retriever searches; unset: hybrid. */
    routes: z.enum(['bm25', 'dense', 'hybrid']).optional(),
    tokenizer: z.enum(['official', 'words']).default('words'),
    granularity: z.enum(['session', 'turn']).default('session'),
    indexRoles: z.enum(['user', 'all']).default('user'),
    convention: z.enum(['official', 'evidence']).default('official'),
    /** Which questions the official means skip: A = `_abs`; B = also those with no user-side gold. */
    exclusion: z.enum(['A', 'B']).default('A'),
    duplicateSessions: z.enum(['keep', 'first']).default('keep'),
    /**
     * Known label errors to correct (configs/errata/<name>.json, or a path to such a file): corrected
     * values replace the published ones, excluded questions leave every mean. Unset: official labels.
     */
    errata: z.string().min(1).optional(),
    /** Apply `errata` to a dataset file whose checksum is not the errata's (the entries that fit). */
    errataAnyChecksum: z.boolean().optional(),
    embedder: z.string().min(1).default(DEFAULT_EMBEDDER),
    /** `hf:` embedders: a folder of model files the user put there (air-gapped machines). */
    modelDir: z.string().min(1).optional(),
    /** Threads of an in-process embedder (hf: model calls at once, one text and one thread each; local:use-lite: worker threads); unset: the cores, at most 4. */
    embedThreads: z.number().int().min(1).max(64).optional(),
    vectorStore: z.enum(['memory', 'qdrant']).default('memory'),
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
    /** Old form of `retriever: 'session-aware'` (old presets, config.json, `--session-aware`); mapped, never kept. */
    sessionAware: z.boolean().optional(),
    topSessions: z.number().int().min(1).max(1000).default(5),
    turnsPerSession: z.number().int().min(1).max(1000).default(3),
    finalTopK: z.number().int().min(1).max(10_000).default(10),
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
    /** Old form of `retriever: 'multi-route'`; mapped, never kept. */
    multiRoute: z.boolean().optional(),
    /** Multi-route: sessions ranked by their session-level score plus bounded turn support. */
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
    /**
     * Rerank stage after the base retriever and stages (docs/retrieval-stages.md): `llm:<model>`
     * (listwise, sliding window), `llm-pointwise:<model>`, `http:<url>` (the /rerank wire format),
     * `offline:session-prior[@w]`. Unset: no reranking.
     */
    reranker: z
      .string()
      .min(3)
      // config.json stores the id: an http: reranker URL is held to the endpoint rules (no key in it).
      .refine(
        (value) => !value.startsWith('http:') || endpointUrl.safeParse(value.slice('http:'.length)).success,
        'an http: reranker is http:<base URL> (for example http:https://host/v1), without credentials, query string or fragment (keys go in --rerank-key-env)',
      )
      .optional(),
    /** Candidates (top hits) the reranker reorders. */
    rerankDepth: z.number().int().min(1).max(1000).default(20),
    /** Model named in the body of an `http:` reranker request. */
    rerankModel: z.string().min(1).default('rerank'),
    /** Environment variable holding the `http:` reranker's key (only its name is recorded). */
    rerankKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name')
      .optional(),
    /** Old form of `retriever: 'multi-source'`; mapped, never kept. */
    multiSource: z.boolean().optional(),
    /** Base weights of the multi-source sources (before the query cues adjust them). */
    sourceWeights: z
      .object({ memory: z.number().min(0), graph: z.number().min(0), context: z.number().min(0) })
      .partial()
      .strict()
      .optional(),
    /** Write explain.jsonl: per question the routes, stages, decisions and timings. */
    explain: z.boolean().default(false),
    cache: z.boolean().default(true),
    cacheDir: z.string().min(1).default('.lme-cache'),
    /** Hits stored per question in samples.jsonl. */
    saveHits: z.number().int().min(0).default(50),
    concurrency: z.number().int().min(1).max(256).default(1),
    /**
     * At most this many questions (a whole number from 1), or this share of them (0 < limit < 1),
     * stratified by type with `seed`.
     */
    limit: z
      .number()
      .refine((value) => (value > 0 && value < 1) || (Number.isInteger(value) && value >= 1), {
        message: 'a count (a whole number from 1) or a share between 0 and 1 such as 0.1',
      })
      .optional(),
    seed: z.number().int().min(0).default(42),
    questionIds: z.array(z.string().min(1)).min(1).optional(),
    questionTypes: z.array(z.string().min(1)).min(1).optional(),
    /** Dev/test protocol (run/dev-test-split.ts): only the dev or the test questions; unset or `all`: every one. */
    split: z.enum(['dev', 'test', 'all']).optional(),
    /** `i/n`: the questions whose dataset position % n is i - 1. */
    shard: z
      .string()
      .regex(/^\d+\/\d+$/, 'expected i/n such as 1/4')
      .optional(),
    /** The QA stage runs when a reader model is set. */
    readerModel: z.string().min(1).optional(),
    /**
     * Reader prompt style: a name a benchmark brings (`readerPrompts` of benchmarks/<name>/, checked
     * against the registry before a run); unset: the dataset's benchmark's (`defaults.readerPrompt`).
     */
    readerPrompt: z.string().min(1).optional(),
    historyFormat: z.enum(['json', 'nl']).default('json'),
    /** Retrieved sessions (in rank order) handed to the reader by the pipeline provider. */
    readerTopK: z.number().int().min(1).default(10),
    /** Reader `max_tokens` (official `--gen_length`); unset: 800, what run_generation.py sends. */
    readerMaxTokens: z.number().int().min(1).optional(),
    /** Official `--useronly`: `user` keeps only user turns in the reader's history. */
    readerHistory: z.enum(['all', 'user']).default('all'),
    /** Official `--con true` (Chain-of-Note): a note per history chunk, then the answer over the notes. */
    readerNotes: z.boolean().default(false),
    /** `turn`: each retrieved turn with its round (official flat-turn); `session`: whole sessions. */
    readerContext: z.enum(['session', 'turn']).default('session'),
    /**
     * Whose answers the judge grades: `reader`, lme's reader (`readerModel`) over the provider's
     * hits; `provider`, the answer the memory system returns itself (`--provider http`), with no
     * lme reader.
     */
    answers: z.enum(['reader', 'provider']).default('reader'),
    judgeModel: z.string().min(1).default('gpt-4o-2024-08-06'),
    /** Judge calls per answer (one per vote, each cached under its index); the majority is the label. */
    judgeSamples: z.number().int().min(1).max(15).default(1),
    /** Judge sampling temperature; 0 is the official setting (votes of k > 1 then rarely differ). */
    judgeTemperature: z.number().min(0).max(2).default(0),
    /**
     * Judge rubric: a name a benchmark brings (`judges` of benchmarks/<name>/, checked against the
     * registry before a run); unset: the dataset's benchmark's (`defaults.judge`).
     */
    judge: z.string().min(1).optional(),
    /**
     * Provenance (never set by hand): the keys the dataset's benchmark decided as the config layer
     * below presets, environment and flags (`Benchmark.defaults`), and which benchmark.
     */
    benchmarkDefaults: z
      .object({ benchmark: z.string().min(1), keys: z.array(z.string().min(1)) })
      .strict()
      .optional(),
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
      .regex(/^[\w.-]+$/, '--run-id must be a folder name of letters, digits, dot, dash and underscore')
      .refine((value) => value !== '.' && value !== '..', '--run-id must not be "." or ".."')
      .optional(),
    /** Replace the outputs of an existing run folder of the same id (`--overwrite`). */
    overwrite: z.boolean().optional(),
    /** Free text recorded in config.json and put in a `label` column of the CSVs (`--label`). */
    label: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[^\n\r]*$/, '--label must be one line')
      .optional(),
  })
  .strict();

/**
 * A resolved run config. The old base-retriever booleans (`sessionAware`, `multiRoute`,
 * `multiSource`) are input only: `parseRunConfig` maps them onto `retriever` and drops them.
 */
export type RunConfig = Omit<z.infer<typeof runConfigSchema>, 'sessionAware' | 'multiRoute' | 'multiSource'>;

/**
 * Keys that do not change what a run measures: a resumed run may differ in these. Every other
 * key must match the stored config (the same dataset, pipeline, conventions and questions).
 */
export const NON_RESULT_KEYS = [
  'benchmarkDefaults',
  'dataDir',
  'modelDir',
  'embedThreads',
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
  'rerankKeyEnv',
  'explain',
  'overwrite',
  'label',
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
