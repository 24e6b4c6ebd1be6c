import { beamBenchmark } from './beam/beam-benchmark.js';
import type { Benchmark } from './benchmark.js';
import { locomoBenchmark } from './locomo/locomo-benchmark.js';
import { longMemEvalBenchmark } from './longmemeval/longmemeval-benchmark.js';

/**
 * The benchmarks lme reads, by name; a new one is a folder `benchmarks/<name>/` and a line here.
 * Order matters twice: question types are reported in this order, and a file is the first
 * benchmark's that recognises it, the default (LongMemEval) last.
 */
export const BENCHMARKS = {
  longmemeval: longMemEvalBenchmark,
  locomo: locomoBenchmark,
  beam: beamBenchmark,
} satisfies Record<string, Benchmark>;

export type BenchmarkName = keyof typeof BENCHMARKS;

/** The benchmark that takes a file no other recognises. */
export const DEFAULT_BENCHMARK: BenchmarkName = 'longmemeval';

/** A benchmark by name; an unknown name fails listing the known ones. */
export function benchmarkNamed(name: string): Benchmark {
  if (!Object.hasOwn(BENCHMARKS, name))
    throw new Error(`Unknown benchmark "${name}"; known: ${Object.keys(BENCHMARKS).join(', ')}.`);
  return BENCHMARKS[name as BenchmarkName];
}

/** The benchmark whose format `value` is (see `Benchmark.recognizes`); the default when none claims it. */
export function recognizeBenchmark(value: unknown): BenchmarkName {
  const names = Object.keys(BENCHMARKS) as BenchmarkName[];
  return (
    names.find((name) => name !== DEFAULT_BENCHMARK && BENCHMARKS[name].recognizes(value)) ??
    DEFAULT_BENCHMARK
  );
}

/** The benchmark whose dataset a folder is (`Benchmark.recognizesFolder`); undefined when none claims it. */
export function recognizeFolder(path: string): BenchmarkName | undefined {
  return (Object.keys(BENCHMARKS) as BenchmarkName[]).find((name) => {
    const benchmark: Benchmark = BENCHMARKS[name];
    return benchmark.recognizesFolder?.(path) === true;
  });
}

/** The benchmark a question record belongs to, by its question type; undefined for an unknown type. */
export function benchmarkOfRecord(record: { question_type: string }): Benchmark | undefined {
  return Object.values(BENCHMARKS).find((benchmark) =>
    benchmark.questionTypes.includes(record.question_type),
  );
}

/** Question types in report order: every benchmark's in registry order, then unknown ones as met. */
export function orderQuestionTypes(types: Iterable<string>): string[] {
  const present = new Set(types);
  const ordered: string[] = Object.values(BENCHMARKS).flatMap((benchmark) => [...benchmark.questionTypes]);
  const known = ordered.filter((type) => present.has(type));
  return [...known, ...[...present].filter((type) => !ordered.includes(type))];
}
