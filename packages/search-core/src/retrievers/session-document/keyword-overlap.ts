/**
 * MemPalace's hybrid v1 keyword overlap (MemPalace/mempalace `benchmarks/longmemeval_bench.py` at
 * 9b7cfc99, `build_palace_and_retrieve_hybrid`): the question's words of three or more ASCII
 * letters, less its stop words, and the share of them found as substrings of the lower-cased
 * document. The stop words are theirs, verbatim.
 */
const STOP_WORDS = new Set([
  'what',
  'when',
  'where',
  'who',
  'how',
  'which',
  'did',
  'do',
  'was',
  'were',
  'have',
  'has',
  'had',
  'is',
  'are',
  'the',
  'a',
  'an',
  'my',
  'me',
  'i',
  'you',
  'your',
  'their',
  'it',
  'its',
  'in',
  'on',
  'at',
  'to',
  'for',
  'of',
  'with',
  'by',
  'from',
  'ago',
  'last',
  'that',
  'this',
  'there',
  'about',
  'get',
  'got',
  'give',
  'gave',
  'buy',
  'bought',
  'made',
  'make',
]);

// Python's `\b[a-z]{3,}\b` on a str: its word boundaries are Unicode (`\w` is a letter, digit or `_`).
const WORD = /(?<![\p{L}\p{N}_])[a-z]{3,}(?![\p{L}\p{N}_])/gu;

/** `extract_keywords`: repeats kept, as their list keeps them. */
export function extractKeywords(text: string): string[] {
  return (text.toLowerCase().match(WORD) ?? []).filter((word) => !STOP_WORDS.has(word));
}

/** `keyword_overlap`: the share of the keywords (repeats counted) found in the document; 0 without any. */
export function keywordOverlap(keywords: readonly string[], document: string): number {
  if (keywords.length === 0) return 0;
  const lower = document.toLowerCase();
  return keywords.filter((keyword) => lower.includes(keyword)).length / keywords.length;
}
