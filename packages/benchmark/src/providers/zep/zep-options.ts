import { z } from 'zod';
import type { OptionValues } from '../../components/component.js';
import { defineProviderOptions } from '../../components/provider-options.js';
import { baseUrlOption, pollingOptions } from '../hosted/hosted-options.js';

/** Zep Cloud's base URL as the v3 SDK gives it (`ZepEnvironment.DEFAULT`). */
export const ZEP_URL = 'https://api.getzep.com/api/v2';

/** The options of `--provider zep`, from `--provider-option key=value`. */
export const zepOptions = defineProviderOptions({
  'base-url': baseUrlOption(ZEP_URL),
  episode: {
    schema: z.enum(['session', 'turn']).default('session'),
    help: 'What one graph episode holds: a whole session (fewer calls) or one turn (one call per turn; needed for --granularity turn)',
  },
  scope: {
    schema: z.enum(['edges', 'episodes']).default('edges'),
    help: "What a search ranks: the facts Zep extracted (edges: Zep's memory), each credited to the episodes it came from, or the stored episodes themselves",
  },
  reranker: {
    schema: z.enum(['rrf', 'mmr', 'cross_encoder', 'episode_mentions']).default('rrf'),
    help: "Zep's reranker for graph search (rrf is Zep's own default)",
  },
  'max-episode-chars': {
    schema: z.number().int().min(500).max(100_000).default(9_500),
    help: 'Longest episode sent, in characters; a longer session is split into several episodes with the same metadata',
  },
  ...pollingOptions,
});

export type ZepOptions = OptionValues<typeof zepOptions>;
