// The public API of @lme/benchmark (the `lme` CLI is bin/lme.js); see docs/architecture.md.
// What a notebook or a library needs: run, read, compare, gate, aggregate, load, LoCoMo metrics.

// Analysis: read run folders, compare them (paired tests, Holm correction), gate, merge shards.
export {
  type CategoryComparison,
  type CompareOptions,
  type ComparisonResult,
  compareRuns,
  compareTwoRuns,
  type MetricComparison,
  type RunComparison,
} from './analysis/compare-runs.js';
export {
  evaluateGate,
  type GateCheck,
  type GateOptions,
  type GateResult,
  parseThreshold,
  type Threshold,
} from './analysis/gate.js';
export { type GateSpec, readGateFile } from './analysis/gate-file.js';
export { holmAdjust } from './analysis/holm.js';
export { type MergeOptions, type MergeResult, mergeRuns, writeMergedRun } from './analysis/merge-runs.js';
export { type Run, readRun } from './analysis/read-run.js';
export { renderComparison } from './analysis/render-comparison.js';
export { renderComparisonTable } from './analysis/render-comparison-table.js';
// Datasets: LongMemEval (whole or streamed) and LoCoMo, mapped onto LongMemEval records.
export {
  type DatasetFormat,
  detectDatasetFormat,
  type LoadedAnyDataset,
  loadAnyDataset,
} from './benchmarks/load-dataset.js';
export { aggregateLocomo } from './benchmarks/locomo/aggregate-locomo.js';
export {
  type LoadedLocomo,
  type LocomoRecord,
  loadLocomo,
  locomoRecords,
} from './benchmarks/locomo/load-locomo.js';
// LoCoMo metrics: the official recall_acc and F1, their official aggregation, and the tables.
export { scoreLocomoAnswer } from './benchmarks/locomo/locomo-answer-score.js';
export { LOCOMO_CATEGORY_NAMES, locomoCategoryOf } from './benchmarks/locomo/locomo-categories.js';
export {
  aggregateLocomoOfficial,
  type LocomoScoredQuestion,
  locomoPerQuestionMeans,
} from './benchmarks/locomo/locomo-official-aggregate.js';
export { locomoQaMetrics } from './benchmarks/locomo/locomo-qa-metrics.js';
export { locomoRecallAcc } from './benchmarks/locomo/locomo-recall-acc.js';
export { locomoEvidence } from './benchmarks/locomo/locomo-record.js';
export {
  type LocomoSampleLike,
  locomoScoredQuestions,
  renderLocomoQaTables,
  renderLocomoRetrievalTable,
} from './benchmarks/locomo/locomo-report.js';
export { locomoRetrievalMetrics } from './benchmarks/locomo/locomo-retrieval-metrics.js';
export type { LocomoOfficialAggregate, LocomoSummary } from './benchmarks/locomo/locomo-summary.js';
export {
  type LoadedDataset,
  type LoadOptions,
  loadLongMemEval,
  resolveDatasetPath,
  type StreamedDataset,
  streamLongMemEval,
} from './benchmarks/longmemeval/load-longmemeval.js';
export type { LongMemEvalRecord, QuestionType, Turn } from './benchmarks/longmemeval-record.js';
// Configuration.
export { ConfigError, fromRegistry } from './config/config-error.js';
export { ineffectiveKeyWarnings } from './config/ineffective-keys.js';
export { listPresets, loadPreset, type Preset } from './config/presets.js';
export type { ProviderCapabilities } from './config/provider-capabilities.js';
export { type RunConfigInput, runConfigSchema } from './config/run-config.js';
export { configFromEnvironment, RUN_OPTIONS, type RunOptionDeclaration } from './config/run-options.js';
export { parseRunSections, type RunSections } from './config/run-sections.js';
export type { ExternalMemory } from './providers/external/external-memory.js';
export type { ExternalMemoryDescriptor } from './providers/external/external-memory-descriptor.js';
export {
  createExternalProvider,
  type ExternalProviderOptions,
} from './providers/external/external-provider.js';
export type { Provider, RetrievalOutcome } from './providers/provider.js';
export { PROVIDERS } from './providers/provider-registry.js';
// Tables of one run.
export { renderQaTable } from './qa/render-qa-table.js';
export type { Sample } from './results/sample.js';
export type { MetricMeans, Summary } from './results/summary.js';
export { aggregateMetrics } from './run/outputs/aggregate-metrics.js';
export { renderSummaryTable } from './run/outputs/render-table.js';
// Running, and summarizing samples.
export {
  type BenchmarkResult,
  type RunHooks,
  RunInterruptedError,
  /** A results folder's config.json; the config it records is `RunManifest['config']`. */
  type RunManifest,
  runBenchmark,
} from './run/run-benchmark.js';
export { type RunningServer, type ServeOptions, serve } from './serve/serve.js';
