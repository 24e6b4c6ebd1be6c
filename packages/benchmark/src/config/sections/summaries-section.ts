import { z } from 'zod';
import type { RunOptionDeclaration } from '../../components/option-declaration.js';

/** Session summaries and contextual chunks of the pipeline. */
export const SUMMARIES_SHAPE = {
  summarizer: z.enum(['extractive', 'llm']).default('extractive'),
  summarizerModel: z.string().min(1).default('gpt-4o-mini'),
  /** Contextual chunks: a context line put before each chunk's text at index time. */
  contextual: z.enum(['none', 'template', 'llm']).default('none'),
  contextualModel: z.string().min(1).default('gpt-4o-mini'),
  /** Whether the dense route embeds the contextualized text (true) or the original text (false). */
  contextualDense: z.boolean().default(true),
};

/** The flags of the summaries section (config/run-options.ts lists every section's). */
export const SUMMARIES_OPTIONS = [
  {
    flags: '--summarizer <kind>',
    key: 'summarizer',
    group: 'retrieval',
    help: 'session summaries: extractive (offline) or llm',
  },
  {
    flags: '--summarizer-model <model>',
    key: 'summarizerModel',
    group: 'retrieval',
    help: 'chat model of --summarizer llm',
  },
  {
    flags: '--contextual <kind>',
    key: 'contextual',
    group: 'retrieval',
    help: 'context line before each chunk at index time',
  },
  {
    flags: '--contextual-model <model>',
    key: 'contextualModel',
    group: 'retrieval',
    help: 'chat model of --contextual llm',
  },
  {
    flags: '--contextual-dense',
    key: 'contextualDense',
    group: 'retrieval',
    help: 'the dense route embeds the contextualized text',
    negatedHelp: 'the dense route embeds the original text; the context goes to BM25 only',
  },
] as const satisfies readonly RunOptionDeclaration[];

export type SummariesSection = z.output<z.ZodObject<typeof SUMMARIES_SHAPE>>;
