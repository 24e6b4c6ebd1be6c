import { z } from 'zod';
import type { OptionValues } from '../../components/component.js';
import { defineProviderOptions } from '../../components/provider-options.js';
import { baseUrlOption } from '../hosted/hosted-options.js';

/** Letta Cloud's base URL as its SDK gives it (`environments.cloud`). */
export const LETTA_URL = 'https://api.letta.com';

/** The options of `--provider letta`, from `--provider-option key=value`. */
export const lettaOptions = defineProviderOptions({
  'base-url': baseUrlOption(LETTA_URL),
  passage: {
    schema: z.enum(['turn', 'session']).default('turn'),
    help: 'What one archival passage holds: one turn (ranks turns and sessions) or a whole session (fewer calls; sessions only)',
  },
  'ingest-concurrency': {
    schema: z.number().int().min(1).max(32).default(4),
    help: 'Passage inserts in flight at once during an ingest; a rate limit (429) is retried',
    measures: false,
  },
  embedding: {
    schema: z.string().min(1).default('openai/text-embedding-3-small'),
    help: "The embedding model handle of each namespace's agent (provider/model-name)",
  },
  model: {
    schema: z.string().min(1).default('openai/gpt-4o-mini'),
    help: "The model handle each namespace's agent is created with (provider/model-name); archival search never calls it",
  },
});

export type LettaOptions = OptionValues<typeof lettaOptions>;
