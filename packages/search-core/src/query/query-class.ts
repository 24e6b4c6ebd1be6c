/** How a question asks: drives the default signal weights of `rankMultiSignal`. */
export type QueryClass = 'factual' | 'procedural' | 'exploratory' | 'analytical';

/**
 * Cues of each non-factual class, checked in this order (the first class with a matching cue
 * wins; no cue means `factual`):
 * - procedural: "how to", "how do/can/should I", "steps", "instructions";
 * - analytical: "why", "compare", "difference", "versus", "how many/much/often", "in what order",
 *   "which … first/last/earlier/later/more/most", "total", "average";
 * - exploratory: "recommend", "suggest", "idea(s)", "advice", "tips", "what should/could I".
 */
export const QUERY_CLASS_CUES = {
  procedural: [
    /\bhow to\b/i,
    /\bhow (?:do|can|should|would) (?:i|we|you)\b/i,
    /\bsteps?\b/i,
    /\binstructions?\b/i,
  ],
  analytical: [
    /\bwhy\b/i,
    /\bcompar(?:e|ed|ing|ison)\b/i,
    /\bdifference\b/i,
    /\b(?:versus|vs\.?)(?=\s|$)/i,
    /\bhow (?:many|much|often)\b/i,
    /\bin (?:the|what|which) order\b/i,
    /\bwhich\b.*\b(?:first|last|earlier|later|more|most|fewer|less)\b/i,
    /\btotal\b/i,
    /\baverage\b/i,
  ],
  exploratory: [
    /\brecommend\w*/i,
    /\bsuggest\w*/i,
    /\bideas?\b/i,
    /\badvice\b/i,
    /\btips\b/i,
    /\bwhat (?:should|could) i\b/i,
  ],
} as const satisfies Record<Exclude<QueryClass, 'factual'>, readonly RegExp[]>;

/** The class of a question by the first cue of `QUERY_CLASS_CUES` it contains. */
export function classifyQuery(question: string): { queryClass: QueryClass; cue?: string } {
  for (const [queryClass, cues] of Object.entries(QUERY_CLASS_CUES) as [QueryClass, readonly RegExp[]][]) {
    for (const cue of cues) {
      const match = cue.exec(question);
      if (match) return { queryClass, cue: match[0] };
    }
  }
  return { queryClass: 'factual' };
}
