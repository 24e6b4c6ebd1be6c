import { z } from 'zod';
import type { RunOptionDeclaration } from '../../components/option-declaration.js';
import { DEFAULT_EMBEDDER } from '../../components/setting-values.js';

/** The pipeline's embedder and vector store. */
export const EMBEDDING_SHAPE = {
  embedder: z.string().min(1).default(DEFAULT_EMBEDDER),
  /** `hf:` embedders: a folder of model files the user put there (air-gapped machines). */
  modelDir: z.string().min(1).optional(),
  /** Threads of an in-process embedder (hf: model calls at once, one text and one thread each; local:use-lite: worker threads); unset: the cores, at most 4. */
  embedThreads: z.number().int().min(1).max(64).optional(),
  vectorStore: z.enum(['memory', 'qdrant']).default('memory'),
};

/** The flags of the embedding section (config/run-options.ts lists every section's). */
export const EMBEDDING_OPTIONS = [
  {
    flags: '--embedder <name>',
    key: 'embedder',
    group: 'retrieval',
    help: 'hf:<owner>/<model>[@q8] (an ONNX model of configs/models.json, see `lme models list`), local:use-lite or openai:<model>; several joined by + embed with each, their vectors side by side (a cosine is the mean of theirs)',
    defaultHelp: DEFAULT_EMBEDDER,
  },
  {
    flags: '--model-dir <dir>',
    key: 'modelDir',
    group: 'retrieval',
    help: 'folder holding ONNX model files fetched by hand (checked against configs/models.json before use)',
    env: 'LME_MODEL_DIR',
  },
  {
    flags: '--embed-threads <n>',
    key: 'embedThreads',
    group: 'retrieval',
    help: 'threads of an in-process embedder (hf: model calls at once, one text and one ONNX Runtime thread each; local:use-lite: worker threads); default: the cores, at most 4; never more than fit in memory (a model copy each, at most 2 GB in all)',
  },
  { flags: '--vector-store <name>', key: 'vectorStore', group: 'retrieval', help: 'vector index backend' },
] as const satisfies readonly RunOptionDeclaration[];

export type EmbeddingSection = z.output<z.ZodObject<typeof EMBEDDING_SHAPE>>;
