// The public API of @lme/benchmark (the `lme` CLI is bin/lme.js); see docs/architecture.md.

export { compareRuns } from './analysis/compare-runs.js';
export { type Run, readRun } from './analysis/read-run.js';
export { ConfigError, fromRegistry } from './config/config-error.js';
export { ineffectiveKeyWarnings } from './config/ineffective-keys.js';
export { listPresets, loadPreset, type Preset } from './config/presets.js';
export { parseRunConfig, type RunConfig, type RunConfigInput, runConfigSchema } from './config/run-config.js';
export { configFromEnvironment, RUN_OPTIONS, type RunOptionDeclaration } from './config/run-options.js';
export { loadAnyDataset } from './dataset/load-dataset.js';
export type { Provider, RetrievalOutcome } from './providers/provider.js';
export { type RunHooks, RunInterruptedError, runBenchmark } from './run/run-benchmark.js';
export { type RunningServer, type ServeOptions, serve } from './serve/serve.js';
