import type { Benchmark } from '../benchmarks/benchmark.js';
import type { LongMemEvalRecord } from '../benchmarks/longmemeval-record.js';
import type { RunSections } from '../config/run-sections.js';
import type { ErrataApplication } from '../errata/apply-errata.js';
import type { PipelineResources } from '../providers/pipeline/configured-embedder.js';
import type { Provider } from '../providers/provider.js';
import type { Sample } from '../results/sample.js';
import type { Summary } from '../results/summary.js';
import type { Spend } from './checks/spend.js';
import type { RunFolderClaim } from './files/run-folder.js';
import type { ProviderAnswerStats } from './outputs/provider-answer-stats.js';
import type { prepareResume, RunManifest } from './outputs/run-manifest.js';
import type { RunResult } from './outputs/write-run-outputs.js';
import type { LoadedRecords } from './selection/question-source.js';

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
  /** The dataset's benchmark as the caller found it (the CLI, to layer its published setting): not detected again. */
  benchmark?: Benchmark;
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

/** `--errata`: the file parsed and checked against this dataset before anything starts; none: records pass as they are. */
export type PreparedErrata = {
  apply: (record: LongMemEvalRecord) => ErrataApplication;
  /** What config.json records of the errata applied. */
  recorded?: RunManifest['errata'];
  /** The dataset's checksum is not the errata's (`--errata-any-checksum`). */
  warning?: string;
};

/**
 * What the phases of a run share (prepare, start, the question loop, finish): the requested config
 * resolved once, grouped by section (what every phase reads and hands out), and its flat form for
 * config.json.
 */
export type RunContext = {
  /**
   * The settled config, flat, as config.json records it (`RunManifest['config']`): only what writes
   * and compares config.json takes it (the manifest, the setup and fingerprint hashes, resume).
   */
  readonly config: RunManifest['config'];
  /** The settled config grouped by owner, made once (prepare-run.ts); every setting is read here. */
  readonly sections: RunSections;
  /**
   * The dataset's benchmark, found once (prepare-run.ts): its metrics, answer metrics and errata
   * rules serve every question, not looked up again from each record's question type.
   */
  readonly benchmark: Benchmark | undefined;
  readonly datasetPath: string;
  readonly argv: readonly string[];
  readonly hooks: RunHooks;
  readonly signal: AbortSignal | undefined;
  readonly dependencies: RunDependencies;
  readonly errata: PreparedErrata;
  readonly resume: Awaited<ReturnType<typeof prepareResume>> | undefined;
  /** The resumed run's finished samples (none for a new run). */
  readonly previous: readonly Sample[];
  /** The run id the config or the resumed run gives; undefined: made after the servers answer. */
  readonly givenRunId: string | undefined;
  /** The run's id: known once the servers answered (the default one names an external system). */
  runId: string;
  /** Samples appended to samples.jsonl by this run. */
  readonly counts: { written: number };
  /** The run folder, once claimed. */
  claim?: RunFolderClaim;
};
