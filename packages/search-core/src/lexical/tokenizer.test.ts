import { describe, expect, it } from 'vitest';
import { getTokenizer, officialTokenizer, wordsTokenizer } from './tokenizer.js';

describe('officialTokenizer', () => {
  it('splits on single spaces only, like Python str.split(" ")', () => {
    expect(officialTokenizer.tokenize('How old am I?  Be\nbrief')).toEqual([
      'How',
      'old',
      'am',
      'I?',
      '',
      'Be\nbrief',
    ]);
    expect(officialTokenizer.tokenize('')).toEqual(['']);
  });
});

describe('wordsTokenizer', () => {
  it('lowercases, drops punctuation and stop words, and stems', () => {
    expect(wordsTokenizer.tokenize("What mattresses did I buy? I'm 32, café-owner.")).toEqual([
      'mattress',
      'bui',
      'im',
      '32',
      'café',
      'owner',
    ]);
  });

  it('drops a word that is a stop word once its apostrophe goes, every time it is seen', () => {
    const text = "It's what Dan’s friend's dog isn't; it's Dan’s.";
    const expected = ['dan', 'friend', 'dog', 'isnt', 'dan'];
    expect(wordsTokenizer.tokenize(text)).toEqual(expected);
    expect(wordsTokenizer.tokenize(text)).toEqual(expected);
  });
});

describe('getTokenizer', () => {
  it('names the known tokenizers when given an unknown one', () => {
    expect(() => getTokenizer('nltk')).toThrow(/Unknown tokenizer "nltk"; known: official, words/);
  });
});
