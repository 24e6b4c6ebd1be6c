import { createJsonClient } from './json-client.js';
import { isAuthStatus, ServiceError } from './service-error.js';

/** Budget of one probe: a live server answers a GET in far less. */
export const PROBE_TIMEOUT_MS = 10_000;

export type ProbeOptions = {
  /** The whole URL asked (e.g. `<base>/models`, `<provider>/v1/health`). */
  url: string;
  /** Sent as is (the credentials the real calls will send). */
  headers?: Readonly<Record<string, string>>;
  timeoutMs?: number;
  /** Applied to the message (whatever the server sends back is quoted in it). */
  redact?: (text: string) => string;
  signal?: AbortSignal;
};

/** Why a probe failed: nothing answered, or the server refused the credentials. */
export class ProbeError extends ServiceError {
  override readonly name = 'ProbeError';
  readonly reason: 'unreachable' | 'unauthorised';
  /**
   * What happened, to quote inside a caller's sentence (no final period): the network error, or
   * the status alone (a refusal's body may quote part of the key, so it is never repeated).
   */
  readonly detail: string;
  constructor(cause: ServiceError, url: string) {
    const detail =
      cause.status === undefined
        ? cause.message.replace(/\.+$/, '')
        : `GET ${url} answered HTTP ${cause.status}`;
    super(`${detail}.`, { retryable: cause.retryable, status: cause.status });
    this.reason = cause.status === undefined ? 'unreachable' : 'unauthorised';
    this.detail = detail;
  }
}

/**
 * One GET to a server a run is about to call, without retries, to stop a run in seconds rather
 * than find a wrong URL or key question by question. Throws a `ProbeError` when no answer came
 * (refused, unknown host, timeout) or the answer was 401/403; any other answer, even 404 or 405
 * from a server that does not serve this path to GET, shows a live server and passes. Costs
 * nothing on a metered API: it sends no completion. Returns the parsed body of a 2xx answer
 * (undefined after any other answer), for callers that read it (a provider's name and version).
 */
export async function probeEndpoint(options: ProbeOptions): Promise<unknown> {
  const client = createJsonClient({
    baseUrl: options.url,
    ...(options.headers ? { headers: options.headers } : {}),
    timeoutMs: options.timeoutMs ?? PROBE_TIMEOUT_MS,
    maxRetries: 0,
    ...(options.redact ? { redact: options.redact } : {}),
  });
  try {
    return await client.request({
      method: 'GET',
      path: '',
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    if (!(error instanceof ServiceError)) throw error;
    if (error.status === undefined || isAuthStatus(error.status)) throw new ProbeError(error, options.url);
    return undefined;
  }
}
