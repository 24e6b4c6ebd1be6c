import { judgeRubrics } from '../benchmarks/benchmark-registry.js';
import type { ProbeQuestion } from '../benchmarks/judge-rubric.js';

export {
  PROBE_KINDS,
  type ProbeKind,
  type ProbeQuestion,
  SOUND_JUDGE_ACCEPTS,
} from '../benchmarks/judge-rubric.js';

/**
 * The probe questions each judge rubric grades, by rubric name: its own benchmark's questions
 * (`JudgeRubricDefinition.probes`, in benchmarks/<name>/).
 */
export const JUDGE_PROBES: Readonly<Record<string, readonly ProbeQuestion[]>> = Object.fromEntries(
  Object.entries(judgeRubrics()).flatMap(([name, rubric]) => (rubric.probes ? [[name, rubric.probes]] : [])),
);
