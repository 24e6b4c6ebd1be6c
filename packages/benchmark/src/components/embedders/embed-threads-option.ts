import { z } from 'zod';
import type { ComponentOption } from '../component.js';

/** `--embed-threads`: read by every in-process embedder family (hf, local), one option they share. */
export const EMBED_THREADS_OPTION = {
  /** Threads of an in-process embedder (hf: model calls at once, one text and one thread each; local:use-lite: worker threads); unset: the cores, at most 4. */
  schema: z.number().int().min(1).max(64).optional(),
  flags: '--embed-threads <n>',
  group: 'retrieval',
  help: 'threads of an in-process embedder (hf: model calls at once, one text and one ONNX Runtime thread each; local:use-lite: worker threads); default: the cores, at most 4; never more than fit in memory (a model copy each, at most 2 GB in all)',
  measures: false,
} as const satisfies ComponentOption;
