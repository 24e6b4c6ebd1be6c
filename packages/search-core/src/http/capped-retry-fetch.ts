import { setTimeout as wait } from 'node:timers/promises';
import { MAX_RETRY_WAIT_MS, parseRetryAfter } from './json-client.js';

export type CappedRetryFetchOptions = {
  /** The retries the SDK makes (its `maxRetries`): the answer to its last attempt is returned at once. */
  maxRetries: number;
  /** Default MAX_RETRY_WAIT_MS. */
  maxWaitMs?: number;
  /** Default global fetch. */
  fetch?: typeof fetch;
  /** Default a timer that the request's abort signal ends; tests pass their own. */
  sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
};

/** Statuses the `openai` package retries (its `shouldRetry`), unless the server says `x-should-retry`. */
function sdkRetries(response: Response): boolean {
  const told = response.headers.get('x-should-retry');
  if (told === 'true') return true;
  if (told === 'false') return false;
  const { status } = response;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * The `fetch` lme hands the `openai` package. The package sleeps whatever a server's
 * `retry-after` (or `retry-after-ms`) says, uncapped (`Retry-After: 99999` is a day) and deaf to
 * the request's abort signal. Here an answer the package will retry that carries one is waited for
 * first, at most `maxWaitMs` and ended at once by the request's signal (one SIGTERM stops a run's
 * waits), then handed on with `retry-after-ms: 0`, so the package retries without a wait of its
 * own. Answers without the header keep the package's own backoff (at most 8 s); the answer to the
 * last attempt is returned untouched.
 */
export function cappedRetryFetch(options: CappedRetryFetchOptions): typeof fetch {
  const maxWaitMs = options.maxWaitMs ?? MAX_RETRY_WAIT_MS;
  const base = options.fetch ?? fetch;
  const sleep =
    options.sleep ?? ((ms: number, signal: AbortSignal | undefined) => wait(ms, undefined, { signal }));
  return async (input, init) => {
    const response = await base(input, init);
    if (response.ok || !sdkRetries(response)) return response;
    const attempt = Number(new Headers(init?.headers).get('x-stainless-retry-count') ?? 0);
    if (attempt >= options.maxRetries) return response;
    const millis = Number.parseFloat(response.headers.get('retry-after-ms') ?? '');
    const asked = Number.isFinite(millis) ? millis : parseRetryAfter(response.headers.get('retry-after'));
    if (asked === null) return response;
    const signal = init?.signal ?? undefined;
    try {
      await sleep(Math.min(Math.max(asked, 0), maxWaitMs), signal);
    } catch (error) {
      await response.body?.cancel().catch(() => undefined);
      throw error;
    }
    const headers = new Headers(response.headers);
    headers.delete('retry-after');
    headers.set('retry-after-ms', '0');
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}
