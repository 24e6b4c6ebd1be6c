import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { makeDirectorySync } from '../core/make-directory.js';
import type { SessionInput, SessionSummary, Summarizer } from '../core/summarizer.js';
import type { ChatClient, ChatUsage } from '../llm/chat-client.js';

export type LlmSummarizerOptions = {
  /** A chat client without a completion cache: this summarizer caches parsed summaries itself. */
  client: ChatClient;
  model: string;
  /** Used for a session whose reply fails or cannot be parsed. */
  fallback: Summarizer;
  /** Parsed summaries are stored here, one file per model and prompt; absent: no cache. */
  cacheDir?: string;
  /** Told about every session that fell back, with the reason. */
  onFailure?: (sessionId: string, reason: string) => void;
};

const MAX_SESSION_CHARS = 12_000;

/** The summary prompt; its text is part of the cache key, so editing it re-summarizes. */
export function summaryPrompt(session: SessionInput): string {
  const transcript = session.turns
    .map((turn) => `${turn.role}: ${turn.content}`)
    .join('\n')
    .slice(0, MAX_SESSION_CHARS);
  return (
    'Summarize this chat session between a user and an assistant for a memory index. ' +
    'Focus on facts about the user (events, possessions, preferences, plans, numbers, dates). ' +
    'Reply with JSON only: {"summary": "<2-4 sentences>", "topics": ["<up to 6 short topics>"], ' +
    '"entities": ["<people, places, organisations, products named>"]}.\n\n' +
    `Session date: ${session.date}\n\n${transcript}`
  );
}

/**
 * Summaries written by a chat model, one request per session, temperature 0. Parsed summaries
 * are cached on disk by model + prompt; a failed request or an unparseable reply falls back to
 * the extractive summary for that session (source `extractive (llm failed: …)`), is reported,
 * and is not cached, so the next run asks again. A run never stops on one bad reply.
 */
export function createLlmSummarizer(options: LlmSummarizerOptions): Summarizer & { usage(): ChatUsage } {
  const { client, model, fallback } = options;
  const usage: ChatUsage = { promptTokens: 0, completionTokens: 0 };
  const cacheFile = (prompt: string) => {
    const key = createHash('sha256').update(`${model}\0${prompt}`).digest('hex');
    return join(options.cacheDir!, 'summaries', key.slice(0, 2), `${key}.json`);
  };

  async function summarizeOne(
    session: SessionInput,
    signal?: AbortSignal,
  ): Promise<Omit<SessionSummary, 'start' | 'end' | 'turnCount' | 'userTurnCount' | 'sessionId'>> {
    const prompt = summaryPrompt(session);
    if (options.cacheDir) {
      try {
        return JSON.parse(readFileSync(cacheFile(prompt), 'utf8'));
      } catch {
        // not cached yet
      }
    }
    const reply = await client.complete({
      model,
      messages: [{ role: 'user', content: prompt }],
      temperature: 0,
      maxTokens: 400,
      signal,
    });
    usage.promptTokens += reply.usage.promptTokens;
    usage.completionTokens += reply.usage.completionTokens;
    const parsed = parseSummaryReply(reply.text);
    const summary = {
      text: parsed.summary,
      topics: parsed.topics,
      entities: parsed.entities,
      source: `llm:${model}`,
    };
    if (options.cacheDir) {
      const path = cacheFile(prompt);
      makeDirectorySync(join(path, '..'));
      writeFileAtomic.sync(path, JSON.stringify(summary));
    }
    return summary;
  }

  return {
    id: `llm:${model}`,
    usage: () => ({ ...usage }),
    async summarize({ sessions, signal }) {
      const extractive = await fallback.summarize({ sessions, signal });
      const results: SessionSummary[] = [];
      for (const [index, session] of sessions.entries()) {
        const base = extractive[index]!;
        try {
          results.push({ ...base, ...(await summarizeOne(session, signal)) });
        } catch (error) {
          if (signal?.aborted) throw error;
          const reason = (error as Error).message;
          options.onFailure?.(session.sessionId, reason);
          results.push({ ...base, source: `extractive (llm failed: ${reason})` });
        }
      }
      return results;
    },
  };
}

/** Reads `{"summary", "topics", "entities"}` from a reply, tolerating a fenced code block. */
export function parseSummaryReply(reply: string): { summary: string; topics: string[]; entities: string[] } {
  const json = reply.replace(/^\s*```(?:json)?\s*/i, '').replace(/\s*```\s*$/, '');
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new Error(`the reply is not JSON: ${JSON.stringify(reply.slice(0, 80))}`);
  }
  const object = value as { summary?: unknown; topics?: unknown; entities?: unknown };
  const strings = (list: unknown) =>
    Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
  if (typeof object.summary !== 'string' || object.summary.trim() === '') {
    throw new Error('the reply has no "summary" string');
  }
  return {
    summary: object.summary.trim(),
    topics: strings(object.topics),
    entities: strings(object.entities),
  };
}
