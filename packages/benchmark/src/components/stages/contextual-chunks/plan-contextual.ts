import type { MemoryDocument } from '@lme/search-core';
import type { StagePlan, StagePlanInput } from '../stage-descriptor.js';
import type { ContextualOptions } from './chunk-contextualizer.js';

// --contextual llm: one call per document, the conversation around it cut at 8000 characters
// (contextPrompt), the chunk and about 400 characters of instructions; max_tokens 150.
const CONTEXT_CONVERSATION_CHARS = 8000;
const CONTEXT_INSTRUCTION_CHARS = 400;
const CONTEXT_COMPLETION_TOKENS = 150;

/** The dry run's count of contextual chunks: one LLM call per document with `--contextual llm`. */
export function planContextual(options: ContextualOptions, input: StagePlanInput): StagePlan {
  const notes = [
    ...(options.contextualDense && input.embeds
      ? ['contextualized texts differ per haystack: they are embedded on top of the counts above.']
      : []),
  ];
  if (options.contextual !== 'llm') return { notes };
  const documents = input.haystacks.reduce((sum, haystack) => sum + haystack.length, 0);
  const promptChars = input.haystacks.reduce((sum, haystack) => sum + contextPromptCharacters(haystack), 0);
  return {
    calls: {
      calls: documents,
      promptTokens: Math.round(promptChars * input.tokensPerChar),
      completionTokens: documents * CONTEXT_COMPLETION_TOKENS,
    },
    notes: [
      ...notes,
      'contexts already in the completion cache are not requested again; the plan counts every document.',
    ],
  };
}

/** Characters of the `--contextual llm` prompts of one haystack's documents (see contextPrompt). */
function contextPromptCharacters(documents: readonly MemoryDocument[]): number {
  const sessionChars = new Map<string, number>();
  for (const document of documents)
    sessionChars.set(
      document.sessionId,
      (sessionChars.get(document.sessionId) ?? 0) + document.text.length + 1,
    );
  return documents.reduce(
    (sum, document) =>
      sum +
      Math.min(sessionChars.get(document.sessionId)!, CONTEXT_CONVERSATION_CHARS) +
      document.text.length +
      CONTEXT_INSTRUCTION_CHARS,
    0,
  );
}
