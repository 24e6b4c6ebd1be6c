import { pythonFormat } from '../../dataset/python-compat.js';
import type { ReaderChunk, ReaderPromptDefinition } from '../reader-prompt.js';
import type { RealtalkChat, RealtalkRecord, RealtalkTurn } from './realtalk-chat.js';

/*
 * The official REALTALK memory-probing prompts, byte for byte from danny911kr/REALTALK
 * `eval_memory/qa_tool.py` at commit b903e06a9770bf4e5fe9018c3e132889666d3b4a. `invoke` sends one
 * user message, `CONV_START_PROMPT.format(a, b) + get_input_context(conversation) + "\n\n" +
 * QA_PROMPT.format(question)`, with no `max_tokens` and the API's default temperature, and stores
 * the reply unstripped as the prediction.
 */

/** `CONV_START_PROMPT`. */
export const REALTALK_CONV_START_PROMPT =
  'Below is a conversation between two people: {} and {}. The conversation takes place over multiple days and the date of each conversation is written at the beginning of the conversation.\n\n';

/** `QA_PROMPT` (categories 1-3; `QA_PROMPT_CAT_5` is never used). */
export const REALTALK_QA_PROMPT =
  'Based on the above context, write an answer in the form of a short phrase for the following question.\nIf the question is about a date, try to infer the approximate date (e.g., "In the 1800s", "Before Jan 2021", etc.).\n\nQuestion: {}\nAnswer:\n';

/** One turn as `get_input_context` writes it, its line end included. */
function turnText(turn: RealtalkTurn): string {
  const shared = turn.caption === undefined ? '' : `\n${turn.speaker} shared, an image of "${turn.caption}".`;
  return `${turn.speaker} said, "${turn.text}"${shared}\n`;
}

/**
 * `get_input_context` over the given turns of each session (index → turn indices): sessions in
 * haystack order, each prepended to what came before (so the latest comes first) as many times as
 * the official key scan lists it (`RealtalkChat.repeats`: twice in the published chats).
 */
export function realtalkContext(
  chat: RealtalkChat,
  selected: ReadonlyMap<number, readonly number[]>,
): string {
  let context = '';
  for (const sessionIndex of [...selected.keys()].sort((left, right) => left - right)) {
    const turns = chat.turns[sessionIndex]!;
    const block = selected
      .get(sessionIndex)!
      .map((turnIndex) => turnText(turns[turnIndex]!))
      .join('');
    for (let time = 0; time < chat.repeats[sessionIndex]!; time++)
      context = `DATE: ${chat.dates[sessionIndex]}\nCONVERSATION:\n${block}\n${context}`;
  }
  return context;
}

/**
 * The whole official prompt. The speakers are session 1's in order of first appearance; the
 * official code takes them from `list(set(...))`, whose order Python's string hashing changes
 * from run to run, so this is one of the two prompts it builds.
 */
export function realtalkPrompt(
  chat: RealtalkChat,
  selected: ReadonlyMap<number, readonly number[]>,
  question: string,
): string {
  const start = pythonFormat(REALTALK_CONV_START_PROMPT, chat.speakers[0], chat.speakers[1]);
  return `${start}${realtalkContext(chat, selected)}\n\n${pythonFormat(REALTALK_QA_PROMPT, question)}`;
}

/** Every turn of every session: what `invoke` gives the model. */
export function wholeChat(chat: RealtalkChat): Map<number, number[]> {
  return new Map(chat.turns.map((turns, index) => [index, turns.map((_, turnIndex) => turnIndex)]));
}

type BuildRecord = Partial<
  Pick<RealtalkRecord, 'question_id' | 'haystack_session_ids' | 'haystack_sessions'>
> & {
  question: string;
  realtalk_chat?: unknown;
};

/**
 * The turns the reader was handed, as haystack session index → turn indices: a chunk's session by
 * its `sessionId` (the reader passes it), its turns by their content.
 */
function selectedTurns(record: BuildRecord, chunks: readonly (ReaderChunk & { sessionId?: string })[]) {
  const selected = new Map<number, Set<number>>();
  for (const chunk of chunks) {
    const sessionIndex = record.haystack_session_ids?.indexOf(chunk.sessionId ?? '') ?? -1;
    const session = record.haystack_sessions?.[sessionIndex];
    if (!session)
      throw new Error(
        `The realtalk reader prompt got a chunk of session ${JSON.stringify(chunk.sessionId)}, which question ${record.question_id} does not hold.`,
      );
    const turns = selected.get(sessionIndex) ?? new Set<number>();
    // In chunk order, each turn is the next unused one with its text ("This message was deleted." recurs).
    let from = 0;
    for (const turn of chunk.turns) {
      const match = (candidate: { content: string }, index: number) =>
        !turns.has(index) && candidate.content === turn.content;
      let at = session.findIndex((candidate, index) => index >= from && match(candidate, index));
      if (at === -1) at = session.findIndex(match);
      if (at === -1) continue;
      turns.add(at);
      from = at + 1;
    }
    selected.set(sessionIndex, turns);
  }
  return new Map(
    [...selected].map(([index, turns]) => [index, [...turns].sort((left, right) => left - right)]),
  );
}

/**
 * `--reader-prompt realtalk`: the official prompt over the sessions (or turns) the reader was
 * handed; with every session (`--provider full-context`) it is the prompt `invoke` sends. The
 * reply is stored as it came, as the official code stores it.
 */
export const realtalkReaderPromptDefinition: ReaderPromptDefinition = {
  description: 'official REALTALK memory-probing prompt (eval_memory/qa_tool.py: sessions latest first)',
  fill: (): string => {
    throw new Error(
      'The realtalk reader prompt is built from the question record (build), not from a history.',
    );
  },
  build({ record, chunks }) {
    const chat = (record as BuildRecord).realtalk_chat as RealtalkChat | undefined;
    if (chat === undefined)
      throw new Error(
        `--reader-prompt realtalk: question ${String(record.question_id)} is not a REALTALK question (no chat to build the official prompt from).`,
      );
    const text = realtalkPrompt(chat, selectedTurns(record as BuildRecord, chunks), record.question);
    return { text, finish: (reply) => reply };
  },
};
