import { DEFAULT_EMBEDDER, type RunConfigInput } from './run-config.js';

/**
 * Every run option, declared once: its flag, the config key it sets, its help text, and (when the
 * run config schema's default does not say it) what the help should call the default. Type,
 * default, bounds and choices come from `runConfigSchema`, so a preset and a flag are held to the
 * same limits; `cli/run-option-flags.ts` turns these into commander options.
 */
export type RunOptionDeclaration = {
  /** Commander flags, e.g. `-j, --concurrency <n>`; a boolean key set off by `--no-x` is `--no-x`. */
  readonly flags: string;
  readonly key: keyof RunConfigInput;
  /** The section of `lme run --help` it is listed in (RUN_OPTION_GROUPS). */
  readonly group: RunOptionGroup;
  readonly help: string;
  /** The help's "default: …" when the schema has no default or its default reads badly. */
  readonly defaultHelp?: string;
  /** An environment variable that sets the key (below flags, above presets). */
  readonly env?: string;
  /** A boolean whose default is true also gets `--no-<name>` with this help. */
  readonly negatedHelp?: string;
};

/**
 * The sections of `lme run --help`, in the order they are shown, with their headings: `start`
 * holds the few flags most users need first.
 */
export const RUN_OPTION_GROUPS = {
  start: 'Start here:',
  data: 'Data and question selection:',
  retrieval: 'Retrieval (the memory system under test):',
  stages: 'Stages after retrieval:',
  qa: 'Question answering (reader and judge):',
  run: 'Run management:',
  output: 'Output and logging:',
} as const;

export type RunOptionGroup = keyof typeof RUN_OPTION_GROUPS;

export const RUN_OPTIONS = [
  {
    flags: '--preset <name|path>',
    key: 'preset',
    group: 'start',
    help: "start from a preset: a name (`lme presets` lists them, `lme presets <name>` shows one's settings) or the path of a preset file or a run's config.json; the environment and flags override it",
  },
  {
    flags: '-d, --dataset <name|path>',
    key: 'dataset',
    group: 'start',
    help: 'a dataset name a benchmark knows (oracle, s, m, sample), or the path of a dataset file (.json/.json.gz) or folder',
  },
  {
    flags: '--data-dir <dir>',
    key: 'dataDir',
    group: 'data',
    help: 'folder holding the downloaded dataset files',
    env: 'LME_DATA_DIR',
  },
  {
    flags: '--provider <name>',
    key: 'provider',
    group: 'retrieval',
    help: 'memory system under test (the providers and their options are listed below)',
  },
  {
    flags: '--provider-option <key=value>',
    key: 'providerOptions',
    group: 'retrieval',
    help: "one of the provider's own options (repeatable; listed below per provider)",
  },
  {
    flags: '--retriever <name>',
    key: 'retriever',
    group: 'retrieval',
    help: 'base retriever of the pipeline: bm25, dense, hybrid (routes over the documents), session-aware (sessions, then turns inside them), multi-route, multi-source; session-aware and multi-route rank turns, so they index turns whatever --granularity says',
  },
  {
    flags: '--routes <name>',
    key: 'routes',
    group: 'retrieval',
    help: 'routes a session-aware, multi-route or multi-source retriever searches: bm25, dense, or hybrid (both, fused)',
    defaultHelp: 'hybrid',
  },
  {
    flags: '--tokenizer <name>',
    key: 'tokenizer',
    group: 'retrieval',
    help: 'BM25 tokenizer: official = Python split(" "), words = lowercase stemmed words',
  },
  {
    flags: '--granularity <unit>',
    key: 'granularity',
    group: 'retrieval',
    help: 'index whole sessions or single turns',
  },
  {
    flags: '--index-roles <roles>',
    key: 'indexRoles',
    group: 'retrieval',
    help: 'index user turns only (official) or all turns',
  },
  {
    flags: '--convention <name>',
    key: 'convention',
    group: 'data',
    help: 'gold definition: official scripts or answer_session_ids/has_answer (a benchmark without official gold refuses official)',
    defaultHelp: "the dataset's benchmark's",
  },
  {
    flags: '--exclusion <A|B>',
    key: 'exclusion',
    group: 'data',
    help: 'official means: A skips _abs; B also skips questions with no user-side gold',
  },
  {
    flags: '--duplicate-sessions <policy>',
    key: 'duplicateSessions',
    group: 'data',
    help: 'a session id twice in one haystack: keep both (official) or the first',
  },
  {
    flags: '--errata <name>',
    key: 'errata',
    group: 'data',
    help: 'correct known label errors (configs/errata/<name>.json, one per dataset file) or exclude the questions; default: official labels',
    defaultHelp: 'none',
  },
  {
    flags: '--errata-any-checksum',
    key: 'errataAnyChecksum',
    group: 'data',
    help: 'apply --errata to a dataset file whose SHA-256 the errata do not name (a warning instead of an error)',
  },
  {
    flags: '--embedder <name>',
    key: 'embedder',
    group: 'retrieval',
    help: 'hf:<owner>/<model>[@q8] (an ONNX model of configs/models.json, see `lme models list`), local:use-lite or openai:<model>; several joined by + embed with each, their vectors side by side (a cosine is the mean of theirs)',
    defaultHelp: DEFAULT_EMBEDDER,
  },
  {
    flags: '--embed-threads <n>',
    key: 'embedThreads',
    group: 'retrieval',
    help: 'threads of an in-process embedder (hf: model calls at once, one text and one ONNX Runtime thread each; local:use-lite: worker threads); default: the cores, at most 4; never more than fit in memory (a model copy each, at most 2 GB in all)',
  },
  {
    flags: '--model-dir <dir>',
    key: 'modelDir',
    group: 'retrieval',
    help: 'folder holding ONNX model files fetched by hand (checked against configs/models.json before use)',
    env: 'LME_MODEL_DIR',
  },
  { flags: '--vector-store <name>', key: 'vectorStore', group: 'retrieval', help: 'vector index backend' },
  {
    flags: '--fusion <name>',
    key: 'fusion',
    group: 'retrieval',
    help: 'hybrid fusion: weighted (normalised sum), combmnz (the sum times the routes agreeing) or rrf (reciprocal rank)',
  },
  { flags: '--rrf-k <n>', key: 'rrfK', group: 'retrieval', help: 'k of reciprocal rank fusion' },
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
    flags: '--time-boost <weight>',
    key: 'timeBoost',
    group: 'retrieval',
    help: 'when the question names a span of time ("four weeks ago", "in June"), read against its date, documents dated inside it gain this share of the score spread (session-aware: in ranking sessions)',
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
  {
    flags: '--session-aware',
    key: 'sessionAware',
    group: 'retrieval',
    help: 'old form of --retriever session-aware (with --retriever bm25|dense|hybrid as --routes)',
  },
  { flags: '--top-sessions <n>', key: 'topSessions', group: 'retrieval', help: 'sessions kept by stage 1' },
  {
    flags: '--turns-per-session <n>',
    key: 'turnsPerSession',
    group: 'retrieval',
    help: 'turns kept per session by stage 2',
  },
  { flags: '--final-top-k <n>', key: 'finalTopK', group: 'retrieval', help: 'turns returned after merging' },
  {
    flags: '--session-index <kind>',
    key: 'sessionIndex',
    group: 'retrieval',
    help: 'what stage 1 ranks sessions by',
  },
  {
    flags: '--summarizer <kind>',
    key: 'summarizer',
    group: 'retrieval',
    help: 'session summaries: extractive (offline) or llm',
  },
  {
    flags: '--summarizer-model <model>',
    key: 'summarizerModel',
    group: 'retrieval',
    help: 'chat model of --summarizer llm',
  },
  {
    flags: '--session-weights <name=w,...>',
    key: 'sessionWeights',
    group: 'retrieval',
    help: 'stage-1 weights of text, dense, summary, centroid',
    defaultHelp: 'by --session-index; text: text=0.3,dense=0.7',
  },
  {
    flags: '--chunk-unit <unit>',
    key: 'chunkUnit',
    group: 'retrieval',
    help: 'indexed chunk: turn, round (user turn + reply) or session',
    defaultHelp: '--granularity',
  },
  {
    flags: '--contextual <kind>',
    key: 'contextual',
    group: 'retrieval',
    help: 'context line before each chunk at index time',
  },
  {
    flags: '--contextual-model <model>',
    key: 'contextualModel',
    group: 'retrieval',
    help: 'chat model of --contextual llm',
  },
  {
    flags: '--contextual-dense',
    key: 'contextualDense',
    group: 'retrieval',
    help: 'the dense route embeds the contextualized text',
    negatedHelp: 'the dense route embeds the original text; the context goes to BM25 only',
  },
  {
    flags: '--multi-route',
    key: 'multiRoute',
    group: 'retrieval',
    help: 'old form of --retriever multi-route (with --retriever bm25|dense|hybrid as --routes)',
  },
  {
    flags: '--session-first',
    key: 'sessionFirst',
    group: 'retrieval',
    help: 'with --retriever multi-route: rank sessions by session score plus bounded turn support',
  },
  {
    flags: '--multi-signal',
    key: 'multiSignal',
    group: 'stages',
    help: 'query understanding and a multi-signal re-rank (entities, time, recency)',
  },
  {
    flags: '--dedup',
    key: 'dedup',
    group: 'stages',
    help: 'merge near-duplicate hits (cosine >= --dedup-threshold)',
  },
  {
    flags: '--dedup-threshold <cosine>',
    key: 'dedupThreshold',
    group: 'stages',
    help: 'cosine at which --dedup merges two hits',
  },
  {
    flags: '--mmr',
    key: 'mmr',
    group: 'stages',
    help: 'maximal marginal relevance over the candidate pool (needs document vectors)',
  },
  {
    flags: '--mmr-lambda <x>',
    key: 'mmrLambda',
    group: 'stages',
    help: 'MMR relevance weight against redundancy',
  },
  {
    flags: '--mmr-duplicate <cosine>',
    key: 'mmrDuplicate',
    group: 'stages',
    help: 'MMR skips a candidate this similar to a selected hit',
  },
  {
    flags: '--context-budget <tokens>',
    key: 'contextBudget',
    group: 'stages',
    help: 'measure context.evidence_recall: pack the top hits into this many o200k_base tokens',
    defaultHelp: 'off',
  },
  {
    flags: '--reranker <id>',
    key: 'reranker',
    group: 'stages',
    help: 'rerank the top --rerank-depth hits: llm:<model>, llm-pointwise:<model>, http:<url>, offline:session-prior[@w], offline:interleave',
    defaultHelp: 'off',
  },
  {
    flags: '--rerank-depth <n>',
    key: 'rerankDepth',
    group: 'stages',
    help: 'candidates the reranker reorders',
  },
  {
    flags: '--rerank-model <model>',
    key: 'rerankModel',
    group: 'stages',
    help: 'model sent to an http: reranker',
  },
  {
    flags: '--rerank-key-env <name>',
    key: 'rerankKeyEnv',
    group: 'stages',
    help: 'environment variable holding the http: reranker key (only its name is recorded)',
  },
  {
    flags: '--multi-source',
    key: 'multiSource',
    group: 'retrieval',
    help: 'old form of --retriever multi-source (with --retriever bm25|dense|hybrid as --routes)',
  },
  {
    flags: '--source-weights <name=w,...>',
    key: 'sourceWeights',
    group: 'retrieval',
    help: 'base weights of the multi-source sources memory, graph, context',
    defaultHelp: 'memory=0.6,graph=0.25,context=0.15',
  },
  {
    flags: '--explain',
    key: 'explain',
    group: 'output',
    help: 'write explain.jsonl: routes, stage decisions and timings per question',
  },
  {
    flags: '--no-cache',
    key: 'cache',
    group: 'run',
    help: 'do not read or write the embedding and completion caches',
  },
  { flags: '--cache-dir <dir>', key: 'cacheDir', group: 'run', help: 'cache folder', env: 'LME_CACHE_DIR' },
  {
    flags: '--save-hits <n>',
    key: 'saveHits',
    group: 'output',
    help: 'hits stored per question in samples.jsonl',
  },
  { flags: '-j, --concurrency <n>', key: 'concurrency', group: 'run', help: 'questions in flight at once' },
  {
    flags: '--limit <n>',
    key: 'limit',
    group: 'start',
    help: 'at most n questions (a count), or a share of them (0 < n < 1, e.g. 0.1), stratified by question type and seeded by --seed',
  },
  { flags: '--seed <n>', key: 'seed', group: 'data', help: 'seed of the --limit subset' },
  {
    flags: '--question-ids <ids>',
    key: 'questionIds',
    group: 'data',
    help: 'only these question ids, comma-separated',
  },
  {
    flags: '--question-types <types>',
    key: 'questionTypes',
    group: 'data',
    help: 'only these question types, comma-separated',
  },
  {
    flags: '--split <part>',
    key: 'split',
    group: 'data',
    help: 'dev, test or all: the seeded 30% dev / 70% test split by question id, stratified by type (settings are chosen on dev)',
    defaultHelp: 'all',
  },
  {
    flags: '--shard <i/n>',
    key: 'shard',
    group: 'data',
    help: 'only shard i of n (questions whose dataset position % n is i-1); merge with lme merge',
  },
  {
    flags: '--provider-url <url>',
    key: 'providerUrl',
    group: 'retrieval',
    help: 'with --provider http: base URL of a server speaking docs/provider-protocol.md',
  },
  {
    flags: '--provider-auth-env <name>',
    key: 'providerAuthEnv',
    group: 'retrieval',
    help: 'environment variable holding the provider auth header value (only its name is recorded)',
  },
  {
    flags: '--provider-auth-header <name>',
    key: 'providerAuthHeader',
    group: 'retrieval',
    help: 'header the --provider-auth-env value goes in',
  },
  {
    flags: '--provider-timeout <ms>',
    key: 'providerTimeoutMs',
    group: 'retrieval',
    help: 'timeout of one provider request',
  },
  {
    flags: '--provider-retries <n>',
    key: 'providerMaxRetries',
    group: 'retrieval',
    help: 'retries of a provider request after 429/5xx',
  },
  {
    flags: '--top-k <n>',
    key: 'topK',
    group: 'stages',
    help: 'documents every provider is graded on, the same budget for all',
    defaultHelp: 'the whole haystack',
  },
  {
    flags: '--reader-model <model>',
    key: 'readerModel',
    group: 'qa',
    help: 'answer each question with this chat model (turns on the QA stage)',
  },
  {
    flags: '--reader-prompt <style>',
    key: 'readerPrompt',
    group: 'qa',
    help: "reader prompt by name (the benchmarks' prompts: direct, cot step-by-step, ...)",
    defaultHelp: "the dataset's benchmark's",
  },
  {
    flags: '--history-format <format>',
    key: 'historyFormat',
    group: 'qa',
    help: 'history given to the reader',
  },
  {
    flags: '--reader-top-k <n>',
    key: 'readerTopK',
    group: 'qa',
    help: 'retrieved sessions handed to the reader',
  },
  {
    flags: '--reader-max-tokens <n>',
    key: 'readerMaxTokens',
    group: 'qa',
    help: 'reader max_tokens (official --gen_length); the history budget shrinks with it',
    defaultHelp: '800 for both prompt styles, what the official run_generation.py sends',
  },
  {
    flags: '--reader-history <roles>',
    key: 'readerHistory',
    group: 'qa',
    help: 'turns in the reader history: all, or user turns only (official --useronly true)',
  },
  {
    flags: '--reader-notes',
    key: 'readerNotes',
    group: 'qa',
    help: 'Chain-of-Note (official --con true): a note per history chunk, then the answer over the notes',
  },
  {
    flags: '--reader-context <unit>',
    key: 'readerContext',
    group: 'qa',
    help: 'what the reader gets from a turn retriever: whole sessions, or each retrieved turn with its round (official flat-turn)',
  },
  {
    flags: '--answers <source>',
    key: 'answers',
    group: 'qa',
    help: "whose answers are judged: lme's reader (--reader-model) or the provider's own (--provider http returning answer)",
  },
  { flags: '--judge-model <model>', key: 'judgeModel', group: 'qa', help: 'official LLM judge model' },
  {
    flags: '--judge-samples <n>',
    key: 'judgeSamples',
    group: 'qa',
    help: 'judge calls per answer, majority wins; agreement and a 95% Wilson interval reported beside',
  },
  {
    flags: '--judge-temperature <t>',
    key: 'judgeTemperature',
    group: 'qa',
    help: 'judge sampling temperature (0 official; set above 0 with --judge-samples above 1)',
  },
  {
    flags: '--judge <rubric>',
    key: 'judge',
    group: 'qa',
    help: "judge rubric by name (the benchmarks' judges; an unknown name is refused, with close names)",
    defaultHelp: "the dataset's benchmark's published judge",
  },
  {
    flags: '--base-url <url>',
    key: 'baseUrl',
    group: 'qa',
    help: 'OpenAI-compatible endpoint (env OPENAI_BASE_URL, read by config/openai-endpoints.ts); key from OPENAI_API_KEY',
  },
  {
    flags: '--reader-base-url <url>',
    key: 'readerBaseUrl',
    group: 'qa',
    help: 'endpoint for the reader only (key: LME_READER_API_KEY or OPENAI_API_KEY)',
  },
  {
    flags: '--judge-base-url <url>',
    key: 'judgeBaseUrl',
    group: 'qa',
    help: 'endpoint for the judge only (key: LME_JUDGE_API_KEY or OPENAI_API_KEY)',
  },
  {
    flags: '--max-retries <n>',
    key: 'maxRetries',
    group: 'qa',
    help: 'retries of a failed LLM call, by the client',
  },
  { flags: '--timeout <ms>', key: 'timeoutMs', group: 'qa', help: 'timeout of one LLM call in milliseconds' },
  {
    flags: '--max-cost <usd>',
    key: 'maxCost',
    group: 'qa',
    help: 'stop starting questions once the estimated spend passes this',
  },
  { flags: '-o, --out <dir>', key: 'out', group: 'output', help: 'parent folder of run folders' },
  {
    flags: '--run-id <id>',
    key: 'runId',
    group: 'run',
    help: 'name of the run folder',
    defaultHelp: 'time, dataset, retriever, granularity',
  },
  {
    flags: '--overwrite',
    key: 'overwrite',
    group: 'run',
    help: 'replace the outputs of an existing run folder with the same --run-id',
  },
  {
    flags: '--label <text>',
    key: 'label',
    group: 'run',
    help: 'a name for the run, recorded in config.json and shown in the CSVs, compare and report',
  },
] as const satisfies readonly RunOptionDeclaration[];

export type RunOptionName = (typeof RUN_OPTIONS)[number]['flags'];

/** `-j, --concurrency <n>` → `concurrency`; `--no-cache` → `cache` (commander's attribute name). */
export function attributeName(flags: string): string {
  const long = /--([a-z0-9-]+)/.exec(flags)?.[1] ?? flags;
  const name = long.startsWith('no-') ? long.slice(3) : long;
  return name.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/** `-j, --concurrency <n>` → `--concurrency` (a `--no-x` flag keeps its `no-`). */
export function longFlag(flags: string): string {
  return /--[a-z0-9-]+/.exec(flags)?.[0] ?? flags;
}

/** The declaration of one config key. */
export function runOptionOf(key: string): RunOptionDeclaration | undefined {
  return (RUN_OPTIONS as readonly RunOptionDeclaration[]).find((option) => option.key === key);
}

/** A config key as the user wrote it: `topSessions` → `--top-sessions`; unknown keys stay as they are. */
export function flagOfKey(key: string): string {
  const option = runOptionOf(key);
  return option ? longFlag(option.flags).replace(/^--no-/, '--') : key;
}

/**
 * The config keys the environment sets, read here and nowhere else in the run config. Flags
 * override them; they override presets.
 */
export function configFromEnvironment(environment: NodeJS.ProcessEnv): RunConfigInput {
  const fromEnvironment: Record<string, string> = {};
  for (const option of RUN_OPTIONS as readonly RunOptionDeclaration[]) {
    const value = option.env ? environment[option.env] : undefined;
    if (value) fromEnvironment[option.key] = value;
  }
  return fromEnvironment as RunConfigInput;
}
