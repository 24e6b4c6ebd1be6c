import { z } from 'zod';
import type { ComponentOption } from '../component.js';

/** `--rerank-depth`: candidates (top hits) the reranker reorders; every reranker family reads it. */
export const RERANK_DEPTH_OPTION = {
  schema: z.number().int().min(1).max(1000).default(20),
  flags: '--rerank-depth <n>',
  group: 'stages',
  help: 'candidates the reranker reorders',
} as const satisfies ComponentOption;
