import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type RunConfig, resultKeyDifferences } from '../config/run-config.js';
import { detectDatasetFormat, loadAnyDataset } from '../dataset/load-dataset.js';
import { resolveDatasetPath, streamLongMemEval } from '../dataset/load-longmemeval.js';
import { isAbstention, type LongMemEvalRecord } from '../dataset/longmemeval-record.js';
import { contextTrace } from '../metrics/context-recall.js';
import { evaluateQuestion } from '../metrics/question-metrics.js';
import { createContextProvider } from '../providers/context-providers.js';
import { createHttpProvider } from '../providers/http-provider.js';
import type { PipelineResources } from '../providers/pipeline/configured-pipeline.js';
import { createPipelineProvider } from '../providers/pipeline/pipeline-provider.js';
import type { Provider } from '../providers/provider.js';
import { formatHypothesisLine } from '../qa/hypotheses.js';
import { renderSummaryTable } from '../report/render-table.js';
import { samplesCsv, summaryCsv } from '../report/write-csv.js';
import { collectProvenance, type Provenance } from './provenance.js';
import { createQaStage, type QaStage } from './qa-stage.js';
import { openRunFolder } from './run-folder.js';
import type { Sample } from './sample.js';
import { readSamplesFile } from './samples-file.js';
import { acceptsRecord, parseShard, type Selection, stratifiedPositions } from './select-questions.js';
import { type Summary, summarize } from './summarize.js';

/** Optional hooks through which a run reports progress; the core never prints. */
export type RunHooks = {
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
  /** Replaces the provider the config selects (tests, external systems). */
  provider?: Provider;
  /** Resources shared across runs (an ablation's embedder). */
  resources?: PipelineResources;
  /** The dataset already in memory (ablations read it once for every variant). */
  dataset?: LoadedRecords;
  /** Continue the run in this folder: finished questions are skipped. */
  resume?: { dir: string; retryErrors?: boolean };
};

/** A whole dataset read into memory, as `loadAnyDataset` returns it. */
export type LoadedRecords = {
  format: 'longmemeval' | 'locomo';
  records: LongMemEvalRecord[];
  sha256: string;
};

export type RunResult = {
  dir: string;
  summary: Summary;
  table: string;
  /** Set when --max-cost stopped the run early; finished questions are all saved. */
  stoppedAtCost?: number;
};

/** The manifest written to config.json. */
export type RunManifest = {
  run_id: string;
  config: RunConfig;
  provenance: Provenance;
  dataset: { path: string; sha256: string | null };
  resumed?: { argv: string[]; at: string }[];
  /** The provider's run-level figures (embedding and summary cost), written when the run ends. */
  provider_stats?: Record<string, unknown>;
  finished_at?: string;
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

/** A fresh, readable run id: `2026-11-22T01-02-03-s-bm25-session`. */
export function defaultRunId(config: RunConfig): string {
  const stamp = new Date()
    .toISOString()
    .replace(/:/g, '-')
    .replace(/\.\d+Z$/, '');
  const dataset = config.dataset.replace(/^.*[\\/]/, '').replace(/\.json(\.gz)?$/, '');
  return `${stamp}-${dataset}-${config.retriever}-${config.granularity}`;
}

export function selectionOf(config: RunConfig): Selection {
  return {
    questionIds: config.questionIds,
    questionTypes: config.questionTypes,
    shard: config.shard === undefined ? undefined : parseShard(config.shard),
    limit: config.limit,
    seed: config.seed,
  };
}

type Source = {
  items: AsyncIterable<{ record: LongMemEvalRecord; position: number }>;
  fraction(done: number): number;
  sha256(): string;
};

/**
 * The selected questions, streamed from the file when the selection decides record by record;
 * read whole first when a stratified limit needs every question type counted.
 */
async function openSource(path: string, config: RunConfig, preloaded?: LoadedRecords): Promise<Source> {
  const selection = selectionOf(config);
  const options = { duplicateSessions: config.duplicateSessions };
  const format = preloaded?.format ?? (await detectDatasetFormat(path));
  if (format === 'locomo' && config.convention === 'official') {
    throw new Error(
      `${path} is a LoCoMo file: it has no official LongMemEval gold; run it with --convention evidence.`,
    );
  }
  if (selection.limit !== undefined || format === 'locomo' || preloaded) {
    const { records, sha256 } = preloaded ?? (await loadAnyDataset(path, options));
    const candidates = records
      .map((record, position) => ({ record, position }))
      .filter(({ record, position }) => acceptsRecord(selection, record, position));
    const chosen =
      selection.limit === undefined
        ? undefined
        : new Set(stratifiedPositions(candidates, selection.limit, selection.seed));
    const items = candidates.filter(({ position }) => chosen?.has(position) ?? true);
    return {
      items: (async function* () {
        yield* items;
      })(),
      fraction: (done) => done / Math.max(items.length, 1),
      sha256: () => sha256,
    };
  }
  const stream = streamLongMemEval(path, options);
  return {
    items: (async function* () {
      let position = 0;
      for await (const record of stream.records) {
        if (acceptsRecord(selection, record, position)) yield { record, position };
        position++;
      }
    })(),
    fraction: () => stream.fractionRead(),
    sha256: () => stream.sha256(),
  };
}

/** The questions a config selects, read into memory (for dry runs). */
export async function selectRecords(config: RunConfig): Promise<LongMemEvalRecord[]> {
  const source = await openSource(resolveDatasetPath(config.dataset, config.dataDir), config);
  const records: LongMemEvalRecord[] = [];
  for await (const { record } of source.items) records.push(record);
  return records;
}

/**
 * Runs one benchmark: asks the provider to retrieve for every selected question, grades each
 * ranking, appends one line per question to samples.jsonl as it finishes (so a crash loses
 * nothing finished), then writes the summary, CSVs and report. With `resume`, questions already
 * in the folder's samples.jsonl are skipped and the config must match the stored one.
 */
export async function runBenchmark(
  config: RunConfig,
  dependencies: RunDependencies = {},
): Promise<RunResult> {
  const { hooks = {}, signal } = dependencies;
  const datasetPath = resolveDatasetPath(config.dataset, config.dataDir);
  const argv = [...(dependencies.argv ?? process.argv.slice(2))];

  let dir: string;
  let manifest: RunManifest;
  let previous: Sample[] = [];
  if (dependencies.resume) {
    dir = resolve(dependencies.resume.dir);
    const stored = readManifest(dir);
    const differences = resultKeyDifferences(stored.config, config);
    if (differences.length > 0) {
      throw new Error(
        `Cannot resume ${dir}: the config differs in ${differences.map((key) => `${key} (stored ${JSON.stringify((stored.config as Record<string, unknown>)[key])}, now ${JSON.stringify((config as Record<string, unknown>)[key])})`).join(', ')}.`,
      );
    }
    const { samples, tornLastLine } = readSamplesFile(join(dir, 'samples.jsonl'));
    const retrying = dependencies.resume.retryErrors ? samples.filter((sample) => sample.error !== null) : [];
    previous = samples.filter((sample) => !retrying.includes(sample));
    manifest = {
      ...stored,
      config: { ...config, runId: stored.run_id },
      resumed: [...(stored.resumed ?? []), { argv, at: new Date().toISOString() }],
    };
    hooks.onResume?.({
      dir,
      finished: previous.length,
      droppedTornLine: tornLastLine,
      retrying: retrying.length,
    });
  } else {
    const runId = config.runId ?? defaultRunId(config);
    dir = resolve(config.out, runId);
    if (existsSync(join(dir, 'samples.jsonl'))) {
      throw new Error(
        `Run folder ${dir} already holds samples.jsonl; resume it with --resume ${dir}, or choose another --run-id or --out.`,
      );
    }
    manifest = {
      run_id: runId,
      config: { ...config, runId },
      provenance: collectProvenance(argv),
      dataset: { path: datasetPath, sha256: null },
    };
  }

  const provider = dependencies.provider ?? createProvider(config, manifest.run_id, dependencies.resources);
  const qa = await createQaStage(config);
  if (!qa) {
    hooks.onNotice?.(
      config.provider === 'pipeline' || config.provider === 'http'
        ? 'QA skipped: set --reader-model (with OPENAI_BASE_URL / OPENAI_API_KEY) to measure answer accuracy.'
        : `--provider ${config.provider} only feeds the reader: set --reader-model to measure answer accuracy.`,
    );
  }
  const folder = openRunFolder(dir);
  if (dependencies.resume) folder.rewriteSamples(previous);
  folder.writeJson('config.json', manifest);
  const finished = new Set(previous.map((sample) => sample.question_id));
  const samples: Sample[] = [...previous];

  try {
    const source = await openSource(datasetPath, config, dependencies.dataset);
    const iterator = source.items[Symbol.asyncIterator]();
    let done = 0;
    let interrupted = false;
    let overBudget = false;
    const worker = async () => {
      while (!signal?.aborted) {
        if (qa && config.maxCost !== undefined && qa.spentUsd() >= config.maxCost) {
          overBudget = true;
          return;
        }
        const next = await iterator.next();
        if (next.done) return;
        const { record, position } = next.value;
        if (finished.has(record.question_id)) continue;
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
        folder.appendSample(sample);
        if (sample.hypothesis !== null) {
          folder.appendText(
            'hypotheses.jsonl',
            formatHypothesisLine({ questionId: sample.question_id, hypothesis: sample.hypothesis }),
          );
        }
        samples.push(sample);
        done++;
        hooks.onQuestionEnd?.({
          sample,
          done: samples.length,
          fraction: source.fraction(done),
          note: provider.progress?.(),
        });
      }
      interrupted = true;
    };
    await Promise.all(Array.from({ length: config.concurrency }, worker));
    if (!overBudget && (interrupted || signal?.aborted)) throw new RunInterruptedError(dir, samples.length);
    if (!overBudget) {
      manifest.dataset.sha256 = source.sha256();
      hooks.onDatasetRead?.({
        path: datasetPath,
        questions: samples.length,
        sha256: manifest.dataset.sha256,
      });
    }

    samples.sort((left, right) => left.position - right.position);
    const result: RunResult = writeRunOutputs(folder, manifest, samples);
    if (overBudget) result.stoppedAtCost = qa?.spentUsd();
    else {
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
    await provider.close?.();
  }
}

/** summary.json, summary.csv, samples.csv and report.md of a run, from its samples. */
export function writeRunOutputs(
  folder: {
    dir: string;
    writeJson(name: string, value: unknown): void;
    writeText(name: string, text: string): void;
  },
  manifest: RunManifest,
  samples: readonly Sample[],
): RunResult {
  const { config } = manifest;
  const summary = summarize({
    runId: manifest.run_id,
    dataset: config.dataset,
    convention: config.convention,
    exclusion: config.convention === 'official' ? config.exclusion : 'A',
    samples,
  });
  const table = renderSummaryTable(summary);
  folder.writeJson('summary.json', summary);
  folder.writeText('summary.csv', summaryCsv(summary));
  folder.writeText('samples.csv', samplesCsv(samples));
  folder.writeText('report.md', table);
  const answered = samples.filter((sample) => sample.hypothesis !== null);
  if (answered.length > 0) {
    // Rewritten whole in dataset order, so resumed and merged runs give the official file too.
    folder.writeText(
      'hypotheses.jsonl',
      answered
        .map((sample) =>
          formatHypothesisLine({ questionId: sample.question_id, hypothesis: sample.hypothesis! }),
        )
        .join(''),
    );
  }
  return { dir: folder.dir, summary, table };
}

export function readManifest(dir: string): RunManifest {
  const path = join(dir, 'config.json');
  if (!existsSync(path)) throw new Error(`${path} not found: is ${dir} a run folder?`);
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as RunManifest;
  } catch (error) {
    throw new Error(`${path} is not valid JSON (${(error as Error).message})`);
  }
}

function createProvider(config: RunConfig, runId: string, resources?: PipelineResources): Provider {
  if (config.provider === 'http') {
    if (!config.providerUrl) {
      throw new Error(
        '--provider http needs --provider-url <url> (a server speaking docs/provider-protocol.md).',
      );
    }
    return createHttpProvider({
      url: config.providerUrl,
      authHeaderEnv: config.providerAuthEnv,
      authHeaderName: config.providerAuthHeader,
      timeoutMs: config.providerTimeoutMs,
      maxRetries: config.providerMaxRetries,
      topK: config.topK,
      granularity: config.granularity,
      indexRoles: config.indexRoles,
      namespacePrefix: runId,
    });
  }
  return config.provider === 'pipeline'
    ? createPipelineProvider(config, resources)
    : createContextProvider(config.provider);
}

/** One question end to end; undefined when the run was interrupted before it finished. */
async function runQuestion(options: {
  record: LongMemEvalRecord;
  position: number;
  provider: Provider;
  qa: QaStage | undefined;
  config: RunConfig;
  signal: AbortSignal | undefined;
  /** Receives the question's explain.jsonl line (`--explain`). */
  onExplain?: (line: Record<string, unknown>) => void;
}): Promise<Sample | undefined> {
  const { record, provider, qa, config, signal } = options;
  const sample: Sample = {
    question_id: record.question_id,
    position: options.position,
    question_type: record.question_type,
    abstention: isAbstention(record.question_id),
    no_target: false,
    gold_sessions: [],
    hits: [],
    metrics: {},
    hypothesis: null,
    judge: null,
    usage: {},
    latency_ms: { index: 0, retrieve: 0 },
    error: null,
  };
  try {
    const outcome = await provider.retrieve({ record, signal });
    sample.latency_ms = {
      index: round(outcome.timings.indexMs),
      retrieve: round(outcome.timings.retrieveMs),
    };
    // The same budget for every provider: with --top-k, rankings are cut before grading.
    const ranking = config.topK === undefined ? outcome.ranking : outcome.ranking.slice(0, config.topK);
    const hits = config.topK === undefined ? outcome.hits : outcome.hits.slice(0, config.topK);
    sample.hits = hits.slice(0, config.saveHits).map((hit, index) => ({
      id: hit.id,
      session_id: hit.sessionId,
      rank: index + 1,
      score: hit.score,
      routes: hit.routes,
    }));
    if (outcome.graded !== false) {
      const graded = evaluateQuestion({
        record,
        corpus: outcome.corpus,
        ranking,
        sessionRanking: outcome.sessionRanking,
        granularity: config.granularity,
        convention: config.convention,
        contextBudget: config.contextBudget,
      });
      sample.no_target = graded.noTarget;
      sample.gold_sessions = graded.goldSessions;
      sample.metrics = graded.metrics;
      options.onExplain?.({
        question_id: record.question_id,
        question_type: record.question_type,
        ...outcome.explain,
        ...(graded.context ? { context: contextTrace(graded.context) } : {}),
      });
    }
    if (qa) {
      const result = await qa.answer({
        record,
        providerId: provider.id,
        rankedSessionIds: outcome.readerSessionIds ?? hits.map((hit) => hit.sessionId),
        signal,
      });
      sample.hypothesis = result.hypothesis;
      sample.judge = result.judge;
      sample.usage = result.usage;
      Object.assign(sample.metrics, result.metrics);
    } else if (outcome.answer !== undefined) {
      sample.hypothesis = outcome.answer;
    }
    return sample;
  } catch (error) {
    if (signal?.aborted) return undefined;
    return { ...sample, error: (error as Error).message };
  }
}

function round(milliseconds: number): number {
  return Math.round(milliseconds * 1000) / 1000;
}
