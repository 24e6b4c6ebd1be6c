import type { ChatClient, ChatUsage } from '@lme/search-core';
import { sharedQaSettings } from '../benchmarks/benchmark-registry.js';
import type { Turn } from '../benchmarks/longmemeval-record.js';
import {
  type PythonJsonValue,
  pythonFormat,
  pythonJsonDumps,
  pythonStrip,
} from '../dataset/python-compat.js';

/** One history chunk (a session, or a round for turn context) as the reader's history holds it. */
export type ReaderChunk = { date: string; turns: readonly Turn[] };

export type ExtractNotesOptions = {
  client: ChatClient;
  model: string;
  chunks: readonly ReaderChunk[];
  question: string;
  questionDate: string;
  /** Note calls in flight at once (the official script makes them one after another). Default 4. */
  concurrency?: number;
  signal?: AbortSignal;
};

export type ExtractNotesResult = {
  /** One stripped note per chunk, in the chunks' order. */
  notes: string[];
  usage: ChatUsage;
  /** Every note came from the cache (or a shared in-flight call). */
  cached: boolean;
  calls: number;
};

/**
 * The Chain-of-Note note prompt of one chunk, as prepare_prompt builds it with `con=True`:
 * `con_prompt.format(chunk_date, json.dumps(chunk_entry), question_date, question)`, the chunk's
 * turns without `has_answer` (and without assistant turns under `--useronly true`).
 */
export function buildNotePrompt(chunk: ReaderChunk, questionDate: string, question: string): string {
  return pythonFormat(
    sharedQaSettings().noteTemplate,
    chunk.date,
    pythonJsonDumps(chunk.turns.map(turnAsDumped)),
    questionDate,
    question,
  );
}

/**
 * Chain-of-Note step 1 (official `--con true`): one call per chunk with the note prompt, one user
 * message, `n: 1`, `temperature: 0`, `max_tokens: 500`, the reply stripped. The notes then replace
 * the chunks' turns in the history (`{"session_summary": note}`).
 */
export async function extractNotes(options: ExtractNotesOptions): Promise<ExtractNotesResult> {
  const { client, model, chunks, signal } = options;
  const notes: string[] = new Array(chunks.length);
  const usage: ChatUsage = { promptTokens: 0, completionTokens: 0 };
  let cached = true;
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      const index = next++;
      const result = await client.complete({
        model,
        messages: [
          { role: 'user', content: buildNotePrompt(chunks[index]!, options.questionDate, options.question) },
        ],
        temperature: 0,
        maxTokens: sharedQaSettings().noteMaxTokens,
        n: 1,
        ...(signal ? { signal } : {}),
      });
      notes[index] = pythonStrip(result.text);
      usage.promptTokens += result.usage.promptTokens;
      usage.completionTokens += result.usage.completionTokens;
      cached &&= result.cached;
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency ?? 4, chunks.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return { notes, usage, cached, calls: chunks.length };
}

/** The turn as the official code dumps it: role, content, then any other keys but `has_answer`. */
export function turnAsDumped(turn: Turn): PythonJsonValue {
  const { role, content, has_answer: _hasAnswer, ...rest } = turn as Turn & Record<string, PythonJsonValue>;
  return { role, content, ...rest };
}
