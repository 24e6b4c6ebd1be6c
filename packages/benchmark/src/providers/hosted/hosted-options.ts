import { z } from 'zod';
import type { ProviderOptionInput } from '../../components/provider-options.js';

/**
 * Options every hosted adapter shares, as provider option records (`defineProviderOptions`): the
 * text of `--provider-option key=value` is read by each schema's type (config/option-text.ts).
 */

/** The service's base URL, defaulting to the one its API reference documents. */
export function baseUrlOption(documentedDefault: string) {
  return {
    schema: z.string().url().default(documentedDefault),
    help: "The service's base URL; a self-hosted or regional one",
    // Where the service is, as --provider-url: a resumed run may reach it elsewhere.
    measures: false,
  } as const satisfies ProviderOptionInput;
}

/** A yes/no option. */
export function booleanOption(defaultValue: boolean, help: string) {
  return { schema: z.boolean().default(defaultValue), help } satisfies ProviderOptionInput;
}

/**
 * The least relevance (0 to 1) a result needs to be returned; 0 by default, so the whole ranking
 * comes back (`help` names the service's own default).
 */
export function thresholdOption(help: string) {
  return { schema: z.number().min(0).max(1).default(0), help } satisfies ProviderOptionInput;
}

/**
 * The options of every adapter that polls the service for its asynchronous work (read by
 * `pollHostedJob`): spread into the adapter's options. How long lme waits changes no figure.
 */
export const pollingOptions = {
  'max-wait-ms': {
    schema: z
      .number()
      .int()
      .min(0)
      .max(24 * 3_600_000)
      .default(600_000),
    help: 'Most time to wait, in ms, for the service to finish processing what one ingest sent; past it the question fails saying so',
    measures: false,
  },
  'poll-interval-ms': {
    schema: z.number().int().min(10).max(60_000).default(2_000),
    help: 'Time between two looks at a job the service is still processing, in ms',
    measures: false,
  },
} as const satisfies Readonly<Record<string, ProviderOptionInput>>;

/** One sentence for a turn-granularity search on a service that keeps sessions only. */
export function sessionsOnlyError(system: string, reason: string): Error {
  return new Error(`${system} ranks whole sessions only (${reason}); run it with --granularity session.`);
}
