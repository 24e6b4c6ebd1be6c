import { judgesProviderAnswers } from '../../config/run-shape.js';
import type { ProviderSection } from '../../config/sections/provider-section.js';
import type { QaSection } from '../../config/sections/qa-section.js';
import { PROVIDERS, providerCapabilities } from '../../providers/provider-registry.js';

/**
 * Refuses, in one sentence naming the flags, an answer source the run cannot have: the provider's
 * own answers (`--answers provider`) from a provider that gives none, or together with lme's
 * reader (whose answer would replace the provider's).
 */
export function checkAnswerSource(
  config: Pick<QaSection, 'answers' | 'readerModel'> & Pick<ProviderSection, 'provider'>,
): void {
  if (!judgesProviderAnswers(config)) return;
  if (!providerCapabilities(config.provider).answersItself) {
    const answering = Object.values(PROVIDERS).filter((descriptor) => descriptor.capabilities.answersItself);
    throw new Error(
      `--answers provider judges the memory system's own answers, but --provider ${config.provider} gives none (only --provider ${answering.map((descriptor) => descriptor.name).join(', ')} returns an answer); to judge lme's reader instead, drop --answers provider and set --reader-model.`,
    );
  }
  if (config.readerModel !== undefined) {
    throw new Error(
      "--answers provider judges the provider's own answers with no lme reader: drop --reader-model (or drop --answers provider to judge lme's reader over the provider's hits).",
    );
  }
}
