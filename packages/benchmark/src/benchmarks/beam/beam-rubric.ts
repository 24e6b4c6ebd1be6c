import type { GradedJudgeRubricDefinition, JudgeRecord, JudgeRubricItem } from '../judge-rubric.js';
import { beamJudgePrompt, readBeamJudgeReply } from './beam-judge.js';

/** The rubric items a BEAM record carries (`beam_rubric`); a record without them is not BEAM's. */
function rubricOf(record: JudgeRecord): string[] {
  const rubric = (record as JudgeRecord & { beam_rubric?: unknown }).beam_rubric;
  return Array.isArray(rubric) ? rubric.filter((item): item is string => typeof item === 'string') : [];
}

type BeamRubricItemAsked = JudgeRubricItem & { ability: string };

function beamRubric(scoring: 'official' | 'partial'): GradedJudgeRubricDefinition {
  return {
    kind: 'graded',
    description:
      scoring === 'official'
        ? "BEAM's official rubric judge (compute_metrics.py): one call per rubric item, int(score) per item (0.5 counts 0 except for event ordering), mean over the rubric"
        : "BEAM's rubric judge with half credit: one call per rubric item, the judge's 1 / 0.5 / 0 per item, mean over the rubric",
    items: (record, hypothesis) =>
      rubricOf(record).map((criterion) => {
        // The item carries its ability: the official code reads event ordering's scores with
        // float(), every other ability's with int() (the judge passes this object to parseItem).
        const item: BeamRubricItemAsked = {
          name: criterion,
          prompt: beamJudgePrompt(criterion, hypothesis),
          ability: record.question_type,
        };
        return item;
      }),
    parseItem: (reply, item) => {
      const read = readBeamJudgeReply(item.name, reply, (item as Partial<BeamRubricItemAsked>).ability ?? '');
      const score = scoring === 'official' ? read.official : read.score;
      if (score === null) return null;
      return { score, ...(read.reason !== undefined ? { reason: read.reason } : {}) };
    },
    // The judge's JSON reply carries a reason: room for it (the official client sends no limit).
    maxTokens: 1000,
    grades: (record) => rubricOf(record).length > 0,
  };
}

/** Official arithmetic: `int(score)` per item, so a 0.5 counts 0 (every ability but event ordering, which reads float). */
export const beamOfficialRubric = beamRubric('official');
/** The prompt's own scale: 1, 0.5 or 0 per item. */
export const beamPartialRubric = beamRubric('partial');
