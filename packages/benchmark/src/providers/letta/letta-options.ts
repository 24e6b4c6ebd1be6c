import { z } from 'zod';
import { baseUrlOption } from '../hosted/hosted-options.js';

/** Letta Cloud's base URL as its SDK gives it (`environments.cloud`). */
export const LETTA_URL = 'https://api.letta.com';

/** The options of `--provider letta`, from `--provider-option key=value`. */
export const lettaOptionsSchema = z
  .object({
    'base-url': baseUrlOption(LETTA_URL),
    passage: z
      .enum(['turn', 'session'])
      .default('turn')
      .describe(
        'What one archival passage holds: one turn (default; ranks turns and sessions) or a whole session (fewer calls; sessions only).',
      ),
    'ingest-concurrency': z.coerce
      .number()
      .int()
      .min(1)
      .max(32)
      .default(4)
      .describe(
        'Passage inserts in flight at once during an ingest (default 4); a rate limit (429) is retried.',
      ),
    embedding: z
      .string()
      .min(1)
      .default('openai/text-embedding-3-small')
      .describe(
        "The embedding model handle of each namespace's agent (provider/model-name; default openai/text-embedding-3-small).",
      ),
    model: z
      .string()
      .min(1)
      .default('openai/gpt-4o-mini')
      .describe(
        "The model handle each namespace's agent is created with (provider/model-name; default openai/gpt-4o-mini); archival search never calls it.",
      ),
  })
  .strict();

export type LettaOptions = z.infer<typeof lettaOptionsSchema>;
