/** One session of a haystack as a summarizer sees it. */
export type SessionInput = {
  sessionId: string;
  /** The haystack date, `2023/05/30 (Tue) 23:40`. */
  date: string;
  turns: readonly { role: 'user' | 'assistant'; content: string }[];
};

/** What lme knows of a session before reading its turns. */
export type SessionSummary = {
  sessionId: string;
  /** A few sentences: the gist of what the user said. */
  text: string;
  /** Keyphrases of the session, most salient first. */
  topics: string[];
  /** People, places and organisations named in it. */
  entities: string[];
  /**
   * Start and end of the session. LongMemEval dates sessions, not turns, so both are the session
   * date unless the source has turn times.
   */
  start: string;
  end: string;
  turnCount: number;
  userTurnCount: number;
  /** How the summary was made: `extractive`, `llm:<model>`, or `extractive (llm failed: …)`. */
  source: string;
};

/** Summarizes the sessions of one haystack (the batch gives topics their contrast). */
export type Summarizer = {
  readonly id: string;
  summarize(options: { sessions: readonly SessionInput[]; signal?: AbortSignal }): Promise<SessionSummary[]>;
};
