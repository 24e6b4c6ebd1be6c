import pLimit from 'p-limit';
import type { MemoryDocument } from '../core/retriever.js';
import type { SessionSummary } from '../core/summarizer.js';

/** What one indexed chunk is: a turn, a round (a user turn and the assistant reply), a session. */
export type ChunkUnit = 'turn' | 'round' | 'session';

export type ContextualizeRequest = {
  /** The chunk, with its original text. */
  chunk: MemoryDocument;
  /** The summary of its session, when one was made. */
  summary?: SessionSummary;
  /** Every document of its session in turn order (the conversation around the chunk). */
  sessionDocuments: readonly MemoryDocument[];
  signal?: AbortSignal;
};

/** Writes the context line(s) put in front of a chunk before it is indexed. */
export type ChunkContextualizer = {
  readonly id: string;
  contextualize(request: ContextualizeRequest): Promise<string>;
};

export type ChunkStatus = {
  id: string;
  /** `ok`: indexed with its context; `failed`: indexed without context (see `error`). */
  status: 'ok' | 'failed';
  error?: string;
};

export type ContextualizeChunksOptions = {
  /** Turn documents of one haystack (any roles, with `turnIndex`), or session documents. */
  documents: readonly MemoryDocument[];
  /** Session summaries by session id (e.g. from the extractive summarizer). */
  summaries?: readonly SessionSummary[];
  unit: ChunkUnit;
  /** Default: the offline template. */
  contextualizer?: ChunkContextualizer;
  /** Chunks contextualized at once. Default 4. */
  concurrency?: number;
  signal?: AbortSignal;
};

export type ContextualizeChunksResult = {
  /** The chunks with `text` = context + "\n" + original text (original alone when it failed). */
  documents: MemoryDocument[];
  /** The original text of each chunk (what the reader should see), in the same order. */
  originals: string[];
  /** Ids of the input documents each chunk is made of, in the same order. */
  members: string[][];
  statuses: ChunkStatus[];
};

const SPEAKERS = { user: 'user', assistant: 'assistant', mixed: 'user & assistant' } as const;

/**
 * The offline contextualizer: `[<speaker> · session <day> · topics: <topics>]`, with the speaker
 * of the chunk, the day of its session (`2023/05/20 (Sat)`, the time dropped) and its session
 * summary's topics; parts with nothing to say are left out. Never fails.
 */
export function createTemplateContextualizer(options: { maxTopics?: number } = {}): ChunkContextualizer {
  const maxTopics = options.maxTopics ?? 6;
  return {
    id: 'template',
    async contextualize({ chunk, summary }) {
      const parts: string[] = [SPEAKERS[chunk.role ?? 'mixed']];
      const day = chunk.date?.replace(/\s+\d{1,2}:\d{2}\s*$/, '').trim();
      if (day) parts.push(`session ${day}`);
      const topics = summary?.topics.slice(0, maxTopics) ?? [];
      if (topics.length > 0) parts.push(`topics: ${topics.join(', ')}`);
      return `[${parts.join(' · ')}]`;
    },
  };
}

export type LlmContextualizerOptions = {
  /** One completion for one prompt (the caller wires the chat client, model and cache). */
  complete: (prompt: string, options: { signal?: AbortSignal }) => Promise<string>;
  /** Names the model in the contextualizer id, e.g. `gpt-4o-mini`. */
  model?: string;
  /** Characters of conversation around the chunk put in the prompt. Default 8000. */
  maxConversationChars?: number;
};

/**
 * The contextual-retrieval prompt, adapted to a conversation: the session (the turns nearest the
 * chunk when it is long), then the chunk, then the request for a short situating context.
 */
export function contextPrompt(request: ContextualizeRequest, maxConversationChars = 8000): string {
  const { chunk, sessionDocuments } = request;
  const lines = sessionDocuments.map((document) => `${document.role ?? 'user'}: ${document.text}`);
  let center = sessionDocuments.findIndex(
    (document) =>
      document.id === chunk.id || (chunk.turnIndex !== undefined && document.turnIndex === chunk.turnIndex),
  );
  if (center < 0) center = 0;
  // Widen a window around the chunk's turn while it fits.
  let first = center;
  let last = center;
  let used = lines[center]?.length ?? 0;
  for (let grew = true; grew; ) {
    grew = false;
    for (const next of [last + 1, first - 1]) {
      const line = lines[next];
      if (line === undefined || used + line.length + 1 > maxConversationChars) continue;
      used += line.length + 1;
      if (next > last) last = next;
      else first = next;
      grew = true;
    }
  }
  const conversation = lines
    .slice(first, last + 1)
    .join('\n')
    .slice(0, maxConversationChars);
  return (
    `<conversation date="${chunk.date ?? 'unknown'}">\n${conversation}\n</conversation>\n` +
    'Here is a part of the conversation we want to situate within the whole conversation:\n' +
    `<chunk>\n${chunk.text}\n</chunk>\n` +
    'Please give a short succinct context to situate this chunk within the overall conversation ' +
    'for the purposes of improving search retrieval of the chunk. ' +
    'Answer only with the succinct context and nothing else.'
  );
}

/**
 * A contextualizer that asks a chat model for the context of each chunk (the `complete` function
 * is injected). A failed request or an empty reply rejects; `contextualizeChunks` then indexes
 * that chunk without context and marks it `failed`.
 */
export function createLlmContextualizer(options: LlmContextualizerOptions): ChunkContextualizer {
  return {
    id: options.model ? `llm:${options.model}` : 'llm',
    async contextualize(request) {
      const reply = await options.complete(contextPrompt(request, options.maxConversationChars), {
        signal: request.signal,
      });
      const context = reply.trim();
      if (!context) throw new Error('empty context reply');
      return context;
    },
  };
}

/** The session's documents in turn order (input order for documents without a turn index). */
function groupSessions(documents: readonly MemoryDocument[]): MemoryDocument[][] {
  const sessions = new Map<string, MemoryDocument[]>();
  for (const document of documents) {
    const session = sessions.get(document.sessionId) ?? [];
    session.push(document);
    sessions.set(document.sessionId, session);
  }
  return [...sessions.values()].map((session) =>
    session
      .map((document, position) => ({ document, position }))
      .sort(
        (left, right) =>
          (left.document.turnIndex ?? left.position) - (right.document.turnIndex ?? right.position) ||
          left.position - right.position,
      )
      .map(({ document }) => document),
  );
}

/** Cuts documents into chunks of the unit; each chunk lists the documents it is made of. */
export function buildChunks(
  documents: readonly MemoryDocument[],
  unit: ChunkUnit,
): { chunk: MemoryDocument; members: MemoryDocument[]; session: MemoryDocument[] }[] {
  const chunks: { chunk: MemoryDocument; members: MemoryDocument[]; session: MemoryDocument[] }[] = [];
  for (const session of groupSessions(documents)) {
    if (unit === 'turn') {
      for (const document of session) chunks.push({ chunk: document, members: [document], session });
    } else if (unit === 'session') {
      const first = session[0]!;
      const roles = new Set(session.map((document) => document.role ?? 'user'));
      chunks.push({
        chunk: {
          id: first.sessionId,
          text: session.map((document) => document.text).join('\n'),
          sessionId: first.sessionId,
          ...(first.date === undefined ? {} : { date: first.date }),
          role: roles.size === 1 ? [...roles][0]! : 'mixed',
        },
        members: session,
        session,
      });
    } else {
      // A round: a user turn and the assistant turn right after it, under the user turn's id.
      for (let position = 0; position < session.length; position++) {
        const document = session[position]!;
        const next = session[position + 1];
        const pairs =
          document.role === 'user' &&
          next?.role === 'assistant' &&
          (document.turnIndex === undefined || next.turnIndex === document.turnIndex + 1);
        if (!pairs) {
          chunks.push({ chunk: document, members: [document], session });
          continue;
        }
        chunks.push({
          chunk: { ...document, text: `${document.text}\n${next.text}`, role: 'mixed' },
          members: [document, next],
          session,
        });
        position++;
      }
    }
  }
  return chunks;
}

/**
 * Cuts a haystack into chunks of the unit (`turn`; `round`: a user turn joined with the assistant
 * turn that follows it, keeping the user turn's id and turn index; `session`: all its documents,
 * with the session id) and puts a context in front of each chunk's text: `context + "\n" + text`.
 * A chunk whose context fails is kept with its original text and status `failed`; nothing throws
 * for one chunk. The original texts come back in `originals` for the reader.
 */
export async function contextualizeChunks(
  options: ContextualizeChunksOptions,
): Promise<ContextualizeChunksResult> {
  const contextualizer = options.contextualizer ?? createTemplateContextualizer();
  const summaries = new Map((options.summaries ?? []).map((summary) => [summary.sessionId, summary]));
  const chunks = buildChunks(options.documents, options.unit);
  const limit = pLimit(options.concurrency ?? 4);
  const results = await Promise.all(
    chunks.map(({ chunk, session }) =>
      limit(async (): Promise<{ text: string; status: ChunkStatus }> => {
        options.signal?.throwIfAborted();
        try {
          const summary = summaries.get(chunk.sessionId);
          const context = await contextualizer.contextualize({
            chunk,
            ...(summary ? { summary } : {}),
            sessionDocuments: session,
            ...(options.signal ? { signal: options.signal } : {}),
          });
          return { text: `${context}\n${chunk.text}`, status: { id: chunk.id, status: 'ok' } };
        } catch (error) {
          if (options.signal?.aborted) throw error;
          const message = error instanceof Error ? error.message : String(error);
          return { text: chunk.text, status: { id: chunk.id, status: 'failed', error: message } };
        }
      }),
    ),
  );
  return {
    documents: chunks.map(({ chunk }, position) => ({ ...chunk, text: results[position]!.text })),
    originals: chunks.map(({ chunk }) => chunk.text),
    members: chunks.map(({ members }) => members.map((document) => document.id)),
    statuses: results.map(({ status }) => status),
  };
}
