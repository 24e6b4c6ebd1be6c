import { z } from 'zod';
import { RECORD_DATE } from '../../benchmarks/longmemeval-record.js';

/**
 * The HTTP provider protocol (docs/provider-protocol.md) as zod schemas: the one definition the
 * harness side (`http-provider.ts`) and the server side (`lme serve`) both validate against.
 */

/** A namespace: `<run id>/<random>` as the harness sends it (opaque, shared by questions with one haystack). */
export const namespaceSchema = z.string().min(1).max(512);

/** `POST /v1/reset`. */
export const resetRequestSchema = z.object({ namespace: namespaceSchema });

export const protocolTurnSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  /** The turn's position in its session, counted over all its turns (sent or not). */
  turn_index: z.number().int().min(0),
});

/** A date as the loaders check them: LongMemEval's `2023/05/30 (Tue) 23:40` (never `yesterday`). */
const protocolDate = z.string().regex(RECORD_DATE, { error: 'is not a date like "2023/05/30 (Tue) 23:40"' });

export const protocolSessionSchema = z.object({
  session_id: z.string().min(1),
  date: protocolDate,
  /**
   * May be empty, on purpose: lme sends every session of a haystack, one whose turns are all of
   * roles not indexed (`--index-roles user`) with none, and the in-process pipeline ranks such a
   * session too (its metrics count it), so a server must take it to give the same numbers.
   */
  turns: z.array(protocolTurnSchema),
});

/** `POST /v1/ingest`: sessions appended to the namespace. */
export const ingestRequestSchema = z.object({
  namespace: namespaceSchema,
  sessions: z.array(protocolSessionSchema),
});

/** `POST /v1/search`. */
export const searchRequestSchema = z.object({
  namespace: namespaceSchema,
  query: z.string(),
  query_date: protocolDate.optional(),
  top_k: z.number().int().min(1),
  granularity: z.enum(['session', 'turn']).optional(),
});

export const searchHitSchema = z.object({
  session_id: z.string().min(1),
  turn_index: z.number().int().min(0).optional(),
  score: z.number(),
});

/** Longest `answer` a search reply may carry, in characters (a longer one fails the question). */
export const MAX_ANSWER_CHARS = 20_000;
/** Longest `context` (what the system answered from) a search reply may carry, in characters. */
export const MAX_ANSWER_CONTEXT_CHARS = 200_000;

/** A count of tokens: a whole number, at least 0, at most a billion. */
const tokenCount = z.number().int().min(0).max(1e9);

/**
 * The answering system's own LLM usage for this question: tokens, and its cost when it knows it.
 * Other fields (an OpenAI `total_tokens`) are accepted and dropped.
 */
export const answerUsageSchema = z.object({
  prompt_tokens: tokenCount,
  completion_tokens: tokenCount,
  /** USD the system spent on this answer (its own price), when it reports one. */
  cost_usd: z.number().min(0).max(1e6).optional(),
  /** The model that answered, for the record. */
  model: z.string().max(200).optional(),
});

/** The answer to `POST /v1/search`: hits in rank order, and the system's own answer if it has one. */
export const searchResponseSchema = z.object({
  hits: z.array(searchHitSchema),
  /** The system's own answer to the question (judged with `lme run --answers provider`). */
  answer: z.string().max(MAX_ANSWER_CHARS).optional(),
  /** The text the system answered from (optional; stored with the question's sample). */
  context: z.string().max(MAX_ANSWER_CONTEXT_CHARS).optional(),
  /** The system's own token usage (and cost) for answering. */
  usage: answerUsageSchema.optional(),
  /** The system's own time to search and answer, in milliseconds, as it measured it. */
  latency_ms: z.number().min(0).max(86_400_000).optional(),
});

/**
 * The answer to `POST /v1/ingest`: anything (`{}` will do), with the system's own token usage
 * (and cost) for storing the sessions when it reports one.
 */
export const ingestResponseSchema = z.object({ usage: answerUsageSchema.optional() });

/** The answer to `GET /v1/health`. */
export const healthResponseSchema = z.object({
  status: z.string(),
  name: z.string().optional(),
  version: z.string().optional(),
});

export type ProtocolSession = z.infer<typeof protocolSessionSchema>;
export type ResetRequest = z.infer<typeof resetRequestSchema>;
export type IngestRequest = z.infer<typeof ingestRequestSchema>;
export type SearchRequest = z.infer<typeof searchRequestSchema>;
export type SearchHit = z.infer<typeof searchHitSchema>;
export type SearchResponse = z.infer<typeof searchResponseSchema>;
export type AnswerUsage = z.infer<typeof answerUsageSchema>;
export type IngestResponse = z.infer<typeof ingestResponseSchema>;
export type HealthResponse = z.infer<typeof healthResponseSchema>;

/** The first three problems of a failed parse, as `path: message; …`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`)
    .join('; ');
}
