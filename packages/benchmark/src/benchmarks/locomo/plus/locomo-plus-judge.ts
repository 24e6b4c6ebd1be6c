import { pythonStrip } from '../../../dataset/python-compat.js';
import type { GradedJudgeRubricDefinition } from '../../judge-rubric.js';
import type { LocomoPlusCategory } from './locomo-plus-categories.js';

/*
 * LoCoMo-Plus's LLM judge, reproduced from its official code (xjtuleeyf/Locomo-Plus, commit
 * 143cdeb649231612abc3304793bb36a122f94229): the prompts are `PROMPT_TEMPLATES` of
 * `evaluation_framework/task_eval/prompt.py` byte for byte, filled as `llm_as_judge.py`
 * `get_judge_prompt` fills them (`template.format(gold=…, pred=…, evidence=…)`); the call is one
 * user message, temperature 0, max_tokens 512, default model gpt-4o-mini (`judge.sh`); the reply
 * is read by `_parse_judge_response` and scored by `label_to_score` (correct 1, partial 0.5,
 * wrong 0; anything else 0).
 */

/** `PROMPT_TEMPLATES`, keyed by category name (`default` for an unknown category). */
export const LOCOMO_PLUS_JUDGE_TEMPLATES: Readonly<Record<LocomoPlusCategory | 'default', string>> = {
  'multi-hop':
    '\nYou are a Fact-Checking Judge.\nYour task: Compare the model\'s prediction with the reference answer (multi-hop fact QA).\n\nLabels:\n- "correct": The answer matches the reference entities (names, places, times) exactly.\n- "partial": The answer misses some details or contains minor inaccuracies but gets the main entity right.\n- "wrong": The answer is factually incorrect or hallucinates details not in the reference.\n\nReference Answer:\n{gold}\n\nModel Prediction:\n{pred}\n\nRelevant Evidence:\n{evidence}\n\nReturn your judgment strictly in JSON format:\n{{"label": "correct"|"partial"|"wrong", "reason": "<short explanation>"}}\n',
  'single-hop':
    '\nYou are a Fact-Checking Judge.\nYour task: Compare the model\'s prediction with the reference answer (single-hop fact QA).\n\nLabels:\n- "correct": The answer matches the reference entities exactly.\n- "partial": The answer misses some details but gets the main entity right.\n- "wrong": The answer is factually incorrect or hallucinates details not in the reference.\n\nReference Answer:\n{gold}\n\nModel Prediction:\n{pred}\n\nRelevant Evidence:\n{evidence}\n\nReturn your judgment strictly in JSON format:\n{{"label": "correct"|"partial"|"wrong", "reason": "<short explanation>"}}\n',
  temporal:
    '\nYou are a Temporal Logic Judge.\nYour task: Check the calculation, duration, or sequence of events.\n\nLabels:\n- "correct": The calculated time, duration, or date matches the reference exactly (semantic equivalents are allowed).\n- "wrong": The calculation is incorrect, the sequence is reversed, or the specific time is wrong.\n\nReference Answer:\n{gold}\n\nModel Prediction:\n{pred}\n\nRelevant Evidence:\n{evidence}\n\nReturn your judgment strictly in JSON format:\n{{"label": "correct"|"wrong", "reason": "<short explanation>"}}\n',
  'common-sense':
    '\nYou are a Knowledge Logic Judge.\nYour task: Assess if the prediction applies correct commonsense/world knowledge consistent with the reference.\n\nLabels:\n- "correct": The logic and inference are sound and match the reference conclusion.\n- "partial": The reasoning is mostly correct but the final conclusion is vague or slightly off.\n- "wrong": The reasoning contradicts commonsense or the reference.\n\nReference Answer:\n{gold}\n\nModel Prediction:\n{pred}\n\nRelevant Evidence:\n{evidence}\n\nReturn your judgment strictly in JSON format:\n{{"label": "correct"|"partial"|"wrong", "reason": "<short explanation>"}}\n',
  adversarial:
    '\nYou are a Skeptical Judge evaluating robustness.\nThe question is inherently misleading (e.g., asks about something not in the conversation).\nYour task: Judge whether the model\'s answer conveys that "this was not mentioned in the conversation" (or equivalent refusal).\n\nLabels:\n- "correct": The prediction clearly conveys that the information was not mentioned / cannot be answered from the conversation. Score it.\n- "wrong": The prediction does NOT convey that meaning\u2014e.g., it gives a concrete answer or does not refuse. Do not score.\n\n\nModel Prediction:\n{pred}\n\nReturn your judgment strictly in JSON format:\n{{"label": "correct"|"wrong", "reason": "<short explanation>"}}\n',
  Cognitive:
    '\nYou are a Memory Awareness Judge.\nYour task: Judge whether the Model Prediction considers or is linked to the Evidence. If there is a clear connection, the answer is correct (score 1); if not, it is wrong (no score).\n\nLabels:\n- "correct": The prediction explicitly or implicitly reflects/uses the evidence (memory or constraint). Give 1 point.\n- "wrong": The prediction does not show such a link to the evidence. No point.\n\nMemory/Evidence:\n{evidence}\n\nModel Prediction:\n{pred}\n\nReturn your judgment strictly in JSON format:\n{{"label": "correct"|"wrong", "reason": "<Does the prediction relate to the evidence?>"}}\n',
  default:
    '\nYou are an expert evaluator.\nYour task: Compare the prediction with the reference.\n\nLabels:\n- "correct": Factually consistent with the reference.\n- "partial": Contains correct info but is incomplete.\n- "wrong": Factually incorrect.\n\nReference Answer:\n{gold}\n\nModel Prediction:\n{pred}\n\nRelevant Evidence:\n{evidence}\n\nReturn your judgment strictly in JSON format:\n{{"label": "correct"|"partial"|"wrong", "reason": "<short explanation>"}}\n',
};

/** `--model` default of llm_as_judge.py and judge.sh. */
export const LOCOMO_PLUS_JUDGE_MODEL = 'gpt-4o-mini';
/** `--max-tokens` default of llm_as_judge.py. */
export const LOCOMO_PLUS_JUDGE_MAX_TOKENS = 512;

/** `LABEL_TO_SCORE`. */
export const LOCOMO_PLUS_LABEL_SCORES: Readonly<Record<string, number>> = {
  correct: 1,
  partial: 0.5,
  wrong: 0,
};

/** `get_judge_prompt(category, evidence, pred, gold)`: the category's template (`default` if none). */
export function buildLocomoPlusJudgePrompt(fields: {
  category: string;
  evidence: string;
  prediction: string;
  gold: string;
}): string {
  const template = Object.hasOwn(LOCOMO_PLUS_JUDGE_TEMPLATES, fields.category)
    ? LOCOMO_PLUS_JUDGE_TEMPLATES[fields.category as LocomoPlusCategory]
    : LOCOMO_PLUS_JUDGE_TEMPLATES.default;
  const values: Record<string, string> = {
    gold: fields.gold,
    pred: fields.prediction,
    evidence: fields.evidence,
  };
  // str.format with named fields: `{{`/`}}` are literal braces, substituted text is not re-scanned.
  return template.replace(/\{\{|\}\}|\{(gold|pred|evidence)\}/g, (match, name?: string) =>
    name === undefined ? match[0]! : values[name]!,
  );
}

/** `label_to_score`: 1, 0.5 or 0 by the stripped, lower-cased label; 0 for anything else. */
export function locomoPlusLabelScore(label: string): number {
  return LOCOMO_PLUS_LABEL_SCORES[pythonStrip(label.toLowerCase())] ?? 0;
}

const LABEL_AND_REASON = /\{[^{}]*"label"\s*:\s*["']([^"']+)["'][^{}]*"reason"\s*:\s*["']([^"']*)["']/;

/**
 * `_parse_judge_response`: the first `{… "label": "…" … "reason": "…"}` (label before reason), else
 * the reply as a JSON object's `label`/`reason`; when neither reads (not JSON, or JSON whose label
 * is not a string), the first of "correct", "wrong", "partial" found in the lower-cased reply
 * (so "incorrect" reads as correct), with the reply's first 200 characters as the reason.
 */
export function parseLocomoPlusJudgeReply(reply: string): { label: string; reason: string } {
  const raw = pythonStrip(reply);
  const match = LABEL_AND_REASON.exec(raw);
  if (match) return { label: pythonStrip(match[1]!), reason: pythonStrip(match[2] ?? '') };
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not a dict');
    const object = value as Record<string, unknown>;
    const label = falsyToEmpty(object.label);
    const reason = falsyToEmpty(object.reason);
    return { label: pythonStrip(label), reason: pythonStrip(reason) };
  } catch {
    const lower = raw.toLowerCase();
    const label = lower.includes('correct')
      ? 'correct'
      : lower.includes('wrong')
        ? 'wrong'
        : lower.includes('partial')
          ? 'partial'
          : '';
    return { label, reason: Array.from(raw).slice(0, 200).join('') };
  }
}

/** `(value or "")` followed by `.strip()`: a falsy value is '', a non-string raises. */
function falsyToEmpty(value: unknown): string {
  if (value === undefined || value === null || value === false || value === 0 || value === '') return '';
  if (Array.isArray(value) && value.length === 0) return '';
  if (typeof value === 'object' && value !== null && Object.keys(value).length === 0) return '';
  if (typeof value !== 'string') throw new Error('label is not a string');
  return value;
}

/** What the judge reads of a LoCoMo-Plus question (the loader's record; see LocomoPlusRecord). */
type JudgedQuestion = {
  question_type: string;
  answer: string | number;
  locomo_plus_category?: string;
  locomo_plus_evidence?: string;
};

/**
 * The official judge call for a question: the record's category and evidence, its reference
 * answer (none for adversarial and Cognitive questions: `ground_truth` is "" there), the
 * prediction.
 */
export function locomoPlusJudgePrompt(record: JudgedQuestion, prediction: string): string {
  const category = record.locomo_plus_category ?? 'default';
  const gold = category === 'adversarial' || category === 'Cognitive' ? '' : String(record.answer);
  return buildLocomoPlusJudgePrompt({
    category,
    evidence: record.locomo_plus_evidence ?? '',
    prediction,
    gold,
  });
}

/**
 * `--judge locomo-plus`: one call per question, scored 1, 0.5 or 0 by its label. A reply without
 * a label (the official script scores it 0) is a judge error here, so it shows; the strict score
 * counts it 0, as the official summary does.
 */
export const locomoPlusJudgeRubric: GradedJudgeRubricDefinition = {
  kind: 'graded',
  description: "LoCoMo-Plus's judge (llm_as_judge.py: per-category prompt; correct 1, partial 0.5, wrong 0)",
  items: (record, hypothesis) => [
    {
      name: (record as JudgedQuestion).locomo_plus_category ?? 'default',
      prompt: locomoPlusJudgePrompt(record as JudgedQuestion, hypothesis),
    },
  ],
  parseItem: (reply) => {
    const { label, reason } = parseLocomoPlusJudgeReply(reply);
    const key = pythonStrip(label.toLowerCase());
    if (!Object.hasOwn(LOCOMO_PLUS_LABEL_SCORES, key)) return null;
    return { score: LOCOMO_PLUS_LABEL_SCORES[key]!, ...(reason === '' ? {} : { reason }) };
  },
  maxTokens: LOCOMO_PLUS_JUDGE_MAX_TOKENS,
};
