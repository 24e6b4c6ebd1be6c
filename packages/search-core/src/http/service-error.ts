/**
 * A call to a server that failed: an HTTP JSON request (provider, reranker, endpoint probe) or a
 * chat completion. One base, so a caller asks every failure the same two questions: could another
 * attempt succeed (`retryable`), and what did the server answer (`status`, unset when it did not
 * answer at all). The message is one sentence naming the request and never a secret.
 */
export class ServiceError extends Error {
  override readonly name: string = 'ServiceError';
  readonly retryable: boolean;
  /** HTTP status of the last attempt; undefined when no response came (connection, timeout). */
  readonly status: number | undefined;

  constructor(message: string, options: { retryable: boolean; status?: number | undefined }) {
    super(message);
    this.retryable = options.retryable;
    this.status = options.status;
  }
}

/**
 * Statuses worth another attempt, for every server lme calls: a request timeout (408), a rate limit
 * (429) and server trouble (5xx, but not 501/505, which will not change on a retry).
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status !== 501 && status !== 505);
}

/** The server refused the credentials (or sent none it wanted). */
export const isAuthStatus = (status: number | undefined): boolean => status === 401 || status === 403;
