import type { LongMemEvalRecord, Turn } from './longmemeval-record.js';

/** What a reader prompt is filled with. */
export type ReaderPromptParts = {
  /** The rendered (and possibly truncated) history. */
  history: string;
  questionDate: string;
  question: string;
};

/** A retrieved chunk as a prompt builder reads it: a session's date and the turns kept of it. */
export type ReaderChunk = { date: string; turns: readonly Pick<Turn, 'content'>[] };

/** What a builder style makes its prompt from (the reader passes the whole record at run time). */
export type ReaderBuildOptions = {
  record: Pick<LongMemEvalRecord, 'question'> & Partial<LongMemEvalRecord> & Record<string, unknown>;
  chunks: readonly ReaderChunk[];
};

/** One reader prompt style: how the final prompt is filled. */
export type ReaderPromptDefinition = {
  /** One line for `--help` and errors. */
  description: string;
  /** `max_tokens` when `--reader-max-tokens` is not given; default 800, what the official script sends. */
  maxTokens?: number;
  fill(parts: ReaderPromptParts): string;
  /**
   * A style that builds the whole prompt from the question record and the retrieved chunks (not
   * from the rendered history), and turns the reply into the stored answer (LoCoMo's).
   */
  build?(options: ReaderBuildOptions): { text: string; finish(reply: string): string };
};
