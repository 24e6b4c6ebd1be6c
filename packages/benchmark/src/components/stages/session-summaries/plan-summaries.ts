import type { StagePlan, StagePlanInput } from '../stage-descriptor.js';

/** max_tokens of one summary. */
const SUMMARY_COMPLETION_TOKENS = 150;
/** The characters of a session's text a summary prompt holds, and of its instructions. */
const SUMMARY_SESSION_CHARS = 12_000;
const SUMMARY_INSTRUCTION_CHARS = 400;

/** `--summarizer llm`: one call per distinct session, its text cut at 12,000 characters. */
export function planSummaries(summarizesWithLlm: boolean, input: StagePlanInput): StagePlan {
  if (!summarizesWithLlm) return { notes: [] };
  let chars = 0;
  for (const turns of input.sessions.values()) {
    const text = turns.reduce((sum, turn) => sum + Math.min(turn.length, SUMMARY_SESSION_CHARS), 0);
    chars += Math.min(text, SUMMARY_SESSION_CHARS) + SUMMARY_INSTRUCTION_CHARS;
  }
  return {
    calls: {
      calls: input.sessions.size,
      promptTokens: Math.round(chars * input.tokensPerChar),
      completionTokens: input.sessions.size * SUMMARY_COMPLETION_TOKENS,
    },
    notes: ['summaries already in the cache are not requested again; the plan counts every session.'],
  };
}
