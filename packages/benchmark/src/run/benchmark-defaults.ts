import type { Benchmark } from '../benchmarks/benchmark.js';
import {
  benchmarkNamed,
  defaultBenchmark,
  judgeRubrics,
  readerPrompts,
} from '../benchmarks/benchmark-registry.js';
import { detectDatasetFormat } from '../benchmarks/load-dataset.js';
import { suggestNames } from '../config/close-names.js';
import type { RunConfigInput } from '../config/run-config.js';
import type { QaSection } from '../config/sections/qa-section.js';
import type { RunSection } from '../config/sections/run-section.js';

/** The names a benchmark brings that a config chooses: the judge rubric and the reader prompt. */
type BenchmarkNames = Pick<QaSection, 'judge' | 'readerPrompt'>;

/** The keys a benchmark's published setting decides (`Benchmark.defaults`). */
const BENCHMARK_KEYS = ['convention', 'judge', 'readerPrompt'] as const;

/**
 * A benchmark's published setting as the lowest config layer (defaults < benchmark < preset <
 * environment < flags): its `defaults` for the keys no higher layer sets, with `benchmarkDefaults`
 * recording which keys it decided, so config.json tells where each value came from.
 */
export function benchmarkLayer(benchmark: Benchmark, higher: RunConfigInput): RunConfigInput {
  const decided = BENCHMARK_KEYS.filter((key) => (higher as Record<string, unknown>)[key] === undefined);
  if (decided.length === 0) return {};
  return {
    ...Object.fromEntries(decided.map((key) => [key, benchmark.defaults[key]])),
    benchmarkDefaults: { benchmark: benchmark.name, keys: [...decided] },
  } as RunConfigInput;
}

/** The benchmark of a run's dataset; undefined when the path does not read (the run says why later). */
export async function benchmarkOfDataset(path: string): Promise<Benchmark | undefined> {
  try {
    return benchmarkNamed(await detectDatasetFormat(path));
  } catch {
    return undefined;
  }
}

/**
 * A parsed config with the judge and reader prompt its dataset's benchmark publishes where none
 * was set (a config parsed without the benchmark layer, as a library caller's), recorded in
 * `benchmarkDefaults`; then both names checked against what the benchmarks bring.
 */
export function settleBenchmarkDefaults<
  Config extends BenchmarkNames & Pick<RunSection, 'benchmarkDefaults'>,
>(config: Config, benchmark: Benchmark = defaultBenchmark()): Config {
  const filled = (['judge', 'readerPrompt'] as const).filter((key) => config[key] === undefined);
  const settled: Config =
    filled.length === 0
      ? config
      : {
          ...config,
          ...Object.fromEntries(filled.map((key) => [key, benchmark.defaults[key]])),
          benchmarkDefaults: {
            benchmark: config.benchmarkDefaults?.benchmark ?? benchmark.name,
            keys: [...(config.benchmarkDefaults?.keys ?? []), ...filled],
          },
        };
  checkBenchmarkNames(settled);
  return settled;
}

/** `--judge` and `--reader-prompt` must name what a benchmark brings: one sentence, close names. */
export function checkBenchmarkNames(config: BenchmarkNames): void {
  for (const [flag, name, known] of [
    ['--judge', config.judge, Object.keys(judgeRubrics())],
    ['--reader-prompt', config.readerPrompt, Object.keys(readerPrompts())],
  ] as const) {
    if (name !== undefined && !known.includes(name))
      throw new Error(`${flag} ${name}: no benchmark brings it (${suggestNames(name, known)}).`);
  }
}

/** The judge rubric of a config, the default benchmark's where unset (a config no dataset settled). */
export function judgeOf(config: Pick<QaSection, 'judge'>): string {
  return config.judge ?? defaultBenchmark().defaults.judge;
}

/** The reader prompt of a config, the default benchmark's where unset. */
export function readerPromptOf(config: Pick<QaSection, 'readerPrompt'>): string {
  return config.readerPrompt ?? defaultBenchmark().defaults.readerPrompt;
}
