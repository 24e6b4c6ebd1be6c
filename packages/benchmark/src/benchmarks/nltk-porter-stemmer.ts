/**
 * NLTK's `PorterStemmer()` in its default mode (`NLTK_EXTENSIONS`), which the official LoCoMo
 * F1 (`task_eval/evaluation.py`, `ps = PorterStemmer()`) applies to every answer token.
 *
 * Ported rule for rule from nltk/stem/porter.py (nltk 3.8.1 / 3.10.3, Apache License 2.0). The
 * npm stemmers (`stemmer`, `natural`) implement Martin Porter's original algorithm and differ
 * from NLTK on common words (`dying`, `skies`, `ties`, `news`, `proceed`, `fully`, ...), which
 * would change official F1 values; hence this port. Strings are handled as arrays of code points
 * so lengths and indices are Python's.
 */

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);

const IRREGULAR_FORMS: Record<string, readonly string[]> = {
  sky: ['sky', 'skies'],
  die: ['dying'],
  lie: ['lying'],
  tie: ['tying'],
  news: ['news'],
  inning: ['innings', 'inning'],
  outing: ['outings', 'outing'],
  canning: ['cannings', 'canning'],
  howe: ['howe'],
  proceed: ['proceed'],
  exceed: ['exceed'],
  succeed: ['succeed'],
};

const POOL = new Map<string, string>(
  Object.entries(IRREGULAR_FORMS).flatMap(([stem, forms]) => forms.map((form) => [form, stem] as const)),
);

type Word = readonly string[];
type Condition = ((stem: Word) => boolean) | null;
type Rule = readonly [suffix: string, replacement: string, condition: Condition];

function isConsonant(word: Word, index: number): boolean {
  let at = index;
  if (VOWELS.has(word[at]!)) return false;
  if (word[at] === 'y') {
    let negate = false;
    while (at > 0 && word[at] === 'y') {
      negate = !negate;
      at -= 1;
    }
    return !VOWELS.has(word[at]!) !== negate;
  }
  return true;
}

function consonantFlags(word: Word): boolean[] {
  const flags: boolean[] = [];
  word.forEach((char, index) => {
    if (VOWELS.has(char)) flags.push(false);
    else if (char === 'y') flags.push(index === 0 ? true : !flags[index - 1]);
    else flags.push(true);
  });
  return flags;
}

function measure(stem: Word): number {
  const flags = consonantFlags(stem);
  let count = 0;
  for (let index = 1; index < flags.length; index++) if (!flags[index - 1] && flags[index]) count++;
  return count;
}

const positiveMeasure = (stem: Word) => measure(stem) > 0;
const measureAboveOne = (stem: Word) => measure(stem) > 1;

function containsVowel(stem: Word): boolean {
  return consonantFlags(stem).some((flag) => !flag);
}

function endsDoubleConsonant(word: Word): boolean {
  const length = word.length;
  return length >= 2 && word[length - 1] === word[length - 2] && isConsonant(word, length - 1);
}

function endsCvc(word: Word): boolean {
  const length = word.length;
  return (
    (length >= 3 &&
      isConsonant(word, length - 3) &&
      !isConsonant(word, length - 2) &&
      isConsonant(word, length - 1) &&
      !['w', 'x', 'y'].includes(word[length - 1]!)) ||
    (length === 2 && !isConsonant(word, 0) && isConsonant(word, 1))
  );
}

function endsWith(word: Word, suffix: string): boolean {
  const tail = [...suffix];
  if (tail.length > word.length) return false;
  return tail.every((char, index) => word[word.length - tail.length + index] === char);
}

function withoutSuffix(word: Word, suffix: string): string[] {
  return word.slice(0, word.length - [...suffix].length);
}

function applyRuleList(word: Word, rules: readonly Rule[]): string[] {
  for (const [suffix, replacement, condition] of rules) {
    if (suffix === '*d' && endsDoubleConsonant(word)) {
      const stem = word.slice(0, -2);
      return condition === null || condition(stem) ? [...stem, ...replacement] : [...word];
    }
    if (endsWith(word, suffix)) {
      const stem = withoutSuffix(word, suffix);
      return condition === null || condition(stem) ? [...stem, ...replacement] : [...word];
    }
  }
  return [...word];
}

function step1a(word: Word): string[] {
  if (endsWith(word, 'ies') && word.length === 4) return [...withoutSuffix(word, 'ies'), 'i', 'e'];
  return applyRuleList(word, [
    ['sses', 'ss', null],
    ['ies', 'i', null],
    ['ss', 'ss', null],
    ['s', '', null],
  ]);
}

function step1b(word: Word): string[] {
  if (endsWith(word, 'ied')) {
    return [...withoutSuffix(word, 'ied'), ...(word.length === 4 ? 'ie' : 'i')];
  }
  if (endsWith(word, 'eed')) {
    const stem = withoutSuffix(word, 'eed');
    return measure(stem) > 0 ? [...stem, 'e', 'e'] : [...word];
  }
  let intermediate: string[] | undefined;
  for (const suffix of ['ed', 'ing']) {
    if (endsWith(word, suffix)) {
      const candidate = withoutSuffix(word, suffix);
      if (containsVowel(candidate)) {
        intermediate = candidate;
        break;
      }
    }
  }
  if (intermediate === undefined) return [...word];
  const last = intermediate[intermediate.length - 1]!;
  return applyRuleList(intermediate, [
    ['at', 'ate', null],
    ['bl', 'ble', null],
    ['iz', 'ize', null],
    ['*d', last ?? '', () => !['l', 's', 'z'].includes(last)],
    ['', 'e', (stem) => measure(stem) === 1 && endsCvc(stem)],
  ]);
}

function step1c(word: Word): string[] {
  return applyRuleList(word, [['y', 'i', (stem) => stem.length > 1 && isConsonant(stem, stem.length - 1)]]);
}

function step2(word: Word): string[] {
  if (endsWith(word, 'alli') && positiveMeasure(withoutSuffix(word, 'alli'))) {
    return step2([...withoutSuffix(word, 'alli'), 'a', 'l']);
  }
  return applyRuleList(word, [
    ['ational', 'ate', positiveMeasure],
    ['tional', 'tion', positiveMeasure],
    ['enci', 'ence', positiveMeasure],
    ['anci', 'ance', positiveMeasure],
    ['izer', 'ize', positiveMeasure],
    ['bli', 'ble', positiveMeasure],
    ['alli', 'al', positiveMeasure],
    ['entli', 'ent', positiveMeasure],
    ['eli', 'e', positiveMeasure],
    ['ousli', 'ous', positiveMeasure],
    ['ization', 'ize', positiveMeasure],
    ['ation', 'ate', positiveMeasure],
    ['ator', 'ate', positiveMeasure],
    ['alism', 'al', positiveMeasure],
    ['iveness', 'ive', positiveMeasure],
    ['fulness', 'ful', positiveMeasure],
    ['ousness', 'ous', positiveMeasure],
    ['aliti', 'al', positiveMeasure],
    ['iviti', 'ive', positiveMeasure],
    ['biliti', 'ble', positiveMeasure],
    ['fulli', 'ful', positiveMeasure],
    ['logi', 'log', () => positiveMeasure(word.slice(0, -3))],
  ]);
}

function step3(word: Word): string[] {
  return applyRuleList(word, [
    ['icate', 'ic', positiveMeasure],
    ['ative', '', positiveMeasure],
    ['alize', 'al', positiveMeasure],
    ['iciti', 'ic', positiveMeasure],
    ['ical', 'ic', positiveMeasure],
    ['ful', '', positiveMeasure],
    ['ness', '', positiveMeasure],
  ]);
}

function step4(word: Word): string[] {
  return applyRuleList(word, [
    ['al', '', measureAboveOne],
    ['ance', '', measureAboveOne],
    ['ence', '', measureAboveOne],
    ['er', '', measureAboveOne],
    ['ic', '', measureAboveOne],
    ['able', '', measureAboveOne],
    ['ible', '', measureAboveOne],
    ['ant', '', measureAboveOne],
    ['ement', '', measureAboveOne],
    ['ment', '', measureAboveOne],
    ['ent', '', measureAboveOne],
    ['ion', '', (stem) => measure(stem) > 1 && ['s', 't'].includes(stem[stem.length - 1]!)],
    ['ou', '', measureAboveOne],
    ['ism', '', measureAboveOne],
    ['ate', '', measureAboveOne],
    ['iti', '', measureAboveOne],
    ['ous', '', measureAboveOne],
    ['ive', '', measureAboveOne],
    ['ize', '', measureAboveOne],
  ]);
}

function step5a(word: Word): string[] {
  if (endsWith(word, 'e')) {
    const stem = withoutSuffix(word, 'e');
    if (measure(stem) > 1) return stem;
    if (measure(stem) === 1 && !endsCvc(stem)) return stem;
  }
  return [...word];
}

function step5b(word: Word): string[] {
  return applyRuleList(word, [['ll', 'l', () => measure(word.slice(0, -1)) > 1]]);
}

/** `PorterStemmer().stem(word)` of nltk (lower-cases first, as its default `to_lowercase=True`). */
export function nltkPorterStem(word: string): string {
  const lowered = word.toLowerCase();
  const irregular = POOL.get(lowered);
  if (irregular !== undefined) return irregular;
  // nltk tests the length of the word before lower-casing.
  if ([...word].length <= 2) return lowered;
  let stem: string[] = [...lowered];
  for (const step of [step1a, step1b, step1c, step2, step3, step4, step5a, step5b]) stem = step(stem);
  return stem.join('');
}
