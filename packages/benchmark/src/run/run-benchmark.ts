import { resolve } from 'node:path';
import pLimit from 'p-limit';
import { resolveDatasetPath } from '../benchmarks/longmemeval/load-longmemeval.js';
import type { LongMemEvalRecord } from '../benchmarks/longmemeval-record.js';
import type { RunConfig } from '../config/run-config.js';
import { createErrataApplier, type ErrataApplication } from '../errata/apply-errata.js';
import { checkErrataDataset } from '../errata/check-errata-dataset.js';
import { loadErrata } from '../errata/load-errata.js';
import type { PipelineResources } from '../providers/pipeline/configured-embedder.js';
import type { Provider } from '../providers/provider.js';
import type { Sample } from '../results/sample.js';
import type { Summary } from '../results/summary.js';
import { absentGoldWarning } from './absent-gold.js';
import { datasetFileSha256 } from './dataset-checksum.js';
import { preflightRun } from './preflight.js';
import { collectProvenance } from './provenance.js';
import { createProvider } from './provider-registry.js';
import { createQaStage } from './qa-stage.js';
import {
  checkDataset,
  type LoadedRecords,
  noQuestionsMessage,
  openQuestionSource,
} from './question-source.js';
import { claimRunFolder, openRunFolder } from './run-folder.js';
import { checkRunId, defaultRunId } from './run-id.js';
import { prepareResume, type RunManifest } from './run-manifest.js';
import { runQuestion } from './run-question.js';
import { addSample, type Spend, spendOf } from './spend.js';
import { type RunResult, writeRunOutputs } from './write-run-outputs.js';

export type { LoadedRecords } from './question-source.js';
export { selectionOf, selectRecords } from './question-source.js';
export { defaultRunId } from './run-id.js';
export { type RunManifest, readManifest } from './run-manifest.js';
export { type RunResult, writeRunOutputs } from './write-run-outputs.js';

/** Optional hooks through which a run reports progress; the core never prints. */
export type RunHooks = {
  /** Once the run folder is claimed, before the first question. */
  onRunStart?(info: { dir: string; runId: string }): void;
  onResume?(info: { dir: string; finished: number; droppedTornLine: boolean; retrying: number }): void;
  onDatasetRead?(info: { path: string; questions: number; sha256: string }): void;
  /** `fraction` is the share of the work done so far, estimated while the dataset streams. */
  onQuestionEnd?(info: { sample: Sample; done: number; fraction: number; note?: string }): void;
  onRunEnd?(info: { summary: Summary; dir: string; table: string }): void;
  /** Once, when the run starts: whether QA runs, and how to turn it on if not. */
  onNotice?(message: string): void;
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
  resume?: { dir: string; retryErrors?: boolean };
};

/** A finished run: its outputs and the LLM spend recorded in its samples (all sessions). */
export type BenchmarkResult = RunResult & { spend: Spend; stopReason?: string };

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
  config: RunConfig,
  dependencies: RunDependencies = {},
): Promise<BenchmarkResult> {
  const { hooks = {}, signal } = dependencies;
  const datasetPath = resolveDatasetPath(config.dataset, config.dataDir);
  const argv = [...(dependencies.argv ?? process.argv.slice(2))];
  if (config.runId !== undefined) checkRunId(config.runId);
  await preflightRun({
    config,
    datasetPath,
    environment: dependencies.environment,
    datasetInMemory: dependencies.dataset !== undefined,
  });
  await checkDataset(datasetPath, config, dependencies.dataset?.records);
  // --errata: the file must parse and be written for this dataset, before anything starts.
  const errata = config.errata === undefined ? undefined : loadErrata(config.errata);
  const errataCheck = errata
    ? await checkErrataDataset(errata, datasetPath, config.errataAnyChecksum === true)
    : undefined;
  const applyErrata = errata
    ? createErrataApplier(errata, { skipMismatches: errataCheck?.warning !== undefined })
    : (record: LongMemEvalRecord): ErrataApplication => ({ record });

  const resume = dependencies.resume
    ? await prepareResume({ ...dependencies.resume, config, datasetPath, argv })
    : undefined;
  const runId = resume?.manifest.run_id ?? config.runId ?? defaultRunId(config);
  const dir = resume?.dir ?? resolve(config.out, runId);
  const { overwrite: _overwrite, ...recorded } = config;
  const manifest: RunManifest = resume?.manifest ?? {
    run_id: runId,
    config: { ...recorded, runId },
    provenance: collectProvenance(argv),
    dataset: { path: datasetPath, sha256: null, file_sha256: await datasetFileSha256(datasetPath) },
  };
  if (errata && errataCheck) {
    manifest.errata = {
      name: errata.name,
      version: errata.version,
      path: errata.path,
      file_sha256: errata.file_sha256,
      dataset_sha256: errataCheck.sha256,
      entries: errata.entries.length,
      ...(errataCheck.warning ? { checksum_override: true } : {}),
    };
  }
  const previous = resume?.previous ?? [];
  // A resumed run is partial again only if it stops again.
  delete manifest.partial;
  delete manifest.finished_at;
  delete manifest.cache;

  // Everything that can fail at start happens before the folder is claimed.
  const provider = dependencies.provider ?? createProvider(config, runId, dependencies.resources);
  let claim: ReturnType<typeof claimRunFolder> | undefined;
  let written = 0;
  try {
    const qa = await createQaStage(config, dependencies.environment, (message) =>
      hooks.onNotice?.(`warning: ${message}`),
    );
    const source = await openQuestionSource(datasetPath, config, dependencies.dataset);
    claim = claimRunFolder(dir, { mode: resume ? 'resume' : 'new', overwrite: config.overwrite });
    hooks.onRunStart?.({ dir, runId });
    if (resume)
      hooks.onResume?.({
        dir,
        finished: previous.length,
        droppedTornLine: resume.droppedTornLine,
        retrying: resume.retrying,
      });
    if (errataCheck?.warning) hooks.onNotice?.(errataCheck.warning);
    if (!qa) {
      hooks.onNotice?.(
        config.provider === 'pipeline' || config.provider === 'http'
          ? 'QA skipped: set --reader-model (with OPENAI_BASE_URL / OPENAI_API_KEY) to measure answer accuracy.'
          : `--provider ${config.provider} only feeds the reader: set --reader-model to measure answer accuracy.`,
      );
    }
    const folder = openRunFolder(dir);
    try {
      if (resume) folder.rewriteSamples(previous);
      folder.writeJson('config.json', manifest);
      const finished = new Set(previous.map((sample) => sample.question_id));
      const samples: Sample[] = [...previous];
      // The spend already recorded (a resumed run's earlier sessions) counts against --max-cost.
      const spend = spendOf(previous);
      const limit = pLimit(config.concurrency);
      const inFlight = new Set<Promise<void>>();
      let selected = 0;
      let done = 0;
      let interrupted = false;
      let stopReason: string | undefined;
      // An error outside any question (a full disk writing samples.jsonl) stops the run; caught on
      // its task so it is never an unhandled rejection that kills the process with a stack trace.
      let failure: { error: unknown } | undefined;
      const budgetStop = (): string | undefined => {
        if (config.maxCost === undefined || !qa) return undefined;
        if (spend.missingUsage !== undefined) {
          return `the server reported no token usage for question ${spend.missingUsage}, so --max-cost cannot be enforced`;
        }
        if (spend.usd >= config.maxCost) return `estimated spend $${spend.usd.toFixed(4)} reached --max-cost`;
        return undefined;
      };
      const markPartial = (reason: string) =>
        folder.writeJson('config.json', {
          ...manifest,
          partial: { reason, stopped_at: new Date().toISOString() },
        });
      const runOne = async ({
        record: published,
        position,
      }: {
        record: LongMemEvalRecord;
        position: number;
      }) => {
        const { record, mark } = applyErrata(published);
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
          interrupted = true;
          return;
        }
        if (mark) sample.errata = mark;
        folder.appendSample(sample);
        written++;
        samples.push(sample);
        addSample(spend, sample);
        done++;
        hooks.onQuestionEnd?.({
          sample,
          done: samples.length,
          fraction: source.fraction(done),
          note: provider.progress?.(),
        });
      };
      try {
        for await (const item of source.items) {
          selected++;
          if (finished.has(item.record.question_id)) continue;
          if (inFlight.size >= config.concurrency) await Promise.race(inFlight);
          if (signal?.aborted || interrupted || failure) break;
          stopReason = budgetStop();
          if (stopReason) break;
          const task = limit(() => (failure ? undefined : runOne(item)))
            .catch((error: unknown) => {
              failure ??= { error };
            })
            .finally(() => inFlight.delete(task));
          inFlight.add(task);
        }
      } finally {
        await Promise.all(inFlight);
      }
      if (failure) {
        try {
          markPartial(`stopped by an error: ${(failure.error as Error).message}`);
        } catch {
          // The disk that failed may refuse this too; config.json then records no finish time.
        }
        throw failure.error;
      }
      if (!stopReason && (interrupted || signal?.aborted)) {
        markPartial('interrupted by a signal (Ctrl-C or SIGTERM)');
        throw new RunInterruptedError(dir, samples.length);
      }
      if (selected === 0) throw new Error(noQuestionsMessage(datasetPath, config));
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
      if (absentGold) hooks.onNotice?.(absentGold);
      const fromOtherEndpoints = qa?.answersFromOtherEndpoints() ?? {};
      if (Object.keys(fromOtherEndpoints).length > 0) {
        manifest.cache = { answers_from_other_endpoints: fromOtherEndpoints };
        spend.fromOtherEndpoints = fromOtherEndpoints;
      }
      const result: BenchmarkResult = {
        ...writeRunOutputs(folder, manifest, samples, stopReason),
        spend,
      };
      if (stopReason) {
        result.stoppedAtCost = spend.usd;
        result.stopReason = stopReason;
        markPartial(stopReason);
      } else {
        const providerStats = provider.report?.();
        folder.writeJson('config.json', {
          ...manifest,
          ...(providerStats ? { provider_stats: providerStats } : {}),
          finished_at: new Date().toISOString(),
        });
      }
      hooks.onRunEnd?.(result);
      return result;
    } finally {
      folder.close();
    }
  } catch (error) {
    // A run that failed before its first question leaves no folder that would block its id.
    if (claim?.created && written === 0 && !(error instanceof RunInterruptedError)) claim.discard();
    throw error;
  } finally {
    claim?.release();
    await provider.close?.();
  }
}
