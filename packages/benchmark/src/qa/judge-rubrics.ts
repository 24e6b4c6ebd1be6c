import {
  defaultBenchmark,
  judgeRubrics as registeredJudgeRubrics,
} from '../benchmarks/benchmark-registry.js';
import type { JudgeRubricDefinition } from '../benchmarks/judge-rubric.js';

/**
 * Judge rubrics by `--judge` name: every benchmark's `judges` (benchmarks/<name>/), merged by the
 * registry. Adding one is an entry in its benchmark's folder.
 */
export function judgeRubrics(): Readonly<Record<string, JudgeRubricDefinition>> {
  return registeredJudgeRubrics();
}

export type JudgeRubricName = string;

/** The definition of a rubric; an unknown name fails listing the known ones. */
export function judgeRubricDefinition(name: string): JudgeRubricDefinition {
  const rubrics = judgeRubrics();
  if (!Object.hasOwn(rubrics, name)) {
    throw new Error(`Unknown judge rubric "${name}"; known: ${Object.keys(rubrics).join(', ')}.`);
  }
  return rubrics[name]!;
}

/** The judge of the default benchmark: what a judge without a rubric grades with (its cache ids carry no rubric suffix). */
export function defaultJudge(): string {
  return defaultBenchmark().defaults.judge;
}
