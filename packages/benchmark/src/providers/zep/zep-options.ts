import { z } from 'zod';
import { baseUrlOption, pollingOptions } from '../hosted/hosted-options.js';

/** Zep Cloud's base URL as the v3 SDK gives it (`ZepEnvironment.DEFAULT`). */
export const ZEP_URL = 'https://api.getzep.com/api/v2';

/** The options of `--provider zep`, from `--provider-option key=value`. */
export const zepOptionsSchema = z
  .object({
    'base-url': baseUrlOption(ZEP_URL),
    episode: z
      .enum(['session', 'turn'])
      .default('session')
      .describe(
        'What one graph episode holds: a whole session (default; fewer calls) or one turn (one call per turn; needed for --granularity turn).',
      ),
    scope: z
      .enum(['edges', 'episodes'])
      .default('edges')
      .describe(
        "What a search ranks: the facts Zep extracted (edges, the default: Zep's memory), each credited to the episodes it came from, or the stored episodes themselves.",
      ),
    reranker: z
      .enum(['rrf', 'mmr', 'cross_encoder', 'episode_mentions'])
      .default('rrf')
      .describe("Zep's reranker for graph search (default rrf, Zep's own default)."),
    'max-episode-chars': z.coerce
      .number()
      .int()
      .min(500)
      .max(100_000)
      .default(9_500)
      .describe(
        'Longest episode sent, in characters (default 9500); a longer session is split into several episodes with the same metadata.',
      ),
    ...pollingOptions,
  })
  .strict();

export type ZepOptions = z.infer<typeof zepOptionsSchema>;
