import { stemmer } from 'stemmer';

/** Turns text into BM25 terms. */
export type Tokenizer = {
  readonly id: TokenizerName;
  tokenize(text: string): string[];
};

/**
 * Python's `text.split(" ")`, as the official LongMemEval scripts tokenize: case and punctuation
 * kept, only the space character splits, consecutive spaces give empty tokens.
 */
export const officialTokenizer: Tokenizer = {
  id: 'official',
  tokenize: (text) => text.split(' '),
};

// A short English stop list: function words that carry no topic. Kept small on purpose; BM25's
// idf already discounts common words, this only removes the ones that dominate every haystack.
const STOP_WORDS = new Set(
  (
    'a an and are as at be but by do does did for from had has have he her his how i if in into is it its ' +
    'me my of on or our she so than that the their them then there these they this those to was we were ' +
    'what when where which who whom why will with would you your'
  ).split(' '),
);

// Porter stemming is the tokenizer's main cost and chat text repeats words endlessly: memoise the
// term of each lowercased word as matched (null for a stop word), one map lookup per word.
const TERMS = new Map<string, string | null>();
const MAX_TERMS = 200_000;
function termOf(matched: string): string | null {
  let term = TERMS.get(matched);
  if (term === undefined) {
    const word = matched.replace(/['’]/g, '');
    term = STOP_WORDS.has(word) ? null : stemmer(word);
    if (TERMS.size >= MAX_TERMS) TERMS.clear();
    TERMS.set(matched, term);
  }
  return term;
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

/**
 * The default for users: lowercase Unicode words (letters and digits; apostrophes inside a word
 * kept, then dropped), English stop words removed, Porter-stemmed ("bought"/"buying" stay apart,
 * "mattresses"/"mattress" meet). `match` (plain strings, no match objects) and the memo make it
 * about twice as fast as a matchAll loop, which matters at LongMemEval M scale.
 */
export const wordsTokenizer: Tokenizer = {
  id: 'words',
  tokenize(text) {
    const terms: string[] = [];
    for (const matched of text.toLowerCase().match(WORD) ?? []) {
      const term = termOf(matched);
      if (term !== null) terms.push(term);
    }
    return terms;
  },
};

export const tokenizers = {
  official: officialTokenizer,
  words: wordsTokenizer,
} satisfies Record<string, Tokenizer>;

export type TokenizerName = keyof typeof tokenizers;

export function getTokenizer(name: string): Tokenizer {
  const tokenizer = (tokenizers as Record<string, Tokenizer>)[name];
  if (!tokenizer) {
    throw new Error(`Unknown tokenizer "${name}"; known: ${Object.keys(tokenizers).join(', ')}.`);
  }
  return tokenizer;
}
