import { LOGPROBS_MARK } from '../llm/openai-chat-client.js';

/**
 * The text of a reply and, when it carries log-probabilities (a request with `topLogprobs`: the
 * chat client appends them as a second text, `lme-logprobs:{"Yes":-0.1,…}`), P(yes) of its first
 * token: the probabilities of yes-like and no-like tokens summed and renormalised over the two.
 */
export function readLogprobReply(texts: readonly string[]): { text: string; yesProbability?: number } {
  const text = texts[0] ?? '';
  const marked = texts.find((entry) => entry.startsWith(LOGPROBS_MARK));
  if (!marked) return { text };
  let top: Record<string, number>;
  try {
    top = JSON.parse(marked.slice(LOGPROBS_MARK.length)) as Record<string, number>;
  } catch {
    return { text };
  }
  let yes = 0;
  let no = 0;
  for (const [token, logprob] of Object.entries(top)) {
    const word = token.trim().toLowerCase();
    if (word === 'yes') yes += Math.exp(logprob);
    else if (word === 'no') no += Math.exp(logprob);
  }
  return yes + no > 0 ? { text, yesProbability: yes / (yes + no) } : { text };
}
