import type { ProviderSection } from '../../config/sections/provider-section.js';
import type { RetrievalSection } from '../../config/sections/retrieval-section.js';
import { providerCapabilities } from '../../providers/provider-registry.js';

/**
 * Refuses, before any work, a granularity the provider's descriptor says it cannot rank at
 * (`capabilities.sessionsOnly`): MemPalace at `--granularity turn` would otherwise ingest every
 * haystack and fail at its first search, the same way again on `--retry-errors`.
 */
export function checkProviderGranularity(
  config: Pick<ProviderSection, 'provider'> & Pick<RetrievalSection, 'granularity'>,
): void {
  const reason = providerCapabilities(config.provider).sessionsOnly;
  if (config.granularity !== 'turn' || reason === undefined) return;
  throw new Error(
    `--provider ${config.provider} ranks whole sessions only (${reason}), so --granularity turn cannot be graded; run it with --granularity session.`,
  );
}
