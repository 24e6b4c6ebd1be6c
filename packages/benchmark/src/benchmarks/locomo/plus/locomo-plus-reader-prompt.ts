import { pythonFormat, pythonStrip } from '../../../dataset/python-compat.js';
import type { LongMemEvalRecord } from '../../longmemeval-record.js';
import { type LocomoChunk, locomoDateText, locomoTurnParts } from '../locomo-prompts.js';
import { LOCOMO_PLUS_COGNITIVE, locomoPlusCategoryOf } from './locomo-plus-categories.js';

/*
 * LoCoMo-Plus's reader input, reproduced from its official code (xjtuleeyf/Locomo-Plus, commit
 * 143cdeb649231612abc3304793bb36a122f94229): `evaluation_framework/task_eval/utils.py`
 * `_build_model_input` sends `CONV_START_PROMPT.format("A", "B")` (the speakers are never passed,
 * so the prompt names them A and B) + the category's instruction + the sample's `input_prompt`,
 * as one user message (`call_llm`: temperature 0.3 from evaluate.sh, max_tokens 1024 from
 * evaluate_qa.py), and stores the reply stripped, `(empty)` when empty. `input_prompt` is
 * `data/unified_input.py`'s: for LoCoMo's categories the sessions as `DATE: …\nCONVERSATION:\n`
 * blocks of `Speaker said, "text"` lines (a shared image as ` and shared <caption>.`), right-
 * stripped, then `\n\nQuestion: <question>`; for Cognitive the stitched dialogue as
 * `Speaker said, "text"` lines (no dates, no captions) ending with the trigger query's turns.
 * lme fills the same layout with the retrieved sessions (all of them reproduce the official
 * full-context input) in time order.
 */

/** `CONV_START_PROMPT` (utils.py; unlike LoCoMo's own, spelled "written" and with a comma). */
export const LOCOMO_PLUS_CONV_START_PROMPT =
  'Below is a conversation between two people: {} and {}. The conversation takes place over multiple days, and the date of each conversation is written at the beginning of the conversation.\n\n';

/** `INSTRUCTION_QA`. */
export const LOCOMO_PLUS_INSTRUCTION_QA =
  'Answer the following question based on the conversation above.\n\n';

/** `INSTRUCTION_COGNITIVE`. */
export const LOCOMO_PLUS_INSTRUCTION_COGNITIVE =
  'Your task: This is a memory-aware dialogue setting. You are continuing or reflecting on a prior conversation. Show that you are aware of the relevant memory or context from the evidence when you respond; your answer should naturally connect to or acknowledge that context.\n\n';

/** `--max-tokens` default of evaluate_qa.py (evaluate.sh passes none). */
export const LOCOMO_PLUS_READER_MAX_TOKENS = 1024;

type ReaderRecord = Pick<LongMemEvalRecord, 'question' | 'question_type'> & {
  locomo_plus_trigger?: string;
};

/** The official model input for a question over the given sessions (see above). */
export function buildLocomoPlusReaderPrompt(record: ReaderRecord, chunks: readonly LocomoChunk[]): string {
  const ordered = [...chunks].sort((left, right) =>
    left.date < right.date ? -1 : left.date > right.date ? 1 : 0,
  );
  const cognitive = locomoPlusCategoryOf(record.question_type) === LOCOMO_PLUS_COGNITIVE;
  const start = pythonFormat(LOCOMO_PLUS_CONV_START_PROMPT, 'A', 'B');
  if (cognitive) {
    const lines = ordered.flatMap((chunk) => chunk.turns.map((turn) => dialogueLine(turn)));
    for (const line of record.question.split('\n')) lines.push(dialogueLine({ content: line }));
    return start + LOCOMO_PLUS_INSTRUCTION_COGNITIVE + pythonStrip(lines.join('\n'));
  }
  let context = '';
  for (const chunk of ordered) {
    context += `DATE: ${locomoDateText(chunk.date)}\nCONVERSATION:\n`;
    for (const turn of chunk.turns) {
      const { speaker, text, caption } = locomoTurnParts(turn);
      const said = `${speaker} said, "${pythonStrip(text)}"`;
      context += caption === undefined ? `${said}\n` : `${said} and shared ${caption}.\n`;
    }
    context += '\n';
  }
  const input = `${context.replace(/\s+$/, '')}\n\nQuestion: ${record.question}`;
  return start + LOCOMO_PLUS_INSTRUCTION_QA + pythonStrip(input);
}

/** `Speaker said, "text"` of the stitched dialogue (captions are not written there). */
function dialogueLine(turn: { content: string }): string {
  const { speaker, text } = locomoTurnParts(turn);
  return `${speaker} said, "${pythonStrip(text)}"`;
}

/** The stored prediction: the reply stripped, `(empty)` when nothing is left (`call_llm`). */
export function locomoPlusPrediction(reply: string): string {
  const text = pythonStrip(reply);
  return text === '' ? '(empty)' : text;
}

/** `--reader-prompt locomo-plus`. */
export const locomoPlusReaderPromptDefinition = {
  description:
    'official LoCoMo-Plus model input (task_eval/utils.py _build_model_input, unified_input.py layout)',
  maxTokens: LOCOMO_PLUS_READER_MAX_TOKENS,
  fill: (): string => {
    throw new Error(
      'The locomo-plus reader prompt is built from the question record (build), not from a history.',
    );
  },
  build({ record, chunks }: { record: ReaderRecord; chunks: readonly LocomoChunk[] }) {
    return { text: buildLocomoPlusReaderPrompt(record, chunks), finish: locomoPlusPrediction };
  },
};
