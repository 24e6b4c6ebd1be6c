import { beamOfficialRubric, beamPartialRubric } from '../benchmarks/beam/beam-rubric.js';
import type { JudgeRubricDefinition } from '../benchmarks/judge-rubric.js';
import { locomoLlmRubric, mem0JudgeGrades } from '../benchmarks/locomo/locomo-judge.js';
import { buildJudgePrompt, parseJudgeReply } from '../benchmarks/longmemeval/longmemeval-rubric.js';

/**
 * Judge rubrics by name. Adding one (another benchmark's judge) is one entry here.
 * `longmemeval`: evaluate_qa.py `get_anscheck_prompt`, byte for byte.
 */
export const judgeRubrics = {
  longmemeval: {
    description: 'official LongMemEval rubric per question type (evaluate_qa.py)',
    prompt: (record, hypothesis) => buildJudgePrompt(record, hypothesis),
    parse: (reply) => parseJudgeReply(reply),
  },
  /** Mem0's published LoCoMo judge; categories 1-4 only. */
  'locomo-llm': { ...locomoLlmRubric, grades: mem0JudgeGrades },
  /** BEAM's rubric judge (compute_metrics.py): official int() arithmetic, and with half credit. */
  beam: beamOfficialRubric,
  'beam-partial': beamPartialRubric,
} satisfies Record<string, JudgeRubricDefinition>;

export type JudgeRubricName = keyof typeof judgeRubrics;

/** The definition of a rubric; an unknown name fails listing the known ones. */
export function judgeRubricDefinition(name: string): JudgeRubricDefinition {
  if (!Object.hasOwn(judgeRubrics, name)) {
    throw new Error(`Unknown judge rubric "${name}"; known: ${Object.keys(judgeRubrics).join(', ')}.`);
  }
  return (judgeRubrics as Record<string, JudgeRubricDefinition>)[name]!;
}
