import type { ChatMessage } from '../llm/chat-client.js';

/**
 * The prompts of the LLM rerankers, written for lme (conversation memories, not web passages).
 * The listwise prompt follows RankGPT's permutation generation (Sun et al. 2023): numbered
 * passages, the query repeated after them, and an answer of identifiers only.
 */

/** Characters of one candidate shown to the model (a long turn is cut, not dropped). */
export const RERANK_PASSAGE_CHARS = 1200;

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > RERANK_PASSAGE_CHARS ? `${flat.slice(0, RERANK_PASSAGE_CHARS)}…` : flat;
}

export function listwisePrompt(query: string, passages: readonly string[]): ChatMessage[] {
  const numbered = passages.map((passage, index) => `[${index + 1}] ${clip(passage)}`).join('\n');
  return [
    {
      role: 'system',
      content:
        'You rank excerpts of past conversations between a user and an assistant by how useful they are for answering a question the user asks now.',
    },
    {
      role: 'user',
      content:
        `I will give you ${passages.length} conversation excerpts, each marked with an identifier in brackets. ` +
        `Rank them by how much they help answer the question.\n\nQuestion: ${query}\n\n${numbered}\n\n` +
        `Question: ${query}\n\nRank all ${passages.length} excerpts, most useful first, using their identifiers, ` +
        'in the form [2] > [1] > [3]. Answer with the ranking only, no explanation.',
    },
  ];
}

export function pointwisePrompt(query: string, passage: string): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        'You judge whether an excerpt of a past conversation between a user and an assistant helps answer a question the user asks now. Answer Yes or No.',
    },
    {
      role: 'user',
      content: `Question: ${query}\n\nExcerpt: ${clip(passage)}\n\nDoes the excerpt contain information that helps answer the question? Answer Yes or No.`,
    },
  ];
}

/**
 * Positions (0-based) named by a listwise reply such as `[3] > [1] > [2]`, in order, without
 * repeats or identifiers out of range; undefined when the reply names none.
 */
export function parseListwiseReply(reply: string, size: number): number[] | undefined {
  const seen = new Set<number>();
  for (const match of reply.matchAll(/\[?(\d+)\]?/g)) {
    const position = Number(match[1]) - 1;
    if (position >= 0 && position < size) seen.add(position);
  }
  return seen.size === 0 ? undefined : [...seen];
}

/** 1 for a reply starting with yes, 0 for no, undefined otherwise. */
export function parseYesNo(reply: string): number | undefined {
  const word = reply
    .trim()
    .toLowerCase()
    .replace(/^[^a-z]+/, '');
  if (word.startsWith('yes')) return 1;
  if (word.startsWith('no')) return 0;
  return undefined;
}
