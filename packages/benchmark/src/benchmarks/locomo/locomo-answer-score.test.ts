import { describe, expect, it } from 'vitest';
import { pyFloat, pyInt } from '../python-number.js';
import {
  locomoGoldUsed,
  normalizeLocomoAnswer,
  numpyMean,
  pythonSplit,
  scoreLocomoAnswer,
} from './locomo-answer-score.js';

// Expected values: the official eval_question_answering on the same inputs, as recorded in
// ../shared/reference/locomo-official/summary.json `edge_probes` and its README.
describe('official LoCoMo answer score', () => {
  it('normalises as normalize_answer: commas and ASCII punctuation go, a/an/the/and go, unicode stays', () => {
    expect(normalizeLocomoAnswer("Self-care, and don't stop: The  end!")).toBe('selfcare dont stop end');
    expect(normalizeLocomoAnswer('it’s a—b\u200b')).toBe('it’s —b\u200b');
    expect(normalizeLocomoAnswer('x\u200ban y')).toBe('x\u200b y');
    expect(normalizeLocomoAnswer('café a')).toBe('café');
    expect(normalizeLocomoAnswer('Anderson and Andy')).toBe('anderson andy');
  });

  it('splits on the whitespace Python str.split() knows, not U+200B or U+FEFF', () => {
    expect(pythonSplit('a\u00a0b\u2003c\u001fd\u200be\ufefff')).toEqual(['a', 'b', 'c', 'd\u200be\ufefff']);
  });

  it('scores categories 2-4 with the stemmed token F1, an int 0 when nothing overlaps', () => {
    expect(scoreLocomoAnswer({ category: 2, answer: '7 May 2023', prediction: '' })).toEqual(pyInt(0));
    expect(scoreLocomoAnswer({ category: 2, answer: 2022, prediction: '2022' })).toEqual(pyFloat(1));
    expect(scoreLocomoAnswer({ category: 4, answer: 'painting sunsets', prediction: 'She paints' })).toEqual(
      pyFloat(0.5),
    );
  });

  it('cuts only the category-3 gold at the first ";"', () => {
    const gold = 'LIkely no; though she likes reading, she wants to be a counselor';
    expect(locomoGoldUsed(3, gold)).toBe('LIkely no');
    expect(scoreLocomoAnswer({ category: 3, answer: gold, prediction: gold }).value).toBe(0.3076923076923077);
    expect(scoreLocomoAnswer({ category: 3, answer: gold, prediction: 'LIkely no' }).value).toBe(1);
  });

  it('scores multi-hop answers item by item: order free, extra items free, "and" joins cost', () => {
    const answer = 'pottery, camping, painting, swimming';
    const score = (prediction: string) => scoreLocomoAnswer({ category: 1, answer, prediction }).value;
    expect(score('swimming, painting, camping, pottery')).toBe(1);
    expect(score('pottery, camping, painting, swimming, xylophone repair')).toBe(1);
    expect(score('pottery and camping and painting and swimming')).toBe(0.4);
  });

  it('scores category 5 by the phrase alone, case-insensitive and unnormalised, never reading the gold', () => {
    const score = (prediction: string) => scoreLocomoAnswer({ category: 5, prediction }).value;
    expect(
      [
        'Not mentioned in the conversation',
        'It was NOT MENTIONED anywhere',
        'no information available',
        'No information is available',
        'not-mentioned',
        'No',
      ].map(score),
    ).toEqual([1, 1, 1, 0, 0, 0]);
  });

  it('refuses a category without an official rule', () => {
    expect(() => scoreLocomoAnswer({ category: 6, answer: 'x', prediction: 'x' })).toThrow(/category 6/);
  });

  it("averages as numpy's pairwise summation (8 lanes from 8 values on)", () => {
    const values = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.1];
    const lanes = [0.1 + 0.9, 0.2 + 0.1, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8];
    const pairwise =
      lanes[0]! + lanes[1]! + (lanes[2]! + lanes[3]!) + (lanes[4]! + lanes[5]! + (lanes[6]! + lanes[7]!));
    expect(numpyMean(values)).toBe(pairwise / 10);
    expect(numpyMean([0.1, 0.2, 0.3])).toBe((0.1 + 0.2 + 0.3) / 3);
  });
});
