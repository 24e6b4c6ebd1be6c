import { Command, Option } from 'commander';
import { listPresets, loadPreset } from '../config/presets.js';
import { parseRunConfig, type RunConfig, type RunConfigInput } from '../config/run-config.js';
import { planRun, renderPlan } from '../run/plan-run.js';
import { RunInterruptedError, readManifest, runBenchmark, selectRecords } from '../run/run-benchmark.js';
import { integerFlag, listFlag, namedWeightsFlag, numberFlag, weightsFlag } from './parse-flag.js';
import { createProgress } from './progress.js';

/** Flag name → config key, for the flags that set run config. */
export const FLAG_KEYS = {
  preset: 'preset',
  dataset: 'dataset',
  dataDir: 'dataDir',
  provider: 'provider',
  retriever: 'retriever',
  tokenizer: 'tokenizer',
  granularity: 'granularity',
  indexRoles: 'indexRoles',
  convention: 'convention',
  exclusion: 'exclusion',
  duplicateSessions: 'duplicateSessions',
  embedder: 'embedder',
  vectorStore: 'vectorStore',
  fusion: 'fusion',
  rrfK: 'rrfK',
  weights: 'weights',
  feedbackDocs: 'feedbackDocs',
  feedbackWeight: 'feedbackWeight',
  sessionAware: 'sessionAware',
  topSessions: 'topSessions',
  turnsPerSession: 'turnsPerSession',
  finalTopK: 'finalTopK',
  sessionIndex: 'sessionIndex',
  summarizer: 'summarizer',
  summarizerModel: 'summarizerModel',
  sessionWeights: 'sessionWeights',
  chunkUnit: 'chunkUnit',
  contextual: 'contextual',
  contextualModel: 'contextualModel',
  contextualDense: 'contextualDense',
  multiRoute: 'multiRoute',
  sessionFirst: 'sessionFirst',
  multiSignal: 'multiSignal',
  dedup: 'dedup',
  dedupThreshold: 'dedupThreshold',
  mmr: 'mmr',
  mmrLambda: 'mmrLambda',
  mmrDuplicate: 'mmrDuplicate',
  contextBudget: 'contextBudget',
  explain: 'explain',
  cache: 'cache',
  cacheDir: 'cacheDir',
  saveHits: 'saveHits',
  concurrency: 'concurrency',
  limit: 'limit',
  seed: 'seed',
  questionIds: 'questionIds',
  questionTypes: 'questionTypes',
  shard: 'shard',
  providerUrl: 'providerUrl',
  providerAuthEnv: 'providerAuthEnv',
  providerAuthHeader: 'providerAuthHeader',
  providerTimeout: 'providerTimeoutMs',
  providerRetries: 'providerMaxRetries',
  topK: 'topK',
  readerModel: 'readerModel',
  readerPrompt: 'readerPrompt',
  historyFormat: 'historyFormat',
  readerTopK: 'readerTopK',
  judgeModel: 'judgeModel',
  judgeSamples: 'judgeSamples',
  baseUrl: 'baseUrl',
  readerBaseUrl: 'readerBaseUrl',
  judgeBaseUrl: 'judgeBaseUrl',
  maxRetries: 'maxRetries',
  timeout: 'timeoutMs',
  maxCost: 'maxCost',
  out: 'out',
  runId: 'runId',
} as const satisfies Record<string, keyof RunConfigInput>;

/** Environment variables that set config keys (below flags, above defaults). */
export function configFromEnvironment(environment: NodeJS.ProcessEnv): RunConfigInput {
  const fromEnvironment: RunConfigInput = {};
  if (environment.LME_DATA_DIR) fromEnvironment.dataDir = environment.LME_DATA_DIR;
  if (environment.LME_CACHE_DIR) fromEnvironment.cacheDir = environment.LME_CACHE_DIR;
  return fromEnvironment;
}

function choice(flags: string, description: string, choices: string[]): Option {
  return new Option(flags, description).choices(choices);
}

export function addRunOptions(command: Command): Command {
  return command
    .option(
      '--preset <name>',
      `start from a named config in configs/presets (${listPresets().join(', ')}); flags override it`,
    )
    .option(
      '-d, --dataset <name|path>',
      'oracle, s, m, sample, or a path to a LongMemEval .json/.json.gz (default: sample)',
    )
    .option('--data-dir <dir>', 'folder holding the LongMemEval files (env LME_DATA_DIR; default: datasets)')
    .addOption(
      choice('--provider <name>', 'memory system under test (default: pipeline)', [
        'pipeline',
        'full-context',
        'oracle',
        'http',
      ]),
    )
    .addOption(
      choice('--retriever <name>', 'retriever of the pipeline (default: bm25)', ['bm25', 'dense', 'hybrid']),
    )
    .addOption(
      choice(
        '--tokenizer <name>',
        'BM25 tokenizer: official = Python split(" "), words = lowercase stemmed words (default: words)',
        ['official', 'words'],
      ),
    )
    .addOption(
      choice('--granularity <unit>', 'index whole sessions or single turns (default: session)', [
        'session',
        'turn',
      ]),
    )
    .addOption(
      choice('--index-roles <roles>', 'index user turns only (official) or all turns (default: user)', [
        'user',
        'all',
      ]),
    )
    .addOption(
      choice(
        '--convention <name>',
        'gold definition: official scripts or answer_session_ids/has_answer (default: official)',
        ['official', 'evidence'],
      ),
    )
    .addOption(
      choice(
        '--exclusion <A|B>',
        'official means: A skips _abs; B also skips questions with no user-side gold (default: A)',
        ['A', 'B'],
      ),
    )
    .addOption(
      choice(
        '--duplicate-sessions <policy>',
        'a session id twice in one haystack: keep both (official) or the first (default: keep)',
        ['keep', 'first'],
      ),
    )
    .option('--embedder <name>', 'local:use-lite or openai:<model> (default: local:use-lite)')
    .addOption(
      choice('--vector-store <name>', 'vector index backend (default: memory)', ['memory', 'qdrant']),
    )
    .addOption(
      choice(
        '--fusion <name>',
        'hybrid fusion: weighted min-max sum or reciprocal rank (default: weighted)',
        ['rrf', 'weighted'],
      ),
    )
    .option('--rrf-k <n>', 'k of reciprocal rank fusion (default: 60)', numberFlag(1))
    .option('--weights <bm25,dense>', 'weights of the weighted fusion (default: 0.3,0.7)', weightsFlag)
    .option(
      '--feedback-docs <n>',
      'dense pseudo-relevance feedback: move the query towards its top n documents and search again (presets hybrid, session-aware: 2; default: 0, off)',
      integerFlag(0, 1000),
    )
    .option('--feedback-weight <w>', 'how far --feedback-docs moves the query (default: 0.3)', numberFlag(0))
    .option('--session-aware', 'two-stage retrieval: top sessions first, then the best turns inside them')
    .option('--top-sessions <n>', 'sessions kept by stage 1 (default: 5)', integerFlag(1, 1000))
    .option('--turns-per-session <n>', 'turns kept per session by stage 2 (default: 3)', integerFlag(1, 1000))
    .option('--final-top-k <n>', 'turns returned after merging (default: 10)', integerFlag(1, 10000))
    .addOption(
      choice('--session-index <kind>', 'what stage 1 ranks sessions by (default: text)', [
        'summary',
        'text',
        'both',
      ]),
    )
    .addOption(
      choice('--summarizer <kind>', 'session summaries: extractive (offline) or llm (default: extractive)', [
        'extractive',
        'llm',
      ]),
    )
    .option('--summarizer-model <model>', 'chat model of --summarizer llm (default: gpt-4o-mini)')
    .option(
      '--session-weights <name=w,...>',
      'stage-1 weights of text, dense, summary, centroid (default by --session-index; text: text=0.3,dense=0.7)',
      namedWeightsFlag,
    )
    .addOption(
      choice(
        '--chunk-unit <unit>',
        'indexed chunk: turn, round (user turn + reply) or session (default: --granularity)',
        ['turn', 'round', 'session'],
      ),
    )
    .addOption(
      choice('--contextual <kind>', 'context line before each chunk at index time (default: none)', [
        'none',
        'template',
        'llm',
      ]),
    )
    .option('--contextual-model <model>', 'chat model of --contextual llm (default: gpt-4o-mini)')
    .option('--contextual-dense', 'the dense route embeds the contextualized text (the default)')
    .option(
      '--no-contextual-dense',
      'the dense route embeds the original text; the context goes to BM25 only',
    )
    .option(
      '--multi-route',
      'multi-route recall: turn BM25, turn dense and session-text BM25 fused by RRF (--rrf-k)',
    )
    .option('--session-first', 'with --multi-route: rank sessions by session score plus bounded turn support')
    .option('--multi-signal', 'query understanding and a multi-signal re-rank (entities, time, recency)')
    .option('--dedup', 'merge near-duplicate hits (cosine >= --dedup-threshold)')
    .option(
      '--dedup-threshold <cosine>',
      'cosine at which --dedup merges two hits (default: 0.95)',
      numberFlag(0, 1),
    )
    .option('--mmr', 'maximal marginal relevance over the candidate pool (needs document vectors)')
    .option('--mmr-lambda <x>', 'MMR relevance weight against redundancy (default: 0.78)', numberFlag(0, 1))
    .option(
      '--mmr-duplicate <cosine>',
      'MMR skips a candidate this similar to a selected hit (default: 0.94)',
      numberFlag(0, 1),
    )
    .option(
      '--context-budget <tokens>',
      'measure context.evidence_recall: pack the top hits into this many o200k_base tokens (presets: 2000; default: off)',
      integerFlag(1),
    )
    .option('--explain', 'write explain.jsonl: routes, stage decisions and timings per question')
    .option('--no-cache', 'do not read or write the embedding and completion caches')
    .option('--cache-dir <dir>', 'cache folder (env LME_CACHE_DIR; default: .lme-cache)')
    .option('--save-hits <n>', 'hits stored per question in samples.jsonl (default: 50)', integerFlag(0))
    .option('-j, --concurrency <n>', 'questions in flight at once (default: 1)', integerFlag(1, 256))
    .option('--limit <n>', 'at most n questions, stratified by question type (see --seed)', integerFlag(1))
    .option('--seed <n>', 'seed of the --limit subset (default: 42)', integerFlag(0))
    .option('--question-ids <ids>', 'only these question ids, comma-separated', listFlag)
    .option('--question-types <types>', 'only these question types, comma-separated', listFlag)
    .option(
      '--shard <i/n>',
      'only shard i of n (questions whose dataset position % n is i-1); merge with lme merge',
    )
    .option(
      '--provider-url <url>',
      'with --provider http: base URL of a server speaking docs/provider-protocol.md',
    )
    .option(
      '--provider-auth-env <name>',
      'environment variable holding the provider auth header value (only its name is recorded)',
    )
    .option(
      '--provider-auth-header <name>',
      'header the --provider-auth-env value goes in (default: Authorization)',
    )
    .option('--provider-timeout <ms>', 'timeout of one provider request (default: 60000)', integerFlag(1))
    .option(
      '--provider-retries <n>',
      'retries of a provider request after 429/5xx (default: 3)',
      integerFlag(0, 20),
    )
    .option(
      '--top-k <n>',
      'documents every provider is graded on, the same budget for all (default: the whole haystack)',
      integerFlag(1),
    )
    .option('--reader-model <model>', 'answer each question with this chat model (turns on the QA stage)')
    .addOption(
      choice('--reader-prompt <style>', 'official reader prompt: direct or step-by-step (default: cot)', [
        'direct',
        'cot',
      ]),
    )
    .addOption(
      choice('--history-format <format>', 'history given to the reader (default: json)', ['json', 'nl']),
    )
    .option('--reader-top-k <n>', 'retrieved sessions handed to the reader (default: 10)', integerFlag(1))
    .option('--judge-model <model>', 'official LLM judge model (default: gpt-4o-2024-08-06)')
    .option('--judge-samples <n>', 'judge votes per answer, majority wins (default: 1)', integerFlag(1, 15))
    .option('--base-url <url>', 'OpenAI-compatible endpoint (env OPENAI_BASE_URL); key from OPENAI_API_KEY')
    .option(
      '--reader-base-url <url>',
      'endpoint for the reader only (key: LME_READER_API_KEY or OPENAI_API_KEY)',
    )
    .option(
      '--judge-base-url <url>',
      'endpoint for the judge only (key: LME_JUDGE_API_KEY or OPENAI_API_KEY)',
    )
    .option(
      '--max-retries <n>',
      'retries of a failed LLM call, by the client (default: 6)',
      integerFlag(0, 20),
    )
    .option('--timeout <ms>', 'timeout of one LLM call in milliseconds (default: 180000)', integerFlag(1))
    .option(
      '--max-cost <usd>',
      'stop starting questions once the estimated spend passes this',
      numberFlag(0.000001),
    )
    .option('-o, --out <dir>', 'parent folder of run folders (default: results)')
    .option('--run-id <id>', 'name of the run folder (default: time, dataset, retriever, granularity)');
}

/** Keeps only the options the user actually gave, mapped to config keys. */
/**
 * The config a command line asks for: defaults < stored config (resume) < preset < environment
 * < flags. A preset named by flag replaces the stored one.
 */
export function resolveRunConfig(command: Command, stored: RunConfigInput = {}): RunConfig {
  const flags = configFromFlags(command);
  const presetName = flags.preset ?? stored.preset;
  const preset = presetName ? loadPreset(presetName).config : {};
  return parseRunConfig({ ...stored, ...preset, ...configFromEnvironment(process.env), ...flags });
}

export function configFromFlags(command: Command): RunConfigInput {
  const options = command.opts() as Record<string, unknown>;
  const fromFlags: Record<string, unknown> = {};
  for (const [flag, key] of Object.entries(FLAG_KEYS)) {
    const source = command.getOptionValueSource(flag);
    if (source === 'cli' || (source !== undefined && source !== 'default')) fromFlags[key] = options[flag];
  }
  return fromFlags as RunConfigInput;
}

export function runCommand(): Command {
  return addRunOptions(new Command('run').description('run a benchmark and write a results folder'))
    .option('--resume <run-dir>', 'continue a run: skip the questions already in its samples.jsonl')
    .option('--retry-errors', 'with --resume, run again the questions that ended in an error')
    .option(
      '--dry-run',
      'print the plan (questions, documents, texts to embed, LLM calls, tokens, cost) and stop',
    )
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  LME_DATA_DIR=../shared/datasets/longmemeval lme run --dataset s --retriever bm25 --tokenizer official\n' +
        '  lme run --resume results/<run-id>          continue after a crash or Ctrl-C',
    )
    .action(
      async (options: { resume?: string; retryErrors?: boolean; dryRun?: boolean }, command: Command) => {
        if (options.retryErrors && !options.resume)
          throw new Error('--retry-errors needs --resume <run-dir>.');
        // A resumed run starts from its stored config; flags may only change keys that do not
        // affect results (the runner refuses otherwise, naming the keys).
        const stored = options.resume ? readManifest(options.resume).config : {};
        const config = resolveRunConfig(command, stored);
        if (options.dryRun) {
          process.stdout.write(renderPlan(await planRun(config, await selectRecords(config))));
          return;
        }
        const progress = createProgress('questions');
        const controller = new AbortController();
        const onSignal = () => {
          if (controller.signal.aborted) process.exit(130);
          process.stderr.write('\nstopping after the questions in flight (Ctrl-C again to quit now)\n');
          controller.abort();
        };
        process.on('SIGINT', onSignal);
        process.on('SIGTERM', onSignal);
        try {
          const { table, dir, stoppedAtCost } = await runBenchmark(config, {
            argv: process.argv.slice(2),
            signal: controller.signal,
            resume: options.resume ? { dir: options.resume, retryErrors: options.retryErrors } : undefined,
            hooks: {
              onResume: ({ dir, finished, droppedTornLine, retrying }) =>
                process.stderr.write(
                  `resuming ${dir}: ${finished} questions done${retrying ? `, ${retrying} errors to retry` : ''}` +
                    `${droppedTornLine ? '; dropped a torn last line' : ''}\n`,
                ),
              onNotice: (message) => process.stderr.write(`${message}\n`),
              onQuestionEnd: ({ done, fraction, note }) =>
                progress.update(fraction, `${done} questions${note ? ` · ${note}` : ''}`),
              onDatasetRead: ({ path, questions }) => {
                progress.stop();
                process.stderr.write(`read ${questions} questions from ${path}\n`);
              },
            },
          });
          process.stdout.write(`\n${table}\nresults: ${dir}\n`);
          if (stoppedAtCost !== undefined) {
            process.stderr.write(
              `stopped: estimated spend $${stoppedAtCost.toFixed(4)} reached --max-cost; the table covers the finished questions. Continue with: lme run --resume ${dir} --max-cost <more>\n`,
            );
          }
        } catch (error) {
          progress.stop();
          if (error instanceof RunInterruptedError) {
            process.stderr.write(`${error.message} Continue with: lme run --resume ${error.dir}\n`);
            process.exitCode = 130;
            return;
          }
          throw error;
        } finally {
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
        }
      },
    );
}
