import { z } from 'zod';
import { baseUrlOption, booleanOption, pollingOptions, thresholdOption } from '../hosted/hosted-options.js';

/** supermemory's base URL as its OpenAPI document gives it (`servers`). */
export const SUPERMEMORY_URL = 'https://api.supermemory.ai';

/** The options of `--provider supermemory`, from `--provider-option key=value`. */
export const supermemoryOptionsSchema = z
  .object({
    'base-url': baseUrlOption(SUPERMEMORY_URL),
    'search-mode': z
      .enum(['memories', 'hybrid', 'documents'])
      .default('memories')
      .describe(
        'What a search ranks (POST /v4/search searchMode): the memories supermemory extracted (default, its own default), memories and document chunks (hybrid), or chunks only (documents).',
      ),
    threshold: thresholdOption(
      'Least similarity a result needs (0 to 1; default 0, so the whole ranking comes back; supermemory itself defaults to 0.6).',
    ),
    rerank: booleanOption(false, "Ask supermemory to rerank each search's results (default false)."),
    dreaming: z
      .enum(['dynamic', 'instant'])
      .default('dynamic')
      .describe(
        "How documents are processed: dynamic (default, supermemory's own: related documents grouped) or instant (each on its own, billed one extra operation).",
      ),
    ...pollingOptions,
  })
  .strict();

export type SupermemoryOptions = z.infer<typeof supermemoryOptionsSchema>;

/** Why it ranks whole sessions only (its descriptor's `sessionsOnly`). */
export const SUPERMEMORY_SESSIONS_ONLY = 'each document lme adds is a whole session';
