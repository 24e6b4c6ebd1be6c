import { pyFloat, pyInt } from '../python-number.js';
import type { PythonNumber } from './locomo-summary.js';

/**
 * The official `recall_acc` of one QA (snap-research/locomo `task_eval/evaluation.py`,
 * `eval_question_answering`), unrounded:
 * - int 1 when there is no context or the evidence list is empty;
 * - when the FIRST context element starts with `S`, session mode: every context element loses its
 *   first character, and an evidence id counts when `ev.split(':')[0][1:]` is among them
 *   (`D8:6; D9:17` → `8`);
 * - otherwise dialog mode: an evidence id counts when the identical string is in the context
 *   (`D19:02` ≠ `D19:2`; malformed evidence never matches);
 * - hits / len(evidence): a repeated evidence id counts twice, repeated context entries add nothing.
 * An empty context with evidence throws, as the official code does (IndexError).
 */
export function locomoRecallAcc(
  evidence: readonly string[],
  context: readonly string[] | undefined,
): PythonNumber {
  if (context === undefined || evidence.length === 0) return pyInt(1);
  if (context.length === 0) {
    throw new Error(
      'LoCoMo recall_acc: the context is empty but the QA has evidence (the official code raises IndexError).',
    );
  }
  let hits = 0;
  if (context[0]!.startsWith('S')) {
    const sessions = new Set(context.map((id) => [...id].slice(1).join('')));
    for (const id of evidence) if (sessions.has([...id.split(':')[0]!].slice(1).join(''))) hits += 1;
  } else {
    const dialogs = new Set(context);
    for (const id of evidence) if (dialogs.has(id)) hits += 1;
  }
  return pyFloat(hits / evidence.length);
}
