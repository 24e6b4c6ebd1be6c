import { createHash } from 'node:crypto';
import { pythonFormat, pythonStrip } from '../../dataset/python-compat.js';
import type { LongMemEvalRecord, Turn } from '../longmemeval-record.js';
import { locomoCategory } from './locomo-record.js';

/*
 * The official LoCoMo QA prompts, byte for byte from snap-research/locomo `task_eval/gpt_utils.py`
 * at commit 3eb6f2c585f5e1699204e3c3bdf7adc5c28cb376 (git blob 64d65dfb…), the commit the
 * scoring reference was made at. RAG runs (`--use-rag`, batch size 1) send
 * `query_conv + '\n\n' + QA_PROMPT.format(question)` (QA_PROMPT_CAT_5 for category 5) with
 * `max_tokens` 32 and temperature 0, and store `answer.strip()`.
 */

/** `QA_PROMPT`. */
export const LOCOMO_QA_PROMPT =
  '\nBased on the above context, write an answer in the form of a short phrase for the following question. Answer with exact words from the context whenever possible.\n\nQuestion: {} Short answer:\n';

/** `QA_PROMPT_CAT_5`. */
export const LOCOMO_QA_PROMPT_CAT_5 =
  '\nBased on the above context, answer the following question.\n\nQuestion: {} Short answer:\n';

/** `CONV_START_PROMPT` (the full-conversation run; "wriiten" is the official spelling). */
export const LOCOMO_CONV_START_PROMPT =
  'Below is a conversation between two people: {} and {}. The conversation takes place over multiple days and the date of each conversation is wriiten at the beginning of the conversation.\n\n';

/** Appended to category-2 (temporal) questions. */
export const LOCOMO_TEMPORAL_SUFFIX = ' Use DATE of CONVERSATION to answer with an approximate date.';

/** Appended to category-5 (adversarial) questions, formatted with the two options. */
export const LOCOMO_ADVERSARIAL_OPTIONS = ' Select the correct answer: (a) {} (b) {}. ';

export const LOCOMO_NOT_MENTIONED = 'Not mentioned in the conversation';

/** `num_tokens_request=32` of the official RAG answer call. */
export const LOCOMO_READER_MAX_TOKENS = 32;

type QuestionRecord = Pick<LongMemEvalRecord, 'question_id' | 'question_type' | 'question' | 'answer'> & {
  /** The adversarial answer verbatim, when the loader keeps it. */
  locomo_adversarial_answer?: string;
};

/** Option letter → answer text of a category-5 question (`answer_key` of get_cat_5_answer). */
export type LocomoAnswerKey = { a: string; b: string };

export type LocomoQuestion = { text: string; answerKey?: LocomoAnswerKey };

/**
 * The question as the official code words it: category 2 gets the date hint; category 5 gets the
 * two options `Not mentioned in the conversation` and the adversarial answer, in an order the
 * official code draws with `random.random() < 0.5` (unseeded); lme draws it from the question id
 * (first byte of its SHA-256 below 128: "Not mentioned" first) so runs repeat.
 */
export function locomoQuestion(record: QuestionRecord): LocomoQuestion {
  const category = locomoCategory(record);
  if (category === 2) return { text: record.question + LOCOMO_TEMPORAL_SUFFIX };
  if (category !== 5) return { text: record.question };
  const wrong = adversarialAnswer(record);
  const notMentionedFirst = createHash('sha256').update(record.question_id).digest()[0]! < 128;
  const answerKey = notMentionedFirst
    ? { a: LOCOMO_NOT_MENTIONED, b: wrong }
    : { a: wrong, b: LOCOMO_NOT_MENTIONED };
  return {
    text: record.question + pythonFormat(LOCOMO_ADVERSARIAL_OPTIONS, answerKey.a, answerKey.b),
    answerKey,
  };
}

/** The adversarial answer of a category-5 record (the loader folds it into `answer`). */
function adversarialAnswer(record: QuestionRecord): string {
  if (typeof record.locomo_adversarial_answer === 'string') return record.locomo_adversarial_answer;
  const answer = String(record.answer);
  const folded = /\(a tempting wrong answer: ([\s\S]*)\)\.$/.exec(answer);
  return folded ? folded[1]! : answer;
}

/** The official `get_cat_5_answer`: a one-letter or `(x)` reply becomes that option's text. */
export function locomoAdversarialReply(reply: string, answerKey: LocomoAnswerKey): string {
  const lowered = pythonStrip(reply).toLowerCase();
  const length = [...lowered].length;
  if (length === 1) return lowered.includes('a') ? answerKey.a : answerKey.b;
  if (length === 3) return lowered.includes('(a)') ? answerKey.a : answerKey.b;
  return lowered;
}

/** The stored prediction: `get_cat_5_answer` for category 5, then `.strip()`. */
export function locomoPrediction(reply: string, question: LocomoQuestion): string {
  return pythonStrip(question.answerKey ? locomoAdversarialReply(reply, question.answerKey) : reply);
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** `2023/05/08 (Mon) 13:56` (lme's form of a LoCoMo date) → `1:56 pm on 8 May, 2023` (LoCoMo's). */
export function locomoDateText(date: string): string {
  const match = /^(\d{4})\/(\d{2})\/(\d{2}) \([A-Za-z]{3}\) (\d{2}):(\d{2})$/.exec(date);
  if (!match) return date;
  const [, year, month, day, hour, minute] = match;
  const hours = Number(hour);
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${hour12}:${minute} ${hours < 12 ? 'am' : 'pm'} on ${Number(day)} ${MONTHS[Number(month) - 1]}, ${year}`;
}

/** A LoCoMo turn as lme holds it (`<speaker>: <text>[ [shares <caption>]]`) split back. */
export function locomoTurnParts(turn: Pick<Turn, 'content'>): {
  speaker: string;
  text: string;
  caption?: string;
} {
  const colon = turn.content.indexOf(': ');
  const speaker = colon === -1 ? '' : turn.content.slice(0, colon);
  const rest = colon === -1 ? turn.content : turn.content.slice(colon + 2);
  const shared = /^([\s\S]*) \[shares ([\s\S]*)\]$/.exec(rest);
  return shared ? { speaker, text: shared[1]!, caption: shared[2]! } : { speaker, text: rest };
}

/** One dialog of the official RAG database: `<speaker> said, "<text>"[ and shared <caption>]`. */
export function locomoDialogText(turn: Pick<Turn, 'content'>): string {
  const { speaker, text, caption } = locomoTurnParts(turn);
  return `${speaker} said, "${text}"${caption === undefined ? '' : ` and shared ${caption}`}`;
}

/**
 * How other scripts write a LoCoMo turn into their index, by `--turn-form` name: `said` is MemPalace's
 * `benchmarks/locomo_bench.py` at 9b7cfc99 (`build_corpus_from_sessions`: `f'{speaker} said,
 * "{text}"'`, the shared image's caption left out); `said-shared` is the official RAG database's
 * dialog (`locomoDialogText`).
 */
export const LOCOMO_TURN_FORMS = {
  said: {
    description: 'MemPalace locomo_bench: <speaker> said, "<text>" (no image caption)',
    write: (content: string) => {
      const { speaker, text } = locomoTurnParts({ content });
      return `${speaker} said, "${text}"`;
    },
  },
  'said-shared': {
    description: 'the official RAG database: <speaker> said, "<text>" and shared <caption>',
    write: (content: string) => locomoDialogText({ content }),
  },
} as const;

/** A retrieved chunk: a dialog (with the turn after it, from a turn-level context) or a session. */
export type LocomoChunk = { date: string; turns: readonly Pick<Turn, 'content'>[] };

/**
 * The official dialog-RAG context (`get_rag_context`, rag_mode `dialog`): one line per retrieved
 * dialog, `<session date>: <dialog>`, in rank order, joined by `\n`. A turn-level chunk holds the
 * retrieved turn first; only that turn is listed, as the official database holds single dialogs.
 */
export function locomoDialogContext(chunks: readonly LocomoChunk[]): string {
  return chunks
    .filter((chunk) => chunk.turns.length > 0)
    .map((chunk) => `${locomoDateText(chunk.date)}: ${locomoDialogText(chunk.turns[0]!)}`)
    .join('\n');
}

/**
 * The official full-conversation context (`CONV_START_PROMPT` + `get_input_context` without
 * truncation) over whole sessions given in chronological order. The official loop prepends each
 * later session, so the latest session comes first; a shared image is written on its own line
 * (`\n and shared <caption>.`). The two speakers come from `list(set(...))` of session 1, whose
 * order Python does not fix; lme names them in order of first appearance.
 */
export function locomoConversationContext(sessions: readonly LocomoChunk[]): string {
  const speakers: string[] = [];
  for (const turn of sessions[0]?.turns ?? []) {
    const { speaker } = locomoTurnParts(turn);
    if (!speakers.includes(speaker)) speakers.push(speaker);
  }
  let conversation = '';
  for (const session of sessions) {
    conversation += '\n\n';
    let block = '';
    for (const turn of session.turns) {
      const { speaker, text, caption } = locomoTurnParts(turn);
      block += `${speaker} said, "${text}"\n${caption === undefined ? '' : ` and shared ${caption}.`}\n`;
    }
    conversation = `DATE: ${locomoDateText(session.date)}\nCONVERSATION:\n${block}${conversation}`;
  }
  return pythonFormat(LOCOMO_CONV_START_PROMPT, speakers[0] ?? '', speakers[1] ?? '') + conversation;
}

/**
 * The whole official QA prompt for one question: the context (dialog lines when every chunk is
 * a retrieved turn, with at most the turn after it; else the full-conversation layout of the
 * sessions sorted by date), then `\n\n`, then QA_PROMPT (QA_PROMPT_CAT_5 for category 5).
 */
export function buildLocomoReaderPrompt(options: {
  record: QuestionRecord;
  chunks: readonly LocomoChunk[];
}): { text: string; question: LocomoQuestion } {
  const question = locomoQuestion(options.record);
  const dialogs = options.chunks.every((chunk) => chunk.turns.length <= 2);
  const context = dialogs
    ? locomoDialogContext(options.chunks)
    : locomoConversationContext([...options.chunks].sort((left, right) => compare(left.date, right.date)));
  const template = question.answerKey ? LOCOMO_QA_PROMPT_CAT_5 : LOCOMO_QA_PROMPT;
  return { text: `${context}\n\n${pythonFormat(template, question.text)}`, question };
}

function compare(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/** What the `locomo` reader prompt is built from (the reader passes the whole record at run time). */
export type LocomoReaderBuildOptions = {
  record: Pick<LongMemEvalRecord, 'question'> & Partial<QuestionRecord>;
  chunks: readonly LocomoChunk[];
};

/**
 * `--reader-prompt locomo`: the whole prompt comes from the record and the retrieved chunks
 * (not from lme's `### Session` history), `max_tokens` 32, and the reply becomes the prediction
 * the official code stores (get_cat_5_answer for category 5, then strip).
 */
export const locomoReaderPromptDefinition = {
  description: 'official LoCoMo QA prompt (task_eval/gpt_utils.py: dialog RAG or full conversation)',
  maxTokens: LOCOMO_READER_MAX_TOKENS,
  fill: (): string => {
    throw new Error(
      'The locomo reader prompt is built from the question record (build), not from a history.',
    );
  },
  build({ record, chunks }: LocomoReaderBuildOptions): { text: string; finish(reply: string): string } {
    const full: QuestionRecord = {
      question_id: record.question_id ?? '',
      question_type: record.question_type ?? '',
      question: record.question,
      answer: record.answer ?? '',
      ...(record.locomo_adversarial_answer === undefined
        ? {}
        : { locomo_adversarial_answer: record.locomo_adversarial_answer }),
    };
    const built = buildLocomoReaderPrompt({ record: full, chunks });
    return { text: built.text, finish: (reply) => locomoPrediction(reply, built.question) };
  },
};
