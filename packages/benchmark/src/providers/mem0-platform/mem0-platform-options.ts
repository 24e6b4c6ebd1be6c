import type { OptionValues } from '../../components/component.js';
import { defineProviderOptions } from '../../components/provider-options.js';
import { baseUrlOption, booleanOption, pollingOptions, thresholdOption } from '../hosted/hosted-options.js';

/** Mem0 Platform's base URL as its API reference and SDK give it. */
export const MEM0_PLATFORM_URL = 'https://api.mem0.ai';

/** The options of `--provider mem0-platform`, from `--provider-option key=value`. */
export const mem0PlatformOptions = defineProviderOptions({
  'base-url': baseUrlOption(MEM0_PLATFORM_URL),
  infer: booleanOption(
    true,
    'Let Mem0 extract memories with its LLM (true: the product as sold); false stores each message verbatim (no LLM, synchronous)',
  ),
  rerank: booleanOption(false, "Ask for Mem0's managed reranker on every search (adds latency)"),
  threshold: thresholdOption(
    'Least relevance a memory needs to be returned (0 to 1; 0 returns the whole ranking; Mem0 itself defaults to 0.1)',
  ),
  'reference-date': booleanOption(
    true,
    "Send the question's date as reference_date, so relative dates resolve from it",
  ),
  ...pollingOptions,
});

export type Mem0PlatformOptions = OptionValues<typeof mem0PlatformOptions>;

/** Why it ranks whole sessions only (its descriptor's `sessionsOnly`). */
export const MEM0_PLATFORM_SESSIONS_ONLY = 'a Mem0 memory is distilled from a whole session';
