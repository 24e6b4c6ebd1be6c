/** A unit of memory to index: a session, a turn, or a chunk of either. */
export type MemoryDocument = {
  /** Unique within one index. */
  id: string;
  text: string;
  sessionId: string;
  /** The haystack date of its session, `2023/05/30 (Tue) 23:40`. */
  date?: string;
  /** Position of the turn in its session (0-based), absent for whole sessions. */
  turnIndex?: number;
  role?: 'user' | 'assistant' | 'mixed';
  /**
   * The turns a session document is made of. Dense scoring embeds each part and scores the
   * document by its best part: a session is as relevant as its most relevant turn.
   */
  parts?: readonly string[];
};

/** How one route (bm25, dense, …) saw a hit. */
export type RouteTrace = {
  score: number;
  /** 1-based rank within the route. */
  rank: number;
};

export type RetrievalHit = {
  /** Index of the document in the array given to `index`. */
  document: number;
  id: string;
  sessionId: string;
  /** The final score the ranking used. */
  score: number;
  /** Per-route scores and ranks, for `explain`. */
  routes: Record<string, RouteTrace>;
};

export type SearchOptions = {
  query: string;
  /** How many hits; `Infinity` ranks every document. */
  limit: number;
  /** The question's date, for retrievers that use time. */
  queryDate?: string;
  signal?: AbortSignal;
};

/**
 * A retriever indexes one haystack at a time and ranks its documents for a query. Created per
 * haystack by a factory, so no state leaks between questions.
 */
export type Retriever = {
  readonly id: string;
  index(options: { documents: readonly MemoryDocument[]; signal?: AbortSignal }): Promise<void>;
  search(options: SearchOptions): Promise<RetrievalHit[]>;
  /** Frees what `index` stored outside the process (vector store points). */
  close?(): Promise<void>;
};
