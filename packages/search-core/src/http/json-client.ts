import { setTimeout as wait } from 'node:timers/promises';
import pRetry, { AbortError } from 'p-retry';
import type { HttpTransport } from './node-http-transport.js';
import { ReplyTooLargeError, readCappedText } from './read-capped-text.js';
import { isRetryableStatus, ServiceError } from './service-error.js';

/** The longest lme waits before any one retry, whoever asks (a server's `retry-after` included). */
export const MAX_RETRY_WAIT_MS = 30_000;

export type JsonClientOptions = {
  /** Base URL without a trailing slash; request paths are appended. */
  baseUrl: string;
  /** Sent with every request (e.g. the auth header). */
  headers?: Readonly<Record<string, string>>;
  /** Budget of one attempt (headers and body); an attempt over it is retried like a dropped connection. */
  timeoutMs: number;
  /**
   * Once a reply has begun (its headers are in), the longest wait for its next bytes: a server
   * sending a byte a second fails after this, not after `timeoutMs`. Unset: `timeoutMs` alone.
   */
  idleTimeoutMs?: number;
  /** Extra attempts after a 408, 429, 5xx, a timeout or a dropped connection. */
  maxRetries: number;
  /** First backoff delay; doubled per attempt. Default 500 ms. */
  retryBaseDelayMs?: number;
  /** Ceiling of any one wait, including a server's `retry-after`. Default 30 s. */
  maxRetryDelayMs?: number;
  /**
   * Ceiling of all the waits of this client together (a run's): once spent, a failure is final.
   * Default 10 min, so a server answering `retry-after: 100000` cannot stretch a run to hours.
   */
  maxTotalRetryWaitMs?: number;
  /**
   * Requests in a row that may fail (each after its retries) before the client stops calling the
   * server: later requests fail at once, saying so. Default 5.
   */
  maxConsecutiveFailures?: number;
  /** Applied to every error message (whatever the server sends back is quoted in them). */
  redact?: (text: string) => string;
  /** Appended to the message of a 401 or 403. */
  authHint?: string;
  /** Waits between attempts; injectable for tests. Default: a timer, cancelled by the signal. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** How requests go out. Default: Node's `fetch`; `createNodeHttpTransport()` for many small requests. */
  transport?: HttpTransport;
};

export type JsonRequest = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
  /** The body as JSON the caller wrote itself, as text or UTF-8 bytes (Qdrant's upserts); instead of `body`. */
  rawBody?: string | Uint8Array;
  /** Prefix of error messages, e.g. `question q1: `. */
  context?: string;
  signal?: AbortSignal;
};

/** A request that failed; `retryable` says whether another attempt could succeed. */
export class JsonRequestError extends ServiceError {
  override readonly name = 'JsonRequestError';
  constructor(
    message: string,
    retryable: boolean,
    status?: number,
    /** How long the server asked to wait (`retry-after`), when it did. */
    readonly retryAfterMs?: number,
  ) {
    super(message, { retryable, status });
  }
}

export type JsonClient = {
  /** One request with timeout and retries; resolves to the parsed JSON body (undefined if empty). */
  request(request: JsonRequest): Promise<unknown>;
};

/**
 * The JSON-over-HTTP client of every server lme calls outside the OpenAI SDK (a provider, a rerank
 * service, an endpoint probe): per-attempt timeout, one retry policy (408, 429, 5xx, timeouts and
 * dropped connections, by p-retry with exponential backoff; a server's `retry-after` in seconds or
 * as an HTTP date honoured up to `maxRetryDelayMs`), replies capped at `MAX_REPLY_BYTES`, and one
 * sentence per failure naming the request, passed through `redact`.
 */
export function createJsonClient(options: JsonClientOptions): JsonClient {
  const retryBaseDelayMs = options.retryBaseDelayMs ?? 500;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? MAX_RETRY_WAIT_MS;
  const maxTotalRetryWaitMs = options.maxTotalRetryWaitMs ?? 10 * 60_000;
  const maxConsecutiveFailures = options.maxConsecutiveFailures ?? 5;
  let waited = 0;
  let failuresInARow = 0;
  let lastFailure = '';
  const redact = options.redact ?? ((text: string) => text);
  const sleep = options.sleep ?? ((ms, signal) => wait(ms, undefined, { signal }));

  async function attempt(request: JsonRequest, payload: string | Uint8Array | undefined, number: number) {
    const { method, signal } = request;
    const url = `${options.baseUrl}${request.path}`;
    const where = `${request.context ?? ''}${method} ${url}`;
    const after = number === 1 ? '' : ` after ${number} attempts`;
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (payload !== undefined) headers['content-type'] = 'application/json';
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const idle = new AbortController();
    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    const { idleTimeoutMs } = options;
    const touch =
      idleTimeoutMs === undefined
        ? undefined
        : () => {
            clearTimeout(idleTimer);
            idleTimer = setTimeout(() => idle.abort(), idleTimeoutMs);
          };
    const combined = AbortSignal.any([timeout, idle.signal, ...(signal ? [signal] : [])]);
    let status = 0;
    let retryAfter: string | null = null;
    let location: string | null = null;
    let text: string;
    try {
      // Redirects are not followed: a provider's data and key would go to an address nobody set.
      if (options.transport) {
        const reply = await options.transport(
          { url, method, headers, ...(payload !== undefined ? { body: payload } : {}), signal: combined },
          where,
        );
        ({ status, text } = reply);
        retryAfter = reply.header('retry-after');
        location = reply.header('location');
      } else {
        const response = await fetch(url, {
          method,
          headers,
          body: payload,
          signal: combined,
          redirect: 'manual',
        });
        touch?.();
        status = response.status;
        retryAfter = response.headers.get('retry-after');
        location = response.headers.get('location');
        text = await readCappedText(response, where, undefined, touch);
      }
    } catch (error) {
      if (error instanceof ReplyTooLargeError)
        throw new AbortError(new JsonRequestError(redact(error.message), false, status || undefined));
      if (signal?.aborted) {
        const reason: unknown = signal.reason;
        throw new AbortError(reason instanceof Error ? reason : new Error(String(reason)));
      }
      const reason = timeout.aborted
        ? `timed out after ${options.timeoutMs} ms${number === 1 ? '' : ` (${number} attempts)`}`
        : idle.signal.aborted
          ? `sent no byte of its reply for ${idleTimeoutMs} ms${after}`
          : `failed: ${describeNetworkError(error)}${after}`;
      throw new JsonRequestError(redact(`${where} ${reason}.`), true);
    } finally {
      clearTimeout(idleTimer);
    }
    if (status >= 300 && status < 400) {
      const message = `${where} answered HTTP ${status}, a redirect to ${redirectTarget(location, url)}; lme does not follow redirects (its requests carry the data and the key): set the address that answers.`;
      throw new AbortError(new JsonRequestError(redact(message), false, status));
    }
    if (status >= 200 && status < 300) {
      if (text.trim() === '') return undefined;
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        const message = `${where} returned invalid JSON (${(error as Error).message}): ${excerpt(redact(text))}`;
        throw new AbortError(new JsonRequestError(redact(message), false, status));
      }
    }
    const hint = status === 401 || status === 403 ? (options.authHint ?? '') : '';
    const failure = new JsonRequestError(
      // Redacted before and after quoting: a cut must not leave part of a secret behind.
      redact(`${where} failed: HTTP ${status}${serverMessage(redact(text))}${after}.${hint}`),
      isRetryableStatus(status),
      status,
      parseRetryAfter(retryAfter) ?? undefined,
    );
    throw failure.retryable ? failure : new AbortError(failure);
  }

  return {
    async request(request) {
      if (failuresInARow >= maxConsecutiveFailures) {
        throw new JsonRequestError(
          redact(
            `${request.context ?? ''}${request.method} ${options.baseUrl}${request.path} not sent: the last ${failuresInARow} requests to ${options.baseUrl} failed (the last: ${lastFailure}); lme stopped calling it. Check the server, then resume the run.`,
          ),
          false,
        );
      }
      const payload =
        request.rawBody ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
      let budgetSpent = false;
      try {
        const body = await pRetry((number) => attempt(request, payload, number), {
          retries: options.maxRetries,
          // The waits are ours (retry-after aware, injectable); p-retry adds none.
          minTimeout: 0,
          ...(request.signal ? { signal: request.signal } : {}),
          shouldRetry: async ({ error, retriesConsumed }) => {
            if (!(error instanceof JsonRequestError) || !error.retryable) return false;
            const asked = error.retryAfterMs ?? retryBaseDelayMs * 2 ** retriesConsumed;
            const delay = Math.min(Math.max(asked, 0), maxRetryDelayMs);
            if (waited + delay > maxTotalRetryWaitMs) {
              budgetSpent = true;
              return false;
            }
            waited += delay;
            await sleep(delay, request.signal);
            return true;
          },
        });
        failuresInARow = 0;
        return body;
      } catch (error) {
        if (request.signal?.aborted) throw error;
        // Server trouble (5xx, 429, timeouts, dropped connections) counts; a refused request does not.
        if (budgetSpent || (error instanceof JsonRequestError && error.retryable)) {
          failuresInARow += 1;
          lastFailure = (error as Error).message;
        }
        if (budgetSpent && error instanceof JsonRequestError) {
          throw new JsonRequestError(
            `${error.message} Not retried: this run already waited ${Math.round(waited / 1000)} s for ${options.baseUrl}, the most it waits (${Math.round(maxTotalRetryWaitMs / 1000)} s).`,
            false,
            error.status,
          );
        }
        throw error;
      }
    },
  };
}

/** `retry-after` in seconds or as an HTTP date → milliseconds; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** ` (server said: ...)` from a `{error: {message}}` body, or a short excerpt of any other body. */
function serverMessage(text: string): string {
  if (text.trim() === '') return '';
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown }; status?: { error?: unknown } };
    if (typeof body?.error?.message === 'string') return ` (server said: ${excerpt(body.error.message)})`;
    // Qdrant's shape.
    if (typeof body?.status?.error === 'string') return ` (server said: ${excerpt(body.status.error)})`;
  } catch {
    // not JSON: quote the text
  }
  return ` (body: ${excerpt(text)})`;
}

/** Where a redirect points, as scheme, host, port and path (never credentials or a query). */
function redirectTarget(location: string | null, from: string): string {
  if (location === null) return '(no Location)';
  try {
    const target = new URL(location, from);
    return `${target.origin}${target.pathname}`;
  } catch {
    return '(an unreadable Location)';
  }
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

/**
 * The socket's own error behind `fetch failed` (fetch puts it in `cause`, node:http throws it):
 * `ECONNREFUSED (connect ECONNREFUSED 127.0.0.1:6333)`, `ENOTFOUND (getaddrinfo ENOTFOUND qdrant)`,
 * `DEPTH_ZERO_SELF_SIGNED_CERT (self-signed certificate)`.
 */
export function describeNetworkError(error: unknown): string {
  let cause = error as { cause?: unknown; code?: unknown; message?: string } | undefined;
  // fetch wraps the socket error once (sometimes twice); take the innermost one with a code.
  for (let depth = 0; depth < 4 && cause; depth++) {
    if (typeof cause.code === 'string' && cause.code !== 'UND_ERR_SOCKET' && cause.code !== 'ABORT_ERR')
      return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`;
    cause = cause.cause as typeof cause;
  }
  const inner = (error as { cause?: { message?: string } }).cause?.message;
  return inner ? `${(error as Error).message} (${inner})` : (error as Error).message;
}
