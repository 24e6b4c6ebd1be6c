import { z } from 'zod';
import type { ComponentOption } from '../../component.js';

/**
 * `--dedup-threshold`: the cosine at which `--dedup` takes two hits for one. The multi-source
 * retriever merges its sources at the same cosine: the dedup stage's when it is on, else this
 * default (the pipeline hands it over).
 */
export const DEDUP_THRESHOLD_OPTION = {
  schema: z.number().min(0).max(1).default(0.95),
  flags: '--dedup-threshold <cosine>',
  group: 'stages',
  help: 'cosine at which --dedup (and --retriever multi-source with it) merges two hits',
} as const satisfies ComponentOption;
