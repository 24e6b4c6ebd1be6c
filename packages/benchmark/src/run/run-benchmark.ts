import { resolve } from 'node:path';
import pLimit from 'p-limit';
import { benchmarkNamed } from '../benchmarks/benchmark-registry.js';
import { resolveDatasetPath } from '../benchmarks/dataset-path.js';
import type { LongMemEvalRecord } from '../benchmarks/longmemeval-record.js';
import type { RunConfig } from '../config/run-config.js';
import { createErrataApplier, type ErrataApplication } from '../errata/apply-errata.js';
import { checkErrataDataset } from '../errata/check-errata-dataset.js';
import { loadErrata } from '../errata/load-errata.js';
import { createProvider } from '../providers/create-provider.js';
import type { PipelineResources } from '../providers/pipeline/configured-embedder.js';
import type { Provider } from '../providers/provider.js';
import { parseProviderOptions, providerCapabilities, providerNamed } from '../providers/provider-registry.js';
import { describeProvider } from '../results/provider-identity.js';
import type { Sample } from '../results/sample.js';
import type { Summary } from '../results/summary.js';
import { benchmarkOfDataset, settleBenchmarkDefaults } from './benchmark-defaults.js';
import { checkServers } from './checks/check-servers.js';
import { datasetFileSha256 } from './checks/dataset-checksum.js';
import { preflightRun } from './checks/preflight.js';
import { addSample, type Spend, spendOf } from './checks/spend.js';
import { claimRunFolder, openRunFolder } from './files/run-folder.js';
import { collectProvenance } from './outputs/provenance.js';
import { type ProviderAnswerStats, providerAnswerStats } from './outputs/provider-answer-stats.js';
import { runFingerprint } from './outputs/run-fingerprint.js';
import { prepareResume, type RunManifest } from './outputs/run-manifest.js';
import { currentSetup } from './outputs/run-setup.js';
import { type RunResult, writeRunOutputs } from './outputs/write-run-outputs.js';
import { createQaStage } from './phases/qa-stage.js';
import { runQuestion } from './phases/run-question.js';
import { checkRunId, defaultRunId } from './run-id.js';
import { absentGoldWarning } from './selection/absent-gold.js';
import {
  checkDataset,
  type LoadedRecords,
  noQuestionsMessage,
  openQuestionSource,
} from './selection/question-source.js';

export { type RunManifest, readManifest } from './outputs/run-manifest.js';
export { type RunResult, writeRunOutputs } from './outputs/write-run-outputs.js';
export { defaultRunId } from './run-id.js';
export type { LoadedRecords } from './selection/question-source.js';
export { selectionOf, selectRecords } from './selection/question-source.js';

/** Optional hooks through which a run reports progress; the core never prints. */
export type RunHooks = {
  /** Once the run folder is claimed, before the first question. */
  onRunStart?(info: { dir: string; runId: string }): void;
  onResume?(info: { dir: string; finished: number; droppedTornLine: boolean; retrying: number }): void;
  onDatasetRead?(info: { path: string; questions: number; sha256: string }): void;
  /**
   * Before the first question: the questions selected from the dataset (undefined when a streamed
   * file could not be counted), of which `finished` are already done (a resumed run).
   */
  onQuestionsSelected?(info: { path: string; questions: number | undefined; finished: number }): void;
  /** `fraction` is the share of the work done so far, estimated while the dataset streams. */
  onQuestionEnd?(info: {
    sample: Sample;
    done: number;
    /** The questions of the selection, as onQuestionsSelected said. */
    total: number | undefined;
    fraction: number;
    note?: string;
  }): void;
  onRunEnd?(info: { summary: Summary; dir: string; table: string }): void;
  /** Once, when the run starts: whether QA runs, and how to turn it on if not. */
  onNotice?(message: string): void;
  /** Something the user should act on that does not stop the run (an unusable LLM cache, gold missing from its haystack). */
  onWarning?(message: string): void;
};

export type RunDependencies = {
  argv?: readonly string[];
  hooks?: RunHooks;
  signal?: AbortSignal;
  /** Where API keys and endpoints are read (the process environment by default). */
  environment?: NodeJS.ProcessEnv;
  /** Replaces the provider the config selects (tests, external systems). */
  provider?: Provider;
  /** Resources shared across runs (an ablation's embedder). */
  resources?: PipelineResources;
  /** The dataset already in memory (ablations read it once for every variant). */
  dataset?: LoadedRecords;
  /** Continue the run in this folder: finished questions are skipped. */
  resume?: { dir: string; retryErrors?: boolean; mixed?: boolean };
};

/**
 * A finished run: its outputs, the LLM spend recorded in its samples (all sessions) and, when the
 * provider answered questions itself, its answering figures.
 */
export type BenchmarkResult = RunResult & {
  spend: Spend;
  stopReason?: string;
  providerAnswers?: ProviderAnswerStats;
};

/** Thrown when a run stops on its abort signal; everything finished is already saved. */
export class RunInterruptedError extends Error {
  constructor(
    readonly dir: string,
    readonly saved: number,
  ) {
    super(`Run interrupted; ${saved} questions saved in ${dir}.`);
  }
}

/**
 * Runs one benchmark: checks everything it needs first (preflight), asks the provider to retrieve
 * for every selected question, grades each ranking, appends one line per question to
 * samples.jsonl as it finishes (so a crash loses nothing finished), then writes the summary, CSVs
 * and report. With `resume`, questions already in the folder's samples.jsonl are skipped and the
 * config and dataset file must match the stored ones. A start that fails leaves no folder behind.
 */
export async function runBenchmark(
  requested: RunConfig,
  dependencies: RunDependencies = {},
): Promise<BenchmarkResult> {
  const { hooks = {}, signal } = dependencies;
  const datasetPath = resolveDatasetPath(requested.dataset, requested.dataDir);
  // The judge and reader prompt the dataset's benchmark publishes, where the config sets none.
  const config = settleBenchmarkDefaults(
    requested,
    dependencies.dataset
      ? benchmarkNamed(dependencies.dataset.format)
      : await benchmarkOfDataset(datasetPath),
  );
  const argv = [...(dependencies.argv ?? process.argv.slice(2))];
  if (config.runId !== undefined) checkRunId(config.runId);
  await preflightRun({
    config,
    datasetPath,
    environment: dependencies.environment,
    datasetInMemory: dependencies.dataset !== undefined,
  });
  await checkDataset(datasetPath, config, dependencies.dataset?.records);
  const errata = await prepareErrata(config, datasetPath);
  const resume = dependencies.resume
    ? await prepareResume({ ...dependencies.resume, config, datasetPath, argv })
    : undefined;
  const givenRunId = resume?.manifest.run_id ?? config.runId;
  // The default run id names an external system as its health reply does: known after preflight.
  let runId = givenRunId ?? '';
  const previous = resume?.previous ?? [];

  // Everything that can fail at start happens before the folder is claimed.
  const provider =
    dependencies.provider ??
    createProvider(config, () => runId, dependencies.resources, dependencies.environment ?? process.env);
  let claim: ReturnType<typeof claimRunFolder> | undefined;
  const counts = { written: 0 };
  try {
    // Every server answers before the first question, or the run stops in seconds naming it.
    // Interrupted while checking: the loop below stops before the first question, as interrupted.
    await checkServers({ config, provider, environment: dependencies.environment, signal }).catch(
      (error: unknown) => {
        if (!signal?.aborted) throw error;
      },
    );
    const identity = provider.identity?.();
    runId = givenRunId ?? defaultRunId(config, new Date(), identity ? { provider: identity } : {});
    const dir = resume?.dir ?? resolve(config.out, runId);
    const manifest = await startManifest({ config, runId, argv, datasetPath, resume, errata });
    if (identity) {
      const before = manifest.provider;
      if (resume && before && describeProvider(before) !== describeProvider(identity))
        hooks.onNotice?.(
          `The provider now reports itself as ${describeProvider(identity)} (the run began with ${describeProvider(before)}); config.json records the new one.`,
        );
      manifest.provider = identity;
    }
    const qa = await createQaStage(config, dependencies.environment, (message) => hooks.onWarning?.(message));
    const source = await openQuestionSource(datasetPath, config, dependencies.dataset, undefined, (message) =>
      hooks.onWarning?.(message),
    );
    claim = claimRunFolder(dir, { mode: resume ? 'resume' : 'new', overwrite: config.overwrite });
    hooks.onRunStart?.({ dir, runId });
    if (resume)
      hooks.onResume?.({
        dir,
        finished: previous.length,
        droppedTornLine: resume.droppedTornLine,
        retrying: resume.retrying,
      });
    if (resume?.mixedChanges)
      hooks.onWarning?.(
        `continuing ${dir} under another setup (${resume.mixedChanges.join('; ')}): the run is recorded as mixed (--resume-mixed).`,
      );
    if (errata.warning) hooks.onNotice?.(errata.warning);
    if (!qa) hooks.onNotice?.(qaSkippedNotice(config));
    const folder = openRunFolder(dir);
    try {
      if (resume) folder.rewriteSamples(previous);
      // The questions the run sets out to answer: `lme runs` shows a stopped run's done of total.
      if (source.total !== undefined) manifest.questions_total = source.total;
      folder.writeJson('config.json', manifest);
      hooks.onQuestionsSelected?.({ path: datasetPath, questions: source.total, finished: previous.length });
      const outcome = await runQuestions({
        config,
        source,
        // A second pass over the selection, one record at a time, for a provider that plans.
        planSource: () => openQuestionSource(datasetPath, config, dependencies.dataset),
        provider,
        qa,
        folder,
        previous,
        applyErrata: errata.apply,
        hooks,
        signal,
        counts,
      });
      // Cached vectors written before the figures are reported, so they count this run's whole cache work.
      if (!outcome.failure)
        await provider.flush?.().catch((error: unknown) => {
          hooks.onWarning?.(
            `writing the embedding cache failed (the run goes on; closing tries again): ${error instanceof Error ? error.message : String(error)}`,
          );
        });
      return finishRun({
        config,
        dir,
        datasetPath,
        folder,
        manifest,
        provider,
        hooks,
        signal,
        source,
        outcome,
        fromOtherEndpoints: qa?.answersFromOtherEndpoints() ?? {},
      });
    } finally {
      folder.close();
    }
  } catch (error) {
    // A run that failed before its first question leaves no folder that would block its id.
    if (claim?.created && counts.written === 0 && !(error instanceof RunInterruptedError)) claim.discard();
    throw error;
  } finally {
    claim?.release();
    // A provider that fails to close (a vector store it cannot drop) costs a warning, never the
    // run's outcome: the results are written, and the exit code stays the one they call for.
    await provider.close?.().catch((error: unknown) => {
      hooks.onWarning?.(
        `closing the provider failed after the run (its results stand): ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  }
}

/** `--errata`: the file parsed and checked against this dataset before anything starts; none: records pass as they are. */
type PreparedErrata = {
  apply: (record: LongMemEvalRecord) => ErrataApplication;
  /** What config.json records of the errata applied. */
  recorded?: RunManifest['errata'];
  /** The dataset's checksum is not the errata's (`--errata-any-checksum`). */
  warning?: string;
};

async function prepareErrata(config: RunConfig, datasetPath: string): Promise<PreparedErrata> {
  if (config.errata === undefined) return { apply: (record) => ({ record }) };
  const errata = loadErrata(config.errata);
  const check = await checkErrataDataset(errata, datasetPath, config.errataAnyChecksum === true);
  return {
    apply: createErrataApplier(errata, { skipMismatches: check.warning !== undefined }),
    recorded: {
      name: errata.name,
      version: errata.version,
      path: errata.path,
      file_sha256: errata.file_sha256,
      dataset_sha256: check.sha256,
      entries: errata.entries.length,
      ...(check.warning ? { checksum_override: true } : {}),
    },
    ...(check.warning ? { warning: check.warning } : {}),
  };
}

/** The manifest config.json starts with: a new run's, or the resumed run's, neither partial nor finished. */
async function startManifest(options: {
  config: RunConfig;
  runId: string;
  argv: readonly string[];
  datasetPath: string;
  resume: Awaited<ReturnType<typeof prepareResume>> | undefined;
  errata: PreparedErrata;
}): Promise<RunManifest> {
  const { config, runId, datasetPath, resume, errata } = options;
  const { overwrite: _overwrite, ...recorded } = config;
  const manifest: RunManifest = resume?.manifest ?? {
    run_id: runId,
    config: { ...recorded, runId },
    provenance: collectProvenance([...options.argv]),
    dataset: { path: datasetPath, sha256: null, file_sha256: await datasetFileSha256(datasetPath) },
    setup: currentSetup(config),
  };
  if (errata.recorded) manifest.errata = errata.recorded;
  const providerOptions = parseProviderOptions(providerNamed(config.provider), config.providerOptions);
  if (config.providerOptions !== undefined && Object.keys(providerOptions).length > 0) {
    manifest.provider_options = providerOptions;
  }
  // A resumed run is partial again only if it stops again.
  delete manifest.partial;
  delete manifest.finished_at;
  delete manifest.cache;
  delete manifest.fingerprint;
  return manifest;
}

function qaSkippedNotice(config: RunConfig): string {
  const capabilities = providerCapabilities(config.provider);
  return capabilities.answersItself
    ? "QA skipped: set --answers provider to judge the system's own answers, or --reader-model to answer from its hits (with OPENAI_BASE_URL / OPENAI_API_KEY)."
    : capabilities.ranks
      ? 'QA skipped: set --reader-model (with OPENAI_BASE_URL / OPENAI_API_KEY) to measure answer accuracy.'
      : `--provider ${config.provider} only feeds the reader: set --reader-model to measure answer accuracy.`;
}

type QuestionSource = Awaited<ReturnType<typeof openQuestionSource>>;
type RunFolder = ReturnType<typeof openRunFolder>;

/** How the question loop ended. */
type QuestionsOutcome = {
  /** The finished samples, the resumed run's included, in finishing order. */
  samples: Sample[];
  spend: Spend;
  /** Questions the selection gave (finished ones included). */
  selected: number;
  interrupted: boolean;
  stopReason?: string;
  /** An error outside any question (a full disk writing samples.jsonl), which stops the run. */
  failure?: { error: unknown };
};

/**
 * The worker pool over the selected questions (`--concurrency`): each question not already
 * finished is run, its sample appended as it finishes; starting stops on the abort signal, an
 * interrupted question, a failure, or `--max-cost`.
 */
async function runQuestions(options: {
  config: RunConfig;
  source: QuestionSource;
  planSource: () => Promise<QuestionSource>;
  provider: Provider;
  qa: Awaited<ReturnType<typeof createQaStage>>;
  folder: RunFolder;
  previous: readonly Sample[];
  applyErrata: PreparedErrata['apply'];
  hooks: RunHooks;
  signal: AbortSignal | undefined;
  counts: { written: number };
}): Promise<QuestionsOutcome> {
  const { config, source, provider, qa, folder, hooks, signal } = options;
  const finished = new Set(options.previous.map((sample) => sample.question_id));
  const samples: Sample[] = [...options.previous];
  // The spend already recorded (a resumed run's earlier sessions) counts against --max-cost.
  const spend = spendOf(options.previous);
  const limit = pLimit(config.concurrency);
  const inFlight = new Set<Promise<void>>();
  const outcome: QuestionsOutcome = { samples, spend, selected: 0, interrupted: false };
  let done = 0;
  const budgetStop = (): string | undefined => {
    if (config.maxCost === undefined || !qa) return undefined;
    if (spend.missingUsage !== undefined) {
      return `the server reported no token usage for question ${spend.missingUsage}, so --max-cost cannot be enforced`;
    }
    if (spend.usd >= config.maxCost) return `estimated spend $${spend.usd.toFixed(4)} reached --max-cost`;
    return undefined;
  };
  const prepareNext = (published: LongMemEvalRecord) => {
    if (!provider.prepare) return;
    try {
      provider.prepare({ record: options.applyErrata(published).record, signal });
    } catch {
      // Errata that do not fit the question: runOne reports it when the question runs.
    }
  };
  const runOne = async ({ record: published, position }: { record: LongMemEvalRecord; position: number }) => {
    const { record, mark } = options.applyErrata(published);
    const sample = await runQuestion({
      record,
      position,
      provider,
      qa,
      config,
      signal,
      onExplain: config.explain
        ? (line) => folder.appendText('explain.jsonl', `${JSON.stringify(line)}\n`)
        : undefined,
    });
    if (sample === undefined) {
      outcome.interrupted = true;
      return;
    }
    if (mark) sample.errata = mark;
    folder.appendSample(sample);
    options.counts.written++;
    samples.push(sample);
    addSample(spend, sample);
    done++;
    hooks.onQuestionEnd?.({
      sample,
      done: samples.length,
      total: source.total,
      fraction: source.fraction(done),
      note: provider.progress?.(),
    });
  };
  if (provider.plan) {
    // A provider sharing work between questions (one ingest per haystack) is told them all first,
    // from a second pass over the selection (streamed: records are not held).
    const planned = await options.planSource();
    const applyErrata = options.applyErrata;
    await provider.plan({
      records: (async function* () {
        for await (const { record } of planned.items) {
          if (finished.has(record.question_id)) continue;
          try {
            yield applyErrata(record).record;
          } catch {
            yield record; // runOne reports errata that do not fit the question
          }
        }
      })(),
    });
  }
  try {
    for await (const item of source.items) {
      outcome.selected++;
      if (finished.has(item.record.question_id)) continue;
      if (inFlight.size >= config.concurrency) {
        // This question runs next: its haystack is indexed while the ones in flight finish.
        prepareNext(item.record);
        await Promise.race(inFlight);
      }
      if (signal?.aborted || outcome.interrupted || outcome.failure) break;
      outcome.stopReason = budgetStop();
      if (outcome.stopReason) break;
      // Caught on its task, so a failure is never an unhandled rejection that kills the process.
      const task = limit(() => (outcome.failure ? undefined : runOne(item)))
        .catch((error: unknown) => {
          outcome.failure ??= { error };
        })
        .finally(() => inFlight.delete(task));
      inFlight.add(task);
    }
  } finally {
    await Promise.all(inFlight);
  }
  return outcome;
}

/**
 * After the question loop: a failure or an interruption marks the run partial and throws; else
 * the outputs are written and config.json records the finish (or the `--max-cost` stop).
 */
function finishRun(options: {
  config: RunConfig;
  dir: string;
  datasetPath: string;
  folder: RunFolder;
  manifest: RunManifest;
  provider: Provider;
  hooks: RunHooks;
  signal: AbortSignal | undefined;
  source: QuestionSource;
  outcome: QuestionsOutcome;
  /** Answers the completion cache served from entries another endpoint made, per endpoint. */
  fromOtherEndpoints: Record<string, number>;
}): BenchmarkResult {
  const { config, dir, datasetPath, folder, manifest, provider, hooks, signal, source, outcome } = options;
  const { samples, spend, stopReason } = outcome;
  const markPartial = (reason: string) =>
    folder.writeJson('config.json', {
      ...manifest,
      partial: { reason, stopped_at: new Date().toISOString() },
    });
  if (outcome.failure) {
    try {
      markPartial(`stopped by an error: ${(outcome.failure.error as Error).message}`);
    } catch {
      // The disk that failed may refuse this too; config.json then records no finish time.
    }
    throw outcome.failure.error;
  }
  if (!stopReason && (outcome.interrupted || signal?.aborted)) {
    markPartial('interrupted by a signal (Ctrl-C or SIGTERM)');
    throw new RunInterruptedError(dir, samples.length);
  }
  if (outcome.selected === 0) throw new Error(noQuestionsMessage(datasetPath, config));
  if (!stopReason) {
    manifest.dataset.sha256 = source.sha256();
    hooks.onDatasetRead?.({
      path: datasetPath,
      questions: samples.length,
      sha256: manifest.dataset.sha256,
    });
  }
  samples.sort((left, right) => left.position - right.position);
  const absentGold = absentGoldWarning(samples);
  if (absentGold) hooks.onWarning?.(absentGold);
  if (Object.keys(options.fromOtherEndpoints).length > 0) {
    manifest.cache = { answers_from_other_endpoints: options.fromOtherEndpoints };
    spend.fromOtherEndpoints = options.fromOtherEndpoints;
  }
  const providerAnswers = providerAnswerStats(samples);
  const result: BenchmarkResult = {
    ...writeRunOutputs(folder, manifest, samples, stopReason),
    spend,
    ...(providerAnswers ? { providerAnswers } : {}),
  };
  if (stopReason) {
    result.stoppedAtCost = spend.usd;
    result.stopReason = stopReason;
    markPartial(stopReason);
  } else {
    const reported = provider.report?.();
    const providerStats =
      reported || providerAnswers
        ? { ...reported, ...(providerAnswers ? { answers: providerAnswers } : {}) }
        : undefined;
    const fingerprint = runFingerprint({
      config,
      datasetSha256: manifest.dataset.sha256,
      samples,
      embedderUsed: typeof reported?.['embedderIdentity'] === 'string',
    });
    folder.writeJson('config.json', {
      ...manifest,
      ...(providerStats ? { provider_stats: providerStats } : {}),
      // A mixed run's rankings come from several setups: its fingerprint says so.
      fingerprint: manifest.mixed ? { ...fingerprint, mixed: true } : fingerprint,
      finished_at: new Date().toISOString(),
    });
  }
  hooks.onRunEnd?.(result);
  return result;
}
