import { beamBenchmark } from './beam/beam-benchmark.js';
import type { Benchmark, BenchmarkQaSettings } from './benchmark.js';
import type { JudgeRubricDefinition } from './judge-rubric.js';
import { locomoBenchmark } from './locomo/locomo-benchmark.js';
import { locomoPlusBenchmark } from './locomo/plus/locomo-plus-benchmark.js';
import { longMemEvalBenchmark } from './longmemeval/longmemeval-benchmark.js';
import type { ReaderPromptDefinition } from './reader-prompt.js';
import { realtalkBenchmark } from './realtalk/realtalk-benchmark.js';

/**
 * The benchmarks lme reads, by name; a new one is a folder `benchmarks/<name>/` and a line here.
 * Order matters twice: question types are reported in this order, and a dataset is the first
 * benchmark's that recognises it, the default (the first line) last.
 */
export const BENCHMARKS = registerBenchmarks({
  longmemeval: longMemEvalBenchmark,
  realtalk: realtalkBenchmark, // before locomo, whose recogniser takes any object with "qa"
  locomo: locomoBenchmark,
  'locomo-plus': locomoPlusBenchmark,
  beam: beamBenchmark,
});

export type BenchmarkName = keyof typeof BENCHMARKS;

/**
 * Checks a registry (names equal to keys, question types, judge and reader prompt names unique
 * across benchmarks, defaults among what the benchmarks bring) and returns it; the first entry is
 * the default benchmark. The real registry above and a test's extended one (`withBenchmark`) both
 * pass through here, so a test exercises the same rules.
 */
export function registerBenchmarks<T extends Record<string, Benchmark>>(benchmarks: T): T {
  const types = new Set<string>();
  const judges = new Set<string>();
  const prompts = new Set<string>();
  const datasets = new Set<string>();
  for (const [key, benchmark] of Object.entries(benchmarks)) {
    if (benchmark.name !== key) throw new Error(`Benchmark "${key}" is named "${benchmark.name}".`);
    for (const type of benchmark.questionTypes) {
      if (types.has(type)) throw new Error(`Benchmark "${key}": question type "${type}" is another's.`);
      types.add(type);
    }
    for (const [set, names] of [
      [judges, Object.keys(benchmark.judges ?? {})],
      [prompts, Object.keys(benchmark.readerPrompts ?? {})],
      [datasets, benchmark.datasets?.names ?? []],
    ] as const) {
      for (const name of names) {
        if (set.has(name)) throw new Error(`Benchmark "${key}": "${name}" is another benchmark's name.`);
        set.add(name);
      }
    }
    if (benchmark.conventions[benchmark.defaults.convention] === undefined)
      throw new Error(`Benchmark "${key}": its default convention is not one of its conventions.`);
  }
  for (const [key, benchmark] of Object.entries(benchmarks)) {
    if (!judges.has(benchmark.defaults.judge))
      throw new Error(`Benchmark "${key}": default judge "${benchmark.defaults.judge}" is no benchmark's.`);
    if (!prompts.has(benchmark.defaults.readerPrompt))
      throw new Error(
        `Benchmark "${key}": default reader prompt "${benchmark.defaults.readerPrompt}" is no benchmark's.`,
      );
  }
  return benchmarks;
}

/**
 * The benchmarks in use: the registry, or the registry plus extra ones a test registered with
 * `withBenchmark` (the same call the one registry line makes, through `registerBenchmarks`).
 */
let active: Readonly<Record<string, Benchmark>> = BENCHMARKS;

/** Every benchmark in use, in registry order. */
export function benchmarks(): Readonly<Record<string, Benchmark>> {
  return active;
}

/**
 * Runs `body` with `benchmark` registered after the others, as one more line in `BENCHMARKS`
 * would (tests: a scratch benchmark end to end); the registry is restored afterwards.
 */
export async function withBenchmark<T>(benchmark: Benchmark, body: () => Promise<T>): Promise<T> {
  const before = active;
  active = registerBenchmarks({ ...before, [benchmark.name]: benchmark });
  try {
    return await body();
  } finally {
    active = before;
  }
}

/**
 * Adds a benchmark from outside the tree (a plugin, components/plugins/) under the rules of
 * `registerBenchmarks`, right after the default one: its `recognizes` is asked before lme's own,
 * whose LoCoMo recogniser takes any object with "qa". Returns what takes it out again.
 */
export function addBenchmark(benchmark: Benchmark): () => void {
  const registry = BENCHMARKS as Record<string, Benchmark>;
  const [first, ...rest] = Object.entries(registry);
  registerBenchmarks(Object.fromEntries([first!, [benchmark.name, benchmark], ...rest]));
  for (const [name] of rest) delete registry[name];
  for (const [name, entry] of [[benchmark.name, benchmark] as const, ...rest]) registry[name] = entry;
  return () => {
    delete registry[benchmark.name];
  };
}

/** The benchmark that takes a dataset no other recognises: the registry's first. */
export function defaultBenchmark(): Benchmark {
  return Object.values(active)[0]!;
}

/** What the shared reader and judge take from the default benchmark's official scripts. */
export function sharedQaSettings(): BenchmarkQaSettings {
  const benchmark = defaultBenchmark();
  if (benchmark.qaSettings === undefined)
    throw new Error(`Benchmark "${benchmark.name}" is the default but brings no qaSettings.`);
  return benchmark.qaSettings;
}

/** The published files of configs/datasets.json: those of the benchmark that has them (`Benchmark.publishedFiles`). */
export function publishedDatasetFiles(): NonNullable<Benchmark['publishedFiles']> {
  const owner = Object.values(active).find((benchmark) => benchmark.publishedFiles !== undefined);
  if (!owner?.publishedFiles)
    throw new Error('No benchmark brings the published files of configs/datasets.json.');
  return owner.publishedFiles;
}

/** A benchmark by name; an unknown name fails listing the known ones. */
export function benchmarkNamed(name: string): Benchmark {
  if (!Object.hasOwn(active, name))
    throw new Error(`Unknown benchmark "${name}"; known: ${Object.keys(active).join(', ')}.`);
  return active[name]!;
}

/** The benchmark whose format `value` is (see `Benchmark.recognizes`); the default when none claims it. */
export function recognizeBenchmark(value: unknown): string {
  const fallback = defaultBenchmark().name;
  return Object.keys(active).find((name) => name !== fallback && active[name]!.recognizes(value)) ?? fallback;
}

/** The benchmark that takes a path as its own without parsing it (`Benchmark.recognizesPath`), if any. */
export async function recognizeBenchmarkPath(path: string): Promise<string | undefined> {
  for (const [name, benchmark] of Object.entries(active))
    if (benchmark.recognizesPath && (await benchmark.recognizesPath(path))) return name;
  return undefined;
}

/** The benchmark a question record belongs to, by its question type; undefined for an unknown type. */
export function benchmarkOfRecord(record: { question_type: string }): Benchmark | undefined {
  return Object.values(active).find((benchmark) => benchmark.questionTypes.includes(record.question_type));
}

/** Question types in report order: every benchmark's in registry order, then unknown ones as met. */
export function orderQuestionTypes(types: Iterable<string>): string[] {
  const present = new Set(types);
  const ordered: string[] = Object.values(active).flatMap((benchmark) => [...benchmark.questionTypes]);
  const known = ordered.filter((type) => present.has(type));
  return [...known, ...[...present].filter((type) => !ordered.includes(type))];
}

/** Every benchmark's judge rubrics, by `--judge` name. */
export function judgeRubrics(): Readonly<Record<string, JudgeRubricDefinition>> {
  return Object.assign({}, ...Object.values(active).map((benchmark) => benchmark.judges ?? {}));
}

/** Every benchmark's reader prompts, by `--reader-prompt` name. */
export function readerPrompts(): Readonly<Record<string, ReaderPromptDefinition>> {
  return Object.assign({}, ...Object.values(active).map((benchmark) => benchmark.readerPrompts ?? {}));
}

/**
 * The refusal of a convention a benchmark lacks: one sentence naming the flag, the dataset and
 * the benchmark, and what it supports.
 */
export function checkConvention(benchmark: Benchmark, convention: string, path: string): void {
  if (Object.hasOwn(benchmark.conventions, convention)) return;
  const supported = Object.keys(benchmark.conventions);
  throw new Error(
    `--convention ${convention}: ${path} is a ${benchmark.name} dataset, which defines gold under ${supported.join(' and ')} only; run it with ${supported.map((name) => `--convention ${name}`).join(' or ')}.`,
  );
}
