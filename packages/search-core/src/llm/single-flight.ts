import type { ChatClient, ChatCompleteOptions, ChatCompleteResult } from './chat-client.js';
import { completionCacheKey } from './completion-cache.js';

type Flight = {
  promise: Promise<ChatCompleteResult>;
  controller: AbortController;
  /** Callers still waiting for this flight. */
  waiting: number;
};

/**
 * Sends identical requests (same cache key) that are in flight at the same time once; every
 * caller gets the result, and callers that joined a flight see `cached: true` (they cost no
 * call). One caller's abort rejects only that caller; the shared request is aborted when no
 * caller is left waiting for it.
 */
export function withSingleFlight(client: ChatClient): ChatClient {
  const flights = new Map<string, Flight>();

  function start(key: string, request: ChatCompleteOptions): Flight {
    const controller = new AbortController();
    const promise = client.complete({ ...request, signal: controller.signal }).finally(() => {
      if (flights.get(key) === flight) flights.delete(key);
    });
    // Waiters attach their own handlers; this keeps an abandoned flight from being unhandled.
    promise.catch(() => {});
    const flight: Flight = { promise, controller, waiting: 0 };
    flights.set(key, flight);
    return flight;
  }

  return {
    id: client.id,
    async complete(request: ChatCompleteOptions): Promise<ChatCompleteResult> {
      request.signal?.throwIfAborted();
      const started = performance.now();
      const key = completionCacheKey(request);
      const existing = flights.get(key);
      const flight = existing ?? start(key, request);
      flight.waiting += 1;
      const result = await waitFor(flight, request.signal, () => {
        if (flights.get(key) === flight) flights.delete(key);
      });
      if (!existing) return result;
      return { ...result, cached: true, requests: 0, latencyMs: performance.now() - started };
    },
  };
}

function waitFor(
  flight: Flight,
  signal: AbortSignal | undefined,
  abandon: () => void,
): Promise<ChatCompleteResult> {
  if (!signal) return flight.promise;
  return new Promise<ChatCompleteResult>((resolve, reject) => {
    const onAbort = () => {
      flight.waiting -= 1;
      if (flight.waiting === 0) {
        abandon();
        flight.controller.abort(signal.reason);
      }
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    flight.promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
