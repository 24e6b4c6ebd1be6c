import { createRequire } from 'node:module';
import type { SessionInput, SessionSummary, Summarizer } from '../core/summarizer.js';
import { wordsTokenizer } from '../lexical/tokenizer.js';

// compromise takes about a second to load: loaded on first use, so runs without summaries skip it.
const require = createRequire(import.meta.url);
let nlpModule: typeof import('compromise').default | undefined;
const nlp = (text: string) => {
  nlpModule ??= require('compromise') as typeof import('compromise').default;
  return nlpModule(text);
};

export type ExtractiveSummarizerOptions = {
  /** Salient user sentences kept in the summary text. Default 3. */
  sentences?: number;
  /** Keyphrases kept as topics. Default 6. */
  topics?: number;
};

const SENTENCE = /[^.!?\n]+[.!?]*/g;
const MAX_SENTENCE_CHARS = 300;

/**
 * A deterministic summary with no model. Each session's user text is contrasted with the rest
 * of the haystack: terms weigh tf × idf (idf over the haystack's sessions). Topics are the
 * highest-weighted stems, shown in their most frequent surface form; the summary text is the
 * user sentences with the highest mean term weight (in session order); entities are the people,
 * places and organisations compromise finds in those sentences (in the ones with a capitalised
 * word after their first).
 */
export function createExtractiveSummarizer(options: ExtractiveSummarizerOptions = {}): Summarizer {
  const keepSentences = options.sentences ?? 3;
  const keepTopics = options.topics ?? 6;
  return {
    id: 'extractive',
    async summarize({ sessions }) {
      const userTexts = sessions.map((session) =>
        session.turns.filter((turn) => turn.role === 'user').map((turn) => turn.content),
      );
      const termSets = userTexts.map((texts) => new Set(wordsTokenizer.tokenize(texts.join('\n'))));
      const documentFrequency = new Map<string, number>();
      for (const terms of termSets)
        for (const term of terms) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
      const idf = (term: string) =>
        Math.log((sessions.length + 1) / ((documentFrequency.get(term) ?? 0) + 1)) + 1;
      return sessions.map((session, index) =>
        summarizeOne(session, userTexts[index]!, idf, keepSentences, keepTopics),
      );
    },
  };
}

function summarizeOne(
  session: SessionInput,
  userTexts: readonly string[],
  idf: (term: string) => number,
  keepSentences: number,
  keepTopics: number,
): SessionSummary {
  const frequency = new Map<string, number>();
  const surface = new Map<string, Map<string, number>>();
  for (const text of userTexts) {
    for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu)) {
      const [stem] = wordsTokenizer.tokenize(match[0]);
      if (!stem || stem.length < 3 || /^\d+$/.test(stem)) continue;
      frequency.set(stem, (frequency.get(stem) ?? 0) + 1);
      const forms = surface.get(stem) ?? new Map<string, number>();
      forms.set(match[0], (forms.get(match[0]) ?? 0) + 1);
      surface.set(stem, forms);
    }
  }
  const weight = new Map<string, number>();
  for (const [term, count] of frequency) weight.set(term, (1 + Math.log(count)) * idf(term));
  const topics = [...weight.entries()]
    .sort((left, right) => right[1] - left[1] || (left[0] < right[0] ? -1 : 1))
    .slice(0, keepTopics)
    .map(([stem]) => mostFrequent(surface.get(stem)!));

  const sentences: { text: string; score: number; order: number }[] = [];
  for (const text of userTexts) {
    for (const match of text.matchAll(SENTENCE)) {
      const sentence = match[0].trim();
      if (sentence.length < 12) continue;
      const terms = wordsTokenizer.tokenize(sentence);
      if (terms.length === 0) continue;
      const score = terms.reduce((sum, term) => sum + (weight.get(term) ?? 0), 0) / Math.sqrt(terms.length);
      sentences.push({ text: sentence.slice(0, MAX_SENTENCE_CHARS), score, order: sentences.length });
    }
  }
  const salient = [...sentences]
    .sort((left, right) => right.score - left.score || left.order - right.order)
    .slice(0, keepSentences)
    .sort((left, right) => left.order - right.order);
  const text = salient.map((sentence) => sentence.text).join(' ');

  // compromise tags whole sentences (about 8 ms per 1,500 characters), so it only reads the
  // sentences that can hold a name: a capital letter after the first word.
  const entitySource =
    text
      .match(SENTENCE)
      ?.filter((sentence) => /\s[A-Z]/.test(sentence.trim()))
      .join(' ') ?? '';
  const document = nlp(entitySource);
  const entities = [
    ...new Set(
      (document.topics().out('array') as string[])
        .map((entity: string) => entity.replace(/[^\p{L}\p{N}\s'&.-]/gu, '').trim())
        .filter((entity: string) => entity.length > 1),
    ),
  ];
  return {
    sessionId: session.sessionId,
    text,
    topics,
    entities,
    start: session.date,
    end: session.date,
    turnCount: session.turns.length,
    userTurnCount: userTexts.length,
    source: 'extractive',
  };
}

function mostFrequent(forms: Map<string, number>): string {
  let best = '';
  let bestCount = -1;
  for (const [form, count] of forms) {
    if (count > bestCount || (count === bestCount && form < best)) {
      best = form;
      bestCount = count;
    }
  }
  return best;
}
