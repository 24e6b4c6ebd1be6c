import { nltkPorterStem } from './nltk-porter-stemmer.js';
import { type PythonNumber, pyFloat, pyInt } from './python-number.js';

/**
 * The official LoCoMo QA score, as `eval_question_answering` of snap-research/locomo
 * `task_eval/evaluation.py` computes it for one QA (before `evaluate_qa.py` rounds it). REALTALK's
 * `compute_lexical_score` (danny911kr/REALTALK `eval_memory/qa_tool.py`) is the same rule for its
 * categories 1-3, so both benchmarks call this file:
 * - the gold is `str(answer)`; category 3 keeps the gold before the first `;` (only the gold);
 * - categories 2, 3, 4: `f1_score(prediction, gold)`, a token F1 over normalised, Porter-stemmed
 *   tokens (NLTK's stemmer), 0 when nothing overlaps;
 * - category 1 (multi-hop): prediction and gold split on `,`, the mean over gold parts of the best
 *   F1 over prediction parts (numpy's `np.mean`);
 * - category 5 (adversarial): 1 when the lower-cased prediction contains `no information available`
 *   or `not mentioned`, else 0; the gold is never read.
 */
export type StemmedAnswerInput = {
  category: number;
  /** `answer` of the QA item (a string or an int in the published file); unused for category 5. */
  answer?: string | number;
  prediction: string;
};

/** ASCII `string.punctuation`. */
const PUNCTUATION = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');

/** The characters Python's `str.split()` / `str.strip()` treat as whitespace. */
const PYTHON_WHITESPACE =
  '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const WHITESPACE_RUN = new RegExp(`[${PYTHON_WHITESPACE}]+`, 'u');
const EDGE_WHITESPACE = new RegExp(`^[${PYTHON_WHITESPACE}]+|[${PYTHON_WHITESPACE}]+$`, 'gu');

/**
 * `regex.sub(r'\b(a|an|the|and)\b', ' ', text)`: the `regex` module's Unicode word characters
 * (alphabetic, marks, decimal digits, connector punctuation, joiners) bound the words.
 */
const WORD_CHAR = '[\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\u200c\\u200d]';
const ARTICLES = new RegExp(`(?<!${WORD_CHAR})(?:a|an|the|and)(?!${WORD_CHAR})`, 'gu');

/** Python `str.split()` (no argument). */
export function pythonSplit(text: string): string[] {
  return text.split(WHITESPACE_RUN).filter((part) => part !== '');
}

/** Python `str.strip()` (no argument). */
export function pythonStripWhitespace(text: string): string {
  return text.replace(EDGE_WHITESPACE, '');
}

/** The official `normalize_answer`: drop `,`, lower-case, drop ASCII punctuation, drop a/an/the/and, collapse spaces. */
export function normalizeAnswer(text: string): string {
  const lowered = text.replaceAll(',', '').toLowerCase();
  const unpunctuated = [...lowered].filter((char) => !PUNCTUATION.has(char)).join('');
  return pythonSplit(unpunctuated.replace(ARTICLES, ' ')).join(' ');
}

/** The official `f1_score`: int 0 when no stemmed token overlaps, else the float 2PR/(P+R). */
export function stemmedTokenF1(prediction: string, gold: string): PythonNumber {
  const predicted = pythonSplit(normalizeAnswer(prediction)).map(nltkPorterStem);
  const expected = pythonSplit(normalizeAnswer(gold)).map(nltkPorterStem);
  const counts = new Map<string, number>();
  for (const token of expected) counts.set(token, (counts.get(token) ?? 0) + 1);
  let same = 0;
  for (const token of predicted) {
    const left = counts.get(token) ?? 0;
    if (left > 0) {
      same += 1;
      counts.set(token, left - 1);
    }
  }
  if (same === 0) return pyInt(0);
  const precision = (1.0 * same) / predicted.length;
  const recall = (1.0 * same) / expected.length;
  return pyFloat((2 * precision * recall) / (precision + recall));
}

/** The official multi-answer `f1`: comma-separated parts, mean over gold parts of the best match. */
export function multiAnswerF1(prediction: string, gold: string): PythonNumber {
  const predictions = prediction.split(',').map(pythonStripWhitespace);
  const golds = gold.split(',').map(pythonStripWhitespace);
  const best = golds.map((part) =>
    Math.max(...predictions.map((candidate) => stemmedTokenF1(candidate, part).value)),
  );
  return pyFloat(numpyMean(best));
}

/** `np.mean` of float64 values: numpy's pairwise summation, then the division. */
export function numpyMean(values: readonly number[]): number {
  return pairwiseSum(values, 0, values.length) / values.length;
}

function pairwiseSum(values: readonly number[], start: number, count: number): number {
  if (count < 8) {
    let sum = -0.0;
    for (let index = 0; index < count; index++) sum += values[start + index]!;
    return sum;
  }
  if (count <= 128) {
    const partial = values.slice(start, start + 8);
    let index = 8;
    for (; index < count - (count % 8); index += 8) {
      for (let lane = 0; lane < 8; lane++) partial[lane]! += values[start + index + lane]!;
    }
    const [r0, r1, r2, r3, r4, r5, r6, r7] = partial as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    // ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)), numpy's order (+ is left-associative).
    let sum = r0 + r1 + (r2 + r3) + (r4 + r5 + (r6 + r7));
    for (; index < count; index++) sum += values[start + index]!;
    return sum;
  }
  let half = Math.floor(count / 2);
  half -= half % 8;
  return pairwiseSum(values, start, half) + pairwiseSum(values, start + half, count - half);
}

/** The gold as the official code scores it: `str(answer)`, cut at `;` for category 3. */
export function goldUsed(category: number, answer: string | number): string {
  const text = String(answer); // golds are strings or ints: str(2022) is '2022'
  return category === 3 ? pythonStripWhitespace(text.split(';')[0]!) : text;
}

/** Whether the official category-5 rule counts a prediction as an abstention. */
export function saysNotMentioned(prediction: string): boolean {
  const lowered = prediction.toLowerCase();
  return lowered.includes('no information available') || lowered.includes('not mentioned');
}

/** One QA's official score (unrounded). Throws for a category outside 1–5, as the official code does. */
export function scoreStemmedAnswer({ category, answer, prediction }: StemmedAnswerInput): PythonNumber {
  if (category === 5) return pyInt(saysNotMentioned(prediction) ? 1 : 0);
  if (![1, 2, 3, 4].includes(category)) {
    throw new Error(
      `There is no official scoring rule for category ${category} (the official code raises ValueError).`,
    );
  }
  if (answer === undefined) {
    throw new Error(`A category ${category} question has no answer to score against.`);
  }
  const gold = goldUsed(category, answer);
  return category === 1 ? multiAnswerF1(prediction, gold) : stemmedTokenF1(prediction, gold);
}
