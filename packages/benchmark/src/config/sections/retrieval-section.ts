import { z } from 'zod';
import type { RunOptionDeclaration } from '../../components/option-declaration.js';

/** The pipeline's retrieval: the base retriever, the documents it indexes and the number it returns. */
export const RETRIEVAL_SHAPE = {
  /** Documents every provider is graded on (the same budget for all); unset: the whole haystack. */
  topK: z.number().int().min(1).optional(),
  /** The base retriever, a key of BASE_RETRIEVERS (config/base-retrievers.ts). */
  retriever: z
    .enum(['bm25', 'dense', 'hybrid', 'session-aware', 'multi-route', 'multi-source'])
    .default('bm25'),
  /** The routes a session-aware, multi-route or multi-source retriever searches; unset: hybrid. */
  routes: z.enum(['bm25', 'dense', 'hybrid']).optional(),
  tokenizer: z.enum(['official', 'words']).default('words'),
  granularity: z.enum(['session', 'turn']).default('session'),
  indexRoles: z.enum(['user', 'all']).default('user'),
  /**
   * What one indexed chunk is; sets the granularity (`turn` and `round` grade as turns). `round`:
   * a user turn and the assistant reply after it, under the user turn's id. Unset: the granularity's unit.
   */
  chunkUnit: z.enum(['turn', 'round', 'session']).optional(),
  finalTopK: z.number().int().min(1).max(10_000).default(10),
  /** Old form of `retriever: 'session-aware'` (old presets, config.json, `--session-aware`); mapped, never kept. */
  sessionAware: z.boolean().optional(),
  /** Old form of `retriever: 'multi-route'`; mapped, never kept. */
  multiRoute: z.boolean().optional(),
  /** Old form of `retriever: 'multi-source'`; mapped, never kept. */
  multiSource: z.boolean().optional(),
  topSessions: z.number().int().min(1).max(1000).default(5),
  turnsPerSession: z.number().int().min(1).max(1000).default(3),
  sessionIndex: z.enum(['summary', 'text', 'both']).default('text'),
  /** Stage-1 weights (text, dense, summary, centroid); unset keys take the session index's defaults. */
  sessionWeights: z
    .object({
      text: z.number().min(0),
      dense: z.number().min(0),
      summary: z.number().min(0),
      centroid: z.number().min(0),
    })
    .partial()
    .strict()
    .optional(),
  /** Multi-route: sessions ranked by their session-level score plus bounded turn support. */
  sessionFirst: z.boolean().default(false),
  /** Base weights of the multi-source sources (before the query cues adjust them). */
  sourceWeights: z
    .object({ memory: z.number().min(0), graph: z.number().min(0), context: z.number().min(0) })
    .partial()
    .strict()
    .optional(),
};

/** The flags of the retrieval section (config/run-options.ts lists every section's). */
export const RETRIEVAL_OPTIONS = [
  {
    flags: '--top-k <n>',
    key: 'topK',
    group: 'stages',
    help: 'documents every provider is graded on, the same budget for all',
    defaultHelp: 'the whole haystack',
  },
  {
    flags: '--retriever <name>',
    key: 'retriever',
    group: 'retrieval',
    help: 'base retriever of the pipeline: bm25, dense, hybrid (routes over the documents), session-aware (sessions, then turns inside them), multi-route, multi-source; session-aware and multi-route rank turns, so they index turns whatever --granularity says',
  },
  {
    flags: '--routes <name>',
    key: 'routes',
    group: 'retrieval',
    help: 'routes a session-aware, multi-route or multi-source retriever searches: bm25, dense, or hybrid (both, fused)',
    defaultHelp: 'hybrid',
  },
  {
    flags: '--tokenizer <name>',
    key: 'tokenizer',
    group: 'retrieval',
    help: 'BM25 tokenizer: official = Python split(" "), words = lowercase stemmed words',
  },
  {
    flags: '--granularity <unit>',
    key: 'granularity',
    group: 'retrieval',
    help: 'index whole sessions or single turns',
  },
  {
    flags: '--index-roles <roles>',
    key: 'indexRoles',
    group: 'retrieval',
    help: 'index user turns only (official) or all turns',
  },
  {
    flags: '--chunk-unit <unit>',
    key: 'chunkUnit',
    group: 'retrieval',
    help: 'indexed chunk: turn, round (user turn + reply) or session',
    defaultHelp: '--granularity',
  },
  { flags: '--final-top-k <n>', key: 'finalTopK', group: 'retrieval', help: 'turns returned after merging' },
  {
    flags: '--session-aware',
    key: 'sessionAware',
    group: 'retrieval',
    help: 'old form of --retriever session-aware (with --retriever bm25|dense|hybrid as --routes)',
  },
  {
    flags: '--multi-route',
    key: 'multiRoute',
    group: 'retrieval',
    help: 'old form of --retriever multi-route (with --retriever bm25|dense|hybrid as --routes)',
  },
  {
    flags: '--multi-source',
    key: 'multiSource',
    group: 'retrieval',
    help: 'old form of --retriever multi-source (with --retriever bm25|dense|hybrid as --routes)',
  },
  { flags: '--top-sessions <n>', key: 'topSessions', group: 'retrieval', help: 'sessions kept by stage 1' },
  {
    flags: '--turns-per-session <n>',
    key: 'turnsPerSession',
    group: 'retrieval',
    help: 'turns kept per session by stage 2',
  },
  {
    flags: '--session-index <kind>',
    key: 'sessionIndex',
    group: 'retrieval',
    help: 'what stage 1 ranks sessions by',
  },
  {
    flags: '--session-weights <name=w,...>',
    key: 'sessionWeights',
    group: 'retrieval',
    help: 'stage-1 weights of text, dense, summary, centroid',
    defaultHelp: 'by --session-index; text: text=0.3,dense=0.7',
  },
  {
    flags: '--session-first',
    key: 'sessionFirst',
    group: 'retrieval',
    help: 'with --retriever multi-route: rank sessions by session score plus bounded turn support',
  },
  {
    flags: '--source-weights <name=w,...>',
    key: 'sourceWeights',
    group: 'retrieval',
    help: 'base weights of the multi-source sources memory, graph, context',
    defaultHelp: 'memory=0.6,graph=0.25,context=0.15',
  },
] as const satisfies readonly RunOptionDeclaration[];

export type RetrievalSection = z.output<z.ZodObject<typeof RETRIEVAL_SHAPE>>;
