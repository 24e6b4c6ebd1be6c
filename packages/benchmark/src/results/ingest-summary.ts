/**
 * summary.json `ingest`: what an external system's ingests cost over a run. A haystack shared by
 * several questions is ingested once and charged to the first of them; the others are counted in
 * `shared`. Times are wall milliseconds of reset and every ingest call, as lme measured them;
 * tokens and cost are the system's own report, when it gave one.
 */
export type IngestSummary = {
  /** Ingests made (questions charged with one). */
  ingests: number;
  /** Questions that searched a namespace an earlier question ingested. */
  shared: number;
  ms_p50: number;
  ms_p95: number;
  /** Sum over all ingests. */
  ms_total: number;
  /** Search latency of the same questions, beside it. */
  search_ms_p50: number;
  search_ms_p95: number;
  /** Tokens and USD the system reported for its ingests (absent when it reported none). */
  usage?: { ingests: number; prompt_tokens: number; completion_tokens: number; cost_usd: number | null };
};
