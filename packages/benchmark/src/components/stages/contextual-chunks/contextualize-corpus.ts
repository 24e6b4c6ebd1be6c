import {
  type ChunkContextualizer,
  type ChunkStatus,
  contextualizeChunks,
  type MemoryDocument,
  type SessionInput,
  type Summarizer,
} from '@lme/search-core';

export type ContextualizeCorpusOptions = {
  /** The documents of one haystack (turns, rounds or sessions), as `buildCorpus` cuts them. */
  documents: readonly MemoryDocument[];
  contextualizer: ChunkContextualizer;
  /** Gives the session topics the template contextualizer writes. */
  summarizer: Summarizer;
  /**
   * Whether the dense route embeds the contextualized text. False: each document's `parts` hold
   * its original text (or turns), which is what dense scoring embeds, so only BM25 sees the context.
   */
  dense: boolean;
  /** Chunks contextualized at once in each session. Default 4. */
  concurrency?: number;
  signal?: AbortSignal;
};

export type ContextualizeCorpusResult = {
  /** The documents to index, in the input order: `text` = context + "\n" + original text. */
  documents: MemoryDocument[];
  statuses: ChunkStatus[];
};

/**
 * Contextual chunks for one haystack: the documents are grouped into their sessions (consecutive
 * documents of one session id and date, so a session that appears twice keeps its own date), the
 * sessions are summarized together (topics contrast with the rest of the haystack), and each
 * document gets its context line in front (`contextualizeChunks` at unit `turn`: each document is
 * one chunk). The input order is kept, so hits still point at the corpus documents, whose original
 * text is what the reader and the metrics see.
 */
export async function contextualizeCorpus(
  options: ContextualizeCorpusOptions,
): Promise<ContextualizeCorpusResult> {
  const { documents, signal } = options;
  const groups: MemoryDocument[][] = [];
  for (const document of documents) {
    const last = groups.at(-1)?.[0];
    if (last && last.sessionId === document.sessionId && last.date === document.date)
      groups.at(-1)!.push(document);
    else groups.push([document]);
  }
  const sessions: SessionInput[] = groups.map((group) => ({
    sessionId: group[0]!.sessionId,
    date: group[0]!.date ?? '',
    turns: group.flatMap((document) =>
      (document.parts ?? [document.text]).map((content) => ({
        role: document.role === 'assistant' ? ('assistant' as const) : ('user' as const),
        content,
      })),
    ),
  }));
  const summaries = await options.summarizer.summarize({ sessions, ...(signal ? { signal } : {}) });
  const results = await Promise.all(
    groups.map((group, index) =>
      contextualizeChunks({
        documents: group,
        summaries: [summaries[index]!],
        unit: 'turn',
        contextualizer: options.contextualizer,
        concurrency: options.concurrency ?? 4,
        ...(signal ? { signal } : {}),
      }),
    ),
  );
  const contextualized: MemoryDocument[] = [];
  const statuses: ChunkStatus[] = [];
  results.forEach((result, index) => {
    const group = groups[index]!;
    // Within one session, chunks of unit `turn` come back in turn order: the order buildCorpus made.
    result.documents.forEach((document, position) => {
      const original = group[position]!;
      if (document.id !== original.id)
        throw new Error(`contextual chunks: chunk ${document.id} came back where ${original.id} was`);
      const context = document.text.slice(0, Math.max(0, document.text.length - original.text.length - 1));
      const parts = original.parts ?? [original.text];
      contextualized.push({
        ...original,
        text: document.text,
        parts: options.dense && context ? parts.map((part) => `${context}\n${part}`) : parts,
      });
      statuses.push(result.statuses[position]!);
    });
  });
  return { documents: contextualized, statuses };
}
