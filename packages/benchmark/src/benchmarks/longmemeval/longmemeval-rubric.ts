import { pythonFormat, pythonStrip } from '../../dataset/python-compat.js';
import type { JudgeRecord } from '../judge-rubric.js';
import { isAbstention } from '../longmemeval-record.js';
import {
  JUDGE_TEMPLATE_ABSTENTION,
  JUDGE_TEMPLATE_DEFAULT,
  JUDGE_TEMPLATE_KNOWLEDGE_UPDATE,
  JUDGE_TEMPLATE_SINGLE_SESSION_PREFERENCE,
  JUDGE_TEMPLATE_TEMPORAL_REASONING,
} from './official-prompts.js';

/**
 * The official `get_anscheck_prompt(task, question, answer, response, abstention='_abs' in id)`:
 * the abstention template for any `_abs` question, else the question type's rubric. Throws for an
 * unknown question type (the official code raises NotImplementedError).
 */
export function buildJudgePrompt(record: JudgeRecord, hypothesis: string): string {
  const template = isAbstention(record.question_id) ? JUDGE_TEMPLATE_ABSTENTION : templateFor(record);
  return pythonFormat(template, record.question, record.answer, hypothesis);
}

function templateFor(record: JudgeRecord): string {
  switch (record.question_type) {
    case 'single-session-user':
    case 'single-session-assistant':
    case 'multi-session':
      return JUDGE_TEMPLATE_DEFAULT;
    case 'temporal-reasoning':
      return JUDGE_TEMPLATE_TEMPORAL_REASONING;
    case 'knowledge-update':
      return JUDGE_TEMPLATE_KNOWLEDGE_UPDATE;
    case 'single-session-preference':
      return JUDGE_TEMPLATE_SINGLE_SESSION_PREFERENCE;
    default:
      throw new Error(
        `Question ${record.question_id} has question_type "${String(record.question_type)}", which has no official judge rubric.`,
      );
  }
}

/**
 * Reads a judge reply. The official rule is `label = 'yes' in reply.strip().lower()`, so every
 * reply containing "yes" anywhere (even inside "eyes") is correct and everything else is wrong.
 * We keep the first half exactly and split the second:
 *
 * - contains `yes` (substring, case-insensitive) → true. "Yes.", "yes", "YES, it does" → true.
 * - otherwise contains the word `no` (`\bno\b`) → false. "No", "no.", "I think no" → false.
 * - otherwise → null, a judge error ("I cannot tell", "", "Nope", "Not sure"): the official script
 *   would count it wrong; we do not guess.
 *
 * So `true` labels are exactly the official ones, and counting nulls as wrong
 * (`qa.accuracy_strict`) reproduces the official accuracy exactly.
 */
export function parseJudgeReply(reply: string): boolean | null {
  const text = pythonStrip(reply).toLowerCase();
  if (text.includes('yes')) return true;
  if (/\bno\b/.test(text)) return false;
  return null;
}
