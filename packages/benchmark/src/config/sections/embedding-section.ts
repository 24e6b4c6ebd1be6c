import { z } from 'zod';
import type { OptionShapeOf } from '../../components/component.js';
import { EMBEDDERS } from '../../components/embedders/embedder-registry.js';
import type { RunOptionDeclaration } from '../../components/option-declaration.js';
import { DEFAULT_EMBEDDER } from '../../components/setting-values.js';

/** The pipeline's embedder and vector store (each embedder family's own options: components/embedders/). */
export const EMBEDDING_SHAPE = {
  embedder: z.string().min(1).default(DEFAULT_EMBEDDER),
  vectorStore: z.enum(['memory', 'qdrant']).default('memory'),
};

/** The flags of the embedding section (config/run-options.ts lists every section's). */
export const EMBEDDING_OPTIONS = [
  {
    flags: '--embedder <name>',
    key: 'embedder',
    group: 'retrieval',
    help: `${Object.values(EMBEDDERS)
      .map(({ capabilities, description }) => `${capabilities.form} (${description})`)
      .join(
        ', ',
      )}; several joined by + embed with each, their vectors side by side (a cosine is the mean of theirs)`,
    defaultHelp: DEFAULT_EMBEDDER,
  },
  { flags: '--vector-store <name>', key: 'vectorStore', group: 'retrieval', help: 'vector index backend' },
] as const satisfies readonly RunOptionDeclaration[];

export type EmbeddingSection = z.output<z.ZodObject<typeof EMBEDDING_SHAPE>>;

/** The embedder families' own options (components/embedders/: `--model-dir`, `--embed-threads`), as a resolved config holds them. */
export type EmbedderOptionValues = z.output<z.ZodObject<OptionShapeOf<typeof EMBEDDERS>>>;
