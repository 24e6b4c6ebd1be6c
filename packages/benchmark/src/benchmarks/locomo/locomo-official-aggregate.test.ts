import { describe, expect, it } from 'vitest';
import { pyFloat, pyInt } from '../python-number.js';
import { aggregateLocomoOfficial, locomoPerQuestionMeans } from './locomo-official-aggregate.js';

describe('official LoCoMo aggregation', () => {
  const questions = [
    { category: 4, score: pyFloat(1), recall: pyFloat(0.5), evidence: ['D1:1', 'D1:2'] },
    { category: 4, score: pyFloat(1 / 3), recall: pyFloat(1), evidence: ['D1:1'] },
    { category: 3, score: pyInt(0), recall: pyInt(1), evidence: [] },
    { category: 3, score: pyFloat(0.5), recall: pyFloat(0), evidence: ['D2:2'] },
    { category: 5, score: pyInt(1), recall: pyFloat(1), evidence: ['D2:1'] },
  ];

  it('prints the categories in order 4, 1, 2, 3, 5 with the rounded sums, int sums without a decimal point', () => {
    expect(aggregateLocomoOfficial(questions).printedLines).toEqual([
      'Total number of questions and corresponding accuracy in each category: ',
      '4 2 1.333 0.666',
      'No questions found in category 1',
      'No questions found in category 2',
      '3 2 0.5 0.25',
      '5 1 1 1.0',
      'Overall accuracy:  0.567',
      'Category and corresponding recall accuracy in each category: ',
      '4 0.75',
      'No questions found in category 1',
      'No questions found in category 2',
      '3 0.0',
      '5 1.0',
      'Overall recall accuracy:  0.5',
    ]);
  });

  it('leaves a QA without evidence out of the printed recall sum but in its count; the per-QA mean counts its 1', () => {
    const official = aggregateLocomoOfficial(questions);
    expect(official.byCategory[3]!.recall).toBe(0);
    expect(locomoPerQuestionMeans(questions).byCategory[3]).toEqual({
      count: 2,
      meanScore: 0.25,
      meanRecallAcc: 0.5,
      emptyEvidence: 1,
    });
  });
});
