import { chatCompletionReply, type WireHandler } from '@lme/search-core/testing';

/**
 * A deterministic stand-in for the official LLM judge, for loopback runs: it reads the official
 * LongMemEval judge prompt (evaluate_qa.py's get_anscheck_prompt: `Correct Answer:`, `Rubric:` or
 * `Explanation:`, then `Model Response:`) and says "yes" when the response contains the gold text
 * (case and spacing ignored, a final full stop dropped), else "no". Any other prompt gets "no".
 */
export function containmentVerdict(prompt: string): 'yes' | 'no' {
  const match =
    /\n\n(?:Correct Answer|Rubric|Explanation): ([\s\S]*)\n\nModel Response: ([\s\S]*)\n\n(?:Is the model response correct\?|Does the model correctly identify)/.exec(
      prompt,
    );
  if (!match) return 'no';
  const normal = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim().replace(/\.$/, '');
  const gold = normal(match[1]!);
  return gold !== '' && normal(match[2]!).includes(gold) ? 'yes' : 'no';
}

/** The `/chat/completions` route of `startOpenAiWireServer` answering with `containmentVerdict`. */
export const containmentJudgeHandler: WireHandler = (request) => {
  const messages = (request.body as { messages?: { content?: string }[] }).messages ?? [];
  return chatCompletionReply(containmentVerdict(messages[0]?.content ?? ''));
};
