import type { RunConfig } from '../config/run-config.js';
import { ANSWERING_PROVIDERS, judgesProviderAnswers } from '../config/run-shape.js';

/**
 * Refuses, in one sentence naming the flags, an answer source the run cannot have: the provider's
 * own answers (`--answers provider`) from a provider that gives none, or together with lme's
 * reader (whose answer would replace the provider's).
 */
export function checkAnswerSource(config: Pick<RunConfig, 'answers' | 'provider' | 'readerModel'>): void {
  if (!judgesProviderAnswers(config)) return;
  if (!ANSWERING_PROVIDERS.includes(config.provider)) {
    throw new Error(
      `--answers provider judges the memory system's own answers, but --provider ${config.provider} gives none (only --provider ${ANSWERING_PROVIDERS.join(', ')} returns an answer); to judge lme's reader instead, drop --answers provider and set --reader-model.`,
    );
  }
  if (config.readerModel !== undefined) {
    throw new Error(
      "--answers provider judges the provider's own answers with no lme reader: drop --reader-model (or drop --answers provider to judge lme's reader over the provider's hits).",
    );
  }
}
