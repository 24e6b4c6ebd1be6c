import { z } from 'zod';
import type { ComponentOptions } from '../../component.js';

/** The options of `--retriever session-aware` (stage 1 ranks sessions, stage 2 the turns inside them). */
export const SESSION_AWARE_OPTIONS = {
  topSessions: {
    schema: z.number().int().min(1).max(1000).default(5),
    flags: '--top-sessions <n>',
    group: 'retrieval',
    help: 'sessions kept by stage 1',
  },
  turnsPerSession: {
    schema: z.number().int().min(1).max(1000).default(3),
    flags: '--turns-per-session <n>',
    group: 'retrieval',
    help: 'turns kept per session by stage 2',
  },
  sessionIndex: {
    schema: z.enum(['summary', 'text', 'both']).default('text'),
    flags: '--session-index <kind>',
    group: 'retrieval',
    help: 'what stage 1 ranks sessions by',
  },
  /** Stage-1 weights (text, dense, summary, centroid); unset keys take the session index's defaults. */
  sessionWeights: {
    schema: z
      .object({
        text: z.number().min(0),
        dense: z.number().min(0),
        summary: z.number().min(0),
        centroid: z.number().min(0),
      })
      .partial()
      .strict()
      .optional(),
    flags: '--session-weights <name=w,...>',
    group: 'retrieval',
    help: 'stage-1 weights of text, dense, summary, centroid',
    defaultHelp: 'by --session-index; text: text=0.3,dense=0.7',
  },
} as const satisfies ComponentOptions;
