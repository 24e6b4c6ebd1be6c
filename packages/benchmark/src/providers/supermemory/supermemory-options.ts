import { z } from 'zod';
import type { OptionValues } from '../../components/component.js';
import { defineProviderOptions } from '../../components/provider-options.js';
import { baseUrlOption, booleanOption, pollingOptions, thresholdOption } from '../hosted/hosted-options.js';

/** supermemory's base URL as its OpenAPI document gives it (`servers`). */
export const SUPERMEMORY_URL = 'https://api.supermemory.ai';

/** The options of `--provider supermemory`, from `--provider-option key=value`. */
export const supermemoryOptions = defineProviderOptions({
  'base-url': baseUrlOption(SUPERMEMORY_URL),
  'search-mode': {
    schema: z.enum(['memories', 'hybrid', 'documents']).default('memories'),
    help: 'What a search ranks (POST /v4/search searchMode): the memories supermemory extracted (its own default), memories and document chunks (hybrid), or chunks only (documents)',
  },
  threshold: thresholdOption(
    'Least similarity a result needs (0 to 1; 0 returns the whole ranking; supermemory itself defaults to 0.6)',
  ),
  rerank: booleanOption(false, "Ask supermemory to rerank each search's results"),
  dreaming: {
    schema: z.enum(['dynamic', 'instant']).default('dynamic'),
    help: "How documents are processed: dynamic (supermemory's own default: related documents grouped) or instant (each on its own, billed one extra operation)",
  },
  ...pollingOptions,
});

export type SupermemoryOptions = OptionValues<typeof supermemoryOptions>;

/** Why it ranks whole sessions only (its descriptor's `sessionsOnly`). */
export const SUPERMEMORY_SESSIONS_ONLY = 'each document lme adds is a whole session';
