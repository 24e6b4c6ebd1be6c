import type { ChatClient, ChatUsage } from '@lme/search-core';
import { sharedQaSettings } from '../benchmarks/benchmark-registry.js';
import type { LongMemEvalRecord, Turn } from '../benchmarks/longmemeval-record.js';
import { pythonFormat, pythonJsonDumps, pythonStrip } from '../dataset/python-compat.js';
import { truncateToTokens } from '../metrics/truncate-tokens.js';
import { extractNotes, turnAsDumped } from './reader-notes.js';
import { type ReaderPromptStyle, readerPromptDefinition } from './reader-prompts.js';

export type { ReaderPromptStyle } from './reader-prompts.js';

/**
 * One history chunk handed to the reader: a session (official `*-session` retrievers) or, for a
 * turn-level context, one retrieved turn with the turn after it (official `flat-turn`).
 */
export type ReaderSession = {
  sessionId: string;
  /** The haystack date, e.g. `2023/05/20 (Sat) 02:21`; chunks are sorted by this string. */
  date: string;
  turns: readonly Turn[];
};

/** `json` (recommended by the official README) or `nl`. */
export type HistoryFormat = 'json' | 'nl';

export type ReaderOptions = {
  client: ChatClient;
  model: string;
  /** A name in `readerPrompts` (`direct`, `cot`, ...). */
  prompt: ReaderPromptStyle | (string & {});
  historyFormat: HistoryFormat;
  /**
   * The model's context length in tokens (official `model2maxlength`). The history is cut to
   * `maxContextTokens - maxTokens - 1000` tokens. Default: the official table's value for the
   * model, else 128000.
   */
  maxContextTokens?: number;
  /**
   * Answer tokens sent as `max_tokens` (official `gen_length`, `--gen_length`). Default 800 for
   * every style, as the official script sends (see OFFICIAL_READER_MAX_TOKENS).
   */
  maxTokens?: number;
  /** Official `--useronly true` (`--reader-history user`): drop assistant turns. Default false. */
  userOnly?: boolean;
  /**
   * Official `--con true` (`--reader-notes`, Chain-of-Note): a note is first extracted from each
   * chunk, and the answer is read over the notes. Needs the json history format (the official
   * script fails on nl).
   */
  notes?: boolean;
  /** Note calls in flight at once per question. Default 4. */
  noteConcurrency?: number;
};

export type ReaderAnswerOptions = {
  record: Pick<LongMemEvalRecord, 'question' | 'question_date'>;
  /** In any order (rank order from a retriever is fine): they are sorted by date. */
  sessions: readonly ReaderSession[];
  signal?: AbortSignal;
};

export type ReaderAnswerResult = {
  /** The reply with surrounding whitespace stripped, as the official script stores it. */
  hypothesis: string;
  /** The answer call plus any note calls. */
  usage: ChatUsage;
  /** Every call of the question was served without an API call. */
  cached: boolean;
  latencyMs: number;
  /** The history was cut to the token budget (its latest part is lost). */
  truncated: boolean;
  /** o200k_base tokens of the history before truncation. */
  historyTokens: number;
  /** Chain-of-Note calls made before the answer (0 without notes). */
  noteCalls: number;
};

export type Reader = {
  /** e.g. `reader:gpt-4o-2024-08-06:cot:json`. */
  readonly id: string;
  readonly model: string;
  answer(options: ReaderAnswerOptions): Promise<ReaderAnswerResult>;
};

export type BuildReaderPromptOptions = {
  question: string;
  questionDate: string;
  sessions: readonly ReaderSession[];
  prompt: ReaderPromptStyle | (string & {});
  historyFormat: HistoryFormat;
  userOnly?: boolean;
  /** Chain-of-Note: one note per entry of `sessions` (same order) replacing its turns. */
  notes?: readonly string[];
  /** Token budget of the history part (official `max_retrieval_length`). */
  maxHistoryTokens: number;
};

export type ReaderPrompt = {
  text: string;
  truncated: boolean;
  historyTokens: number;
};

const DEFAULT_CONTEXT_TOKENS = 128_000;

/** The chunk's turns as the history holds them: assistant turns dropped under `userOnly`. */
export function readerTurns(session: ReaderSession, userOnly: boolean): readonly Turn[] {
  return userOnly ? session.turns.filter((turn) => turn.role === 'user') : session.turns;
}

/**
 * The reader prompt exactly as run_generation.py `prepare_prompt` builds it (`orig-session`,
 * `oracle-session`, `flat-session`, `flat-turn`): `has_answer` removed, chunks stably sorted by
 * their date strings, each written as `### Session i` with its date and its content (json: Python
 * `json.dumps` of the turn list, or of `{"session_summary": note}` with Chain-of-Note; nl:
 * `\n\nrole: content`), the history cut to `maxHistoryTokens` o200k_base tokens (keeping the
 * start), then the style's template filled with the history, the question date and the question.
 */
export function buildReaderPrompt(options: BuildReaderPromptOptions): ReaderPrompt {
  const definition = readerPromptDefinition(options.prompt);
  const { notes } = options;
  if (notes && notes.length !== options.sessions.length) {
    throw new Error(`Reader notes: ${notes.length} notes for ${options.sessions.length} history chunks.`);
  }
  if (notes && options.historyFormat !== 'json') throw new Error(NOTES_NEED_JSON);
  const chunks = options.sessions.map((session, index) => ({
    date: session.date,
    content:
      notes !== undefined
        ? sharedQaSettings().historyJsonPrefix + pythonJsonDumps({ session_summary: notes[index]! })
        : renderTurns(readerTurns(session, options.userOnly ?? false), options.historyFormat),
  }));
  // Python's list.sort is stable; dates are ASCII, so code-unit order equals Python's code-point order.
  const sorted = chunks
    .map((chunk, index) => ({ chunk, index }))
    .sort((a, b) => compareStrings(a.chunk.date, b.chunk.date) || a.index - b.index)
    .map(({ chunk }) => chunk);

  let history = '';
  sorted.forEach((chunk, index) => {
    history += pythonFormat(sharedQaSettings().historySessionTemplate, index + 1, chunk.date, chunk.content);
  });

  const cut = truncateToTokens(history, options.maxHistoryTokens);
  return {
    text: definition.fill({
      history: cut.text,
      questionDate: options.questionDate,
      question: options.question,
    }),
    truncated: cut.truncated,
    historyTokens: cut.tokens,
  };
}

function renderTurns(turns: readonly Turn[], historyFormat: HistoryFormat): string {
  return historyFormat === 'json'
    ? sharedQaSettings().historyJsonPrefix + pythonJsonDumps(turns.map(turnAsDumped))
    : turns
        .map((turn) =>
          pythonFormat(sharedQaSettings().historyNlTurnTemplate, turn.role, pythonStrip(turn.content)),
        )
        .join('');
}

const NOTES_NEED_JSON =
  'Chain-of-Note (--reader-notes) needs --history-format json: the official run_generation.py fails on nl (it reads each note as a turn).';

/**
 * A reader with the official generation settings: one user message, `temperature: 0`, `n: 1`,
 * `max_tokens` 800 for every style (what run_generation.py sends; see OFFICIAL_READER_MAX_TOKENS),
 * the reply stripped. With `notes`, Chain-of-Note calls (`max_tokens: 500`) come first.
 */
export function createReader(options: ReaderOptions): Reader {
  const { client, model, prompt, historyFormat } = options;
  const definition = readerPromptDefinition(prompt);
  if (options.notes && historyFormat !== 'json') throw new Error(NOTES_NEED_JSON);
  const maxTokens = options.maxTokens ?? definition.maxTokens ?? sharedQaSettings().readerMaxTokens;
  const contextTokens = options.maxContextTokens ?? officialContextLength(model);
  const reserved = sharedQaSettings().promptReserveTokens;
  const maxHistoryTokens = contextTokens - maxTokens - reserved;
  if (maxHistoryTokens <= 0) {
    throw new Error(
      `Reader model "${model}": maxContextTokens ${contextTokens} leaves no room for the history after ${maxTokens} answer tokens and ${reserved} reserved.`,
    );
  }
  const userOnly = options.userOnly ?? false;
  const suffix = `${userOnly ? ':user-only' : ''}${options.notes ? ':notes' : ''}`;
  return {
    id: `reader:${model}:${prompt}:${historyFormat}${suffix}`,
    model,
    async answer({ record, sessions, signal }) {
      const started = performance.now();
      const noted = options.notes
        ? await extractNotes({
            client,
            model,
            chunks: sessions.map((session) => ({
              date: session.date,
              turns: readerTurns(session, userOnly),
            })),
            question: record.question,
            questionDate: record.question_date,
            ...(options.noteConcurrency === undefined ? {} : { concurrency: options.noteConcurrency }),
            ...(signal ? { signal } : {}),
          })
        : undefined;
      // A style with its own builder (`locomo`) makes the whole prompt from the record and chunks.
      const own = definition.build?.({ record, chunks: sessions });
      const built = own
        ? { text: own.text, truncated: false, historyTokens: 0 }
        : buildReaderPrompt({
            question: record.question,
            questionDate: record.question_date,
            sessions,
            prompt,
            historyFormat,
            userOnly,
            ...(noted ? { notes: noted.notes } : {}),
            maxHistoryTokens,
          });
      const result = await client.complete({
        model,
        messages: [{ role: 'user', content: built.text }],
        temperature: 0,
        maxTokens,
        n: 1,
        ...(signal ? { signal } : {}),
      });
      return {
        hypothesis: own ? own.finish(result.text) : pythonStrip(result.text),
        usage: {
          promptTokens: result.usage.promptTokens + (noted?.usage.promptTokens ?? 0),
          completionTokens: result.usage.completionTokens + (noted?.usage.completionTokens ?? 0),
        },
        cached: result.cached && (noted?.cached ?? true),
        latencyMs: noted ? performance.now() - started : result.latencyMs,
        truncated: built.truncated,
        historyTokens: built.historyTokens,
        noteCalls: noted?.calls ?? 0,
      };
    },
  };
}

/** Official `model2maxlength` value, else 128000 (the official table has no other models). */
export function officialContextLength(model: string): number {
  const lengths = sharedQaSettings().modelMaxLength;
  return Object.hasOwn(lengths, model) ? (lengths[model] ?? DEFAULT_CONTEXT_TOKENS) : DEFAULT_CONTEXT_TOKENS;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
