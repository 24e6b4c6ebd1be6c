import { z } from 'zod';

/**
 * Option fields every hosted adapter shares, as zod fields parsed from `--provider-option
 * key=value` text: numbers are coerced, booleans read `true/false/yes/no/1/0` (a plain coercion
 * would read `false` as true).
 */

/** The service's base URL, defaulting to the one its API reference documents. */
export function baseUrlOption(documentedDefault: string) {
  return z
    .string()
    .url()
    .default(documentedDefault)
    .describe(`The service's base URL (default ${documentedDefault}); a self-hosted or regional one.`);
}

/** A yes/no option given as text. */
export function booleanOption(defaultValue: boolean, help: string) {
  return z.union([z.boolean(), z.stringbool()]).default(defaultValue).describe(help);
}

/**
 * The least relevance (0 to 1) a result needs to be returned; 0 by default, so the whole ranking
 * comes back (`help` names the service's own default).
 */
export function thresholdOption(help: string) {
  return z.coerce.number().min(0).max(1).default(0).describe(help);
}

/** Most time to wait for the service to finish processing an ingest, in milliseconds. */
const maxWaitOption = z.coerce
  .number()
  .int()
  .min(0)
  .max(24 * 3_600_000)
  .default(600_000)
  .describe(
    'Most time to wait, in ms, for the service to finish processing what one ingest sent (default 600000); past it the question fails saying so.',
  );

/** Time between two looks at an asynchronous job, in milliseconds. */
const pollIntervalOption = z.coerce
  .number()
  .int()
  .min(10)
  .max(60_000)
  .default(2_000)
  .describe('Time between two looks at a job the service is still processing, in ms (default 2000).');

/**
 * The options of every adapter that polls the service for its asynchronous work (read by
 * `pollHostedJob`): spread into the adapter's option object.
 */
export const pollingOptions = {
  'max-wait-ms': maxWaitOption,
  'poll-interval-ms': pollIntervalOption,
};

/** One sentence for a turn-granularity search on a service that keeps sessions only. */
export function sessionsOnlyError(system: string, reason: string): Error {
  return new Error(`${system} ranks whole sessions only (${reason}); run it with --granularity session.`);
}
