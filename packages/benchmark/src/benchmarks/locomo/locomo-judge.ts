import type { JudgeRecord, JudgeRubricDefinition } from '../judge-rubric.js';
import { locomoCategory } from './locomo-record.js';

/**
 * The LLM judge memory projects report on LoCoMo: Mem0's `ACCURACY_PROMPT`, byte for byte from
 * mem0ai/mem0 `evaluation/metrics/llm_judge.py` as published with the paper (commit 393a4fd5a,
 * 2025-04-29, git blob d148da7b…; the text there is unchanged since the evaluation folder was
 * added; a June 2025 edit later changed `it’s` to `it's`). Mem0 sends it as one user message to
 * gpt-4o-mini at temperature 0 with `response_format: json_object`, reads
 * `json.loads(reply)["label"] == "CORRECT"`, and skips category 5 (adversarial) entirely.
 */
export const MEM0_ACCURACY_PROMPT =
  '\nYour task is to label an answer to a question as \u2019CORRECT\u2019 or \u2019WRONG\u2019. You will be given the following data:\n    (1) a question (posed by one user to another user), \n    (2) a \u2019gold\u2019 (ground truth) answer, \n    (3) a generated answer\nwhich you will score as CORRECT/WRONG.\n\nThe point of the question is to ask about something one user should know about the other user based on their prior conversations.\nThe gold answer will usually be a concise and short answer that includes the referenced topic, for example:\nQuestion: Do you remember what I got the last time I went to Hawaii?\nGold answer: A shell necklace\nThe generated answer might be much longer, but you should be generous with your grading - as long as it touches on the same topic as the gold answer, it should be counted as CORRECT. \n\nFor time related questions, the gold answer will be a specific date, month, year, etc. The generated answer might be much longer or use relative time references (like "last Tuesday" or "next month"), but you should be generous with your grading - as long as it refers to the same date or time period as the gold answer, it should be counted as CORRECT. Even if the format differs (e.g., "May 7th" vs "7 May"), consider it CORRECT if it\'s the same date.\n\nNow it\u2019s time for the real question:\nQuestion: {question}\nGold answer: {gold_answer}\nGenerated answer: {generated_answer}\n\nFirst, provide a short (one sentence) explanation of your reasoning, then finish with CORRECT or WRONG. \nDo NOT include both CORRECT and WRONG in your response, or it will break the evaluation script.\n\nJust return the label CORRECT or WRONG in a json format with the key as "label".\n';

/** Mem0's judge model. */
export const MEM0_JUDGE_MODEL = 'gpt-4o-mini';

/**
 * Mem0 sends no `max_tokens`; lme's judge always sends one, so this leaves room for the
 * one-sentence explanation the prompt asks for.
 */
export const MEM0_JUDGE_MAX_TOKENS = 512;

/** `ACCURACY_PROMPT.format(question=..., gold_answer=..., generated_answer=...)` (`str()` of an int gold). */
export function buildMem0JudgePrompt(
  record: Pick<JudgeRecord, 'question' | 'answer'>,
  hypothesis: string,
): string {
  const fields: Record<string, string> = {
    question: record.question,
    gold_answer: String(record.answer),
    generated_answer: hypothesis,
  };
  return MEM0_ACCURACY_PROMPT.replace(
    /\{(question|gold_answer|generated_answer)\}/g,
    (_, name: string) => fields[name]!,
  );
}

/**
 * Mem0's reading: `json.loads(content)["label"]`, 1 when it is `"CORRECT"`. A reply that is not a
 * JSON object with a string `label` makes Mem0's script raise; here it is unreadable (null).
 */
export function parseMem0JudgeReply(reply: string): boolean | null {
  let value: unknown;
  try {
    value = JSON.parse(reply);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const label = (value as Record<string, unknown>).label;
  if (typeof label !== 'string') return null;
  return label === 'CORRECT';
}

/**
 * Whether Mem0's judge grades a question: LoCoMo categories 1–4. Category 5 (adversarial) is
 * excluded, as Mem0's script `continue`s past it; its figures are labelled so.
 */
export function mem0JudgeGrades(record: Pick<JudgeRecord, 'question_type'>): boolean {
  const category = locomoCategory(record);
  return category !== undefined && category !== 5;
}

/** The `locomo-llm` judge rubric (Mem0's LoCoMo judge). */
export const locomoLlmRubric: JudgeRubricDefinition = {
  description: "Mem0's published LoCoMo judge (ACCURACY_PROMPT, categories 1-4; adversarial excluded)",
  prompt: (record, hypothesis) => buildMem0JudgePrompt(record, hypothesis),
  parse: (reply) => parseMem0JudgeReply(reply),
  maxTokens: MEM0_JUDGE_MAX_TOKENS,
};
