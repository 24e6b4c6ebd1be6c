import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../testing/run-cli.js';
import { pyRound3 } from '../python-number.js';
import { scoreLocomoAnswer } from './locomo-answer-score.js';
import {
  aggregateLocomoOfficial,
  type LocomoScoredQuestion,
  locomoPerQuestionMeans,
} from './locomo-official-aggregate.js';
import { locomoRecallAcc } from './locomo-recall-acc.js';

const referenceDir = resolve(REPO_ROOT, '../shared/reference/locomo-official');
const hasReference =
  existsSync(join(referenceDir, 'scores.jsonl.gz')) && existsSync(join(referenceDir, 'summary.json'));
const SHARED_CONVERSATION = 'conv-26';

type ReferenceLine = {
  sample_id: string;
  qa_index: number;
  variant: string;
  category: number;
  gold_raw: string | number;
  evidence: string[];
  prediction: string;
  context: string[];
  score: number;
  score_r3: number;
  recall_acc: number;
  recall_acc_r3: number;
};

type ReferenceAggregate = {
  by_category: Record<string, { count: number; cum_accuracy: number; accuracy: number; recall: number }>;
  overall_accuracy: number;
  overall_recall_accuracy: number;
  printed_lines: string[];
  stats_json: { recall_by_category: Record<string, number> };
};

type ReferenceSummary = {
  variants: Record<
    string,
    {
      official_aggregation: Record<string, ReferenceAggregate>;
      unrounded_means: Record<
        string,
        {
          by_category: Record<string, { count: number; mean_score: number; mean_recall_acc_per_qa: number }>;
        }
      >;
    }
  >;
};

function loadLines(): ReferenceLine[] {
  return gunzipSync(readFileSync(join(referenceDir, 'scores.jsonl.gz')))
    .toString('utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as ReferenceLine);
}

/** lme's computation of one reference line from its inputs only (category, gold, prediction, evidence, context). */
function recompute(line: ReferenceLine): LocomoScoredQuestion {
  return {
    category: line.category,
    score: scoreLocomoAnswer({ category: line.category, answer: line.gold_raw, prediction: line.prediction }),
    recall: locomoRecallAcc(line.evidence, line.context),
    evidence: line.evidence,
  };
}

function agreement(lines: readonly ReferenceLine[]) {
  const unequal: string[] = [];
  for (const line of lines) {
    const mine = recompute(line);
    const same =
      mine.score.value === line.score &&
      pyRound3(mine.score).value === line.score_r3 &&
      mine.recall.value === line.recall_acc &&
      pyRound3(mine.recall).value === line.recall_acc_r3;
    if (!same) unequal.push(`${line.sample_id}#${line.qa_index}/${line.variant}`);
  }
  return { compared: lines.length, equal: lines.length - unequal.length, unequal: unequal.slice(0, 10) };
}

describe.skipIf(!hasReference)(`official LoCoMo scoring reference (${referenceDir})`, () => {
  const lines = hasReference ? loadLines() : [];
  const summary: ReferenceSummary = hasReference
    ? JSON.parse(readFileSync(join(referenceDir, 'summary.json'), 'utf8'))
    : { variants: {} };

  it('gives the official score and recall_acc, unrounded and rounded, on every line of the shared conversation', () => {
    const result = agreement(lines.filter((line) => line.sample_id === SHARED_CONVERSATION));
    console.info(
      `locomo reference ${SHARED_CONVERSATION}: ${result.compared} lines compared, ${result.equal} equal`,
    );
    expect(result.compared).toBe(199 * 6 + 32);
    expect(result).toEqual({ compared: result.compared, equal: result.compared, unequal: [] });
  });

  it('gives the same on every line of the ten conversations', () => {
    const result = agreement(lines);
    console.info(`locomo reference all: ${result.compared} lines compared, ${result.equal} equal`);
    expect(result.compared).toBe(12_198);
    expect(result.unequal).toEqual([]);
  });

  for (const scope of [SHARED_CONVERSATION, 'all']) {
    it(`prints what analyze_aggr_acc printed for every variant (${scope})`, () => {
      let compared = 0;
      let equal = 0;
      for (const [variant, reference] of Object.entries(summary.variants)) {
        const rows = lines
          .filter((line) => line.variant === variant && (scope === 'all' || line.sample_id === scope))
          .map(recompute);
        const mine = aggregateLocomoOfficial(rows);
        const official = reference.official_aggregation[scope]!;
        compared += 1;
        expect(mine.printedLines, `variant ${variant}`).toEqual(official.printed_lines);
        expect(mine.overallAccuracy).toBe(official.overall_accuracy);
        expect(mine.overallRecallAccuracy).toBe(official.overall_recall_accuracy);
        for (const [category, figures] of Object.entries(official.by_category)) {
          const own = mine.byCategory[Number(category)]!;
          expect([own.count, own.cumAccuracy.value, own.accuracy, own.recall]).toEqual([
            figures.count,
            figures.cum_accuracy,
            figures.accuracy,
            figures.recall,
          ]);
          expect(own.recallUnrounded).toBe(official.stats_json.recall_by_category[category]);
        }
        const means = locomoPerQuestionMeans(rows).byCategory;
        for (const [category, figures] of Object.entries(reference.unrounded_means[scope]!.by_category)) {
          expect(means[Number(category)]!.meanScore).toBeCloseTo(figures.mean_score, 12);
          expect(means[Number(category)]!.meanRecallAcc).toBeCloseTo(figures.mean_recall_acc_per_qa, 12);
        }
        equal += 1;
      }
      console.info(
        `locomo reference summary ${scope}: ${compared} variant aggregates compared, ${equal} equal`,
      );
      expect(compared).toBe(7);
    });
  }
});
