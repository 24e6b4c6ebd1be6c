/** What one look at an asynchronous job found. */
export type PollState = { state: 'done' } | { state: 'pending' } | { state: 'failed'; reason: string };

export type PollOptions = {
  /** Looks once at the job. */
  check(): Promise<PollState>;
  /** What is awaited, for messages: `Mem0 Platform ingest event 1f2e…`. */
  what: string;
  /** Wait between looks. */
  intervalMs: number;
  /** Most time spent waiting in all (counted as the sum of the waits, never read from a clock). */
  maxWaitMs: number;
  /** The option that raises the bound, named in the message when it is reached. */
  optionName: string;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  signal?: AbortSignal | undefined;
};

/**
 * Waits for a hosted service to finish processing what it accepted asynchronously (an extraction
 * event, a document, a graph episode), looking every `intervalMs` and giving up after `maxWaitMs`
 * of waiting with one sentence that names the bound and the option that raises it. A job the
 * service reports failed fails at once with its reason.
 */
export async function pollUntilDone(options: PollOptions): Promise<void> {
  let waited = 0;
  for (;;) {
    const found = await options.check();
    if (found.state === 'done') return;
    if (found.state === 'failed') {
      throw new Error(`${options.what} failed on the service side: ${found.reason}.`);
    }
    if (waited + options.intervalMs > options.maxWaitMs) {
      throw new Error(
        `${options.what} was still processing after ${formatSeconds(waited)} of waiting, the most lme waits (raise it with --provider-option ${options.optionName}=<ms>).`,
      );
    }
    await options.sleep(options.intervalMs, options.signal);
    waited += options.intervalMs;
  }
}

/** The options `pollingOptions` (hosted-options.ts) adds to an adapter's, as parsed. */
export type PollingOptions = { 'max-wait-ms': number; 'poll-interval-ms': number };

/**
 * `pollUntilDone` as every hosted adapter runs it: looking every `poll-interval-ms`, within
 * `max-wait-ms` (the option a timeout names), waiting with the connection's sleep.
 */
export function pollHostedJob(
  connection: Pick<PollOptions, 'sleep'>,
  options: PollingOptions,
  job: Pick<PollOptions, 'what' | 'check' | 'signal'>,
): Promise<void> {
  return pollUntilDone({
    ...job,
    intervalMs: options['poll-interval-ms'],
    maxWaitMs: options['max-wait-ms'],
    optionName: 'max-wait-ms',
    sleep: connection.sleep,
  });
}

function formatSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
