import type { PluginKind } from '../components/plugins/plugin-kind.js';
import { type Benchmark, RECORD_EVIDENCE_GOLD } from './benchmark.js';
import { addBenchmark, benchmarks } from './benchmark-registry.js';
import { stemmedTokenF1 } from './stemmed-answer-f1.js';

/** What a plugin benchmark must have beyond its name: what every run reads of it, by the type it has. */
const NEEDS = {
  recognizes: 'function',
  load: 'function',
  description: 'string',
  formatHint: 'string',
  questionTypes: 'array',
  conventions: 'object',
  defaults: 'object',
} as const;

const typeOf = (value: unknown) => (Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value);

/**
 * A plugin's benchmarks (`benchmarks`: `Benchmark`s, benchmarks/benchmark.ts), added to the
 * registry by `addBenchmark`, under the rules of `registerBenchmarks`. A plugin may reuse the
 * record's evidence gold and the official token F1 LoCoMo and REALTALK share.
 */
export const BENCHMARK_PLUGIN_KIND: PluginKind = {
  word: 'benchmark',
  registry: benchmarks,
  api: {
    RECORD_EVIDENCE_GOLD,
    stemmedTokenF1: (prediction: string, gold: string) => stemmedTokenF1(prediction, gold).value,
  },
  lacks(benchmark) {
    const missing = Object.entries(NEEDS).filter(([key, type]) => typeOf(benchmark[key]) !== type);
    return missing.length > 0
      ? `needs ${missing.map(([key, type]) => `${key} (${type === 'array' ? 'an' : 'a'} ${type})`).join(', ')}`
      : undefined;
  },
  add: (benchmark: Benchmark) => addBenchmark(benchmark),
};
