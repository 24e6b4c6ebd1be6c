import {
  createJsonClient,
  type JsonClientOptions,
  PROBE_TIMEOUT_MS,
  ProbeError,
  probeEndpoint,
  redactSecrets,
} from '@lme/search-core';
import { addSecret, checkEndpointUrl, redact as redactRegistered } from '../../config/secrets.js';
import { identityText, type ProviderIdentity, publicUrl } from '../../results/provider-identity.js';
import type { ExternalMemory } from '../external/external-memory.js';
import {
  describeIssues,
  type HealthResponse,
  healthResponseSchema,
  ingestResponseSchema,
  type SearchRequest,
  searchResponseSchema,
} from './protocol.js';

/** How to reach a server speaking docs/provider-protocol.md. */
export type HttpMemoryOptions = {
  /** Base URL of the server, e.g. `http://127.0.0.1:8787` (the `/v1/...` paths are added). */
  url: string;
  /** Name of the environment variable holding the auth header's whole value (`Bearer sk-...`). */
  authHeaderEnv?: string;
  /** Header the value goes in; default `Authorization`. */
  authHeaderName?: string;
  /** Where `authHeaderEnv` is looked up; default `process.env`. */
  environment?: Readonly<Record<string, string | undefined>>;
  /** Budget of one HTTP request attempt (headers and body). */
  timeoutMs: number;
  /** Once a reply has begun, the longest wait for its next bytes (a bridge: `--provider-timeout`). */
  idleTimeoutMs?: number;
  /** Extra attempts after a 408, 429, 5xx, a timeout or a dropped connection. */
  maxRetries: number;
  /** First backoff delay; doubled per attempt. Default 500 ms. */
  retryBaseDelayMs?: number;
  /** Ceiling of any one wait, including a server's `retry-after`. Default 30 s. */
  maxRetryDelayMs?: number;
  /** Waits between attempts (tests inject one). */
  sleep?: JsonClientOptions['sleep'];
  /** The provider kind recorded with the results; default `http` (a bridge gives its name). */
  kind?: string;
  /** How messages name the server; default `--provider-url <url>` (a bridge: `the mem0 bridge at <url>`). */
  named?: string;
};

/** The protocol client, with what the http provider needs beyond `ExternalMemory`. */
export type HttpMemory = ExternalMemory & {
  /** `GET /v1/health`, retried like any request. */
  health(options?: { signal?: AbortSignal }): Promise<HealthResponse>;
  /** Removes the auth header value (whole, its token part, or any start of it) and every registered secret. */
  redact(text: string): string;
};

/**
 * The harness side of the HTTP protocol as an `ExternalMemory`: one request per call, retried by
 * the one JSON client, every message with the auth header value and every other secret of the
 * process redacted. Replies are checked against the protocol's schemas; a bad one is one sentence
 * naming the request and the field.
 */
export function createHttpMemory(options: HttpMemoryOptions): HttpMemory {
  const base = checkEndpointUrl(options.url, '--provider-url').replace(/\/+$/, '');
  const named = options.named ?? `--provider-url ${base}`;
  const environment = options.environment ?? process.env;
  const headerName = options.authHeaderName ?? 'Authorization';
  let secret: string | undefined;
  if (options.authHeaderEnv !== undefined) {
    secret = environment[options.authHeaderEnv];
    if (!secret) {
      throw new Error(
        `The environment variable ${options.authHeaderEnv} (named by --provider-auth-env) is not set; it must hold the ${headerName} header value.`,
      );
    }
    addSecret(secret);
  }
  const redact = (text: string) => redactRegistered(secret ? redactSecrets(text, [secret]) : text);
  const identity: ProviderIdentity = { kind: options.kind ?? 'http', url: publicUrl(base) };
  const client = createJsonClient({
    baseUrl: base,
    headers: secret ? { [headerName]: secret } : {},
    timeoutMs: options.timeoutMs,
    ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }),
    maxRetries: options.maxRetries,
    redact,
    authHint: options.authHeaderEnv
      ? ` Check the ${headerName} value in ${options.authHeaderEnv}.`
      : ' The server wants credentials: name the variable holding them with --provider-auth-env.',
    ...(options.retryBaseDelayMs === undefined ? {} : { retryBaseDelayMs: options.retryBaseDelayMs }),
    ...(options.maxRetryDelayMs === undefined ? {} : { maxRetryDelayMs: options.maxRetryDelayMs }),
    ...(options.sleep ? { sleep: options.sleep } : {}),
  });
  const post = (path: string, body: unknown, signal: AbortSignal | undefined) =>
    client.request({ method: 'POST', path, body, ...(signal ? { signal } : {}) });

  return {
    redact,
    identity: () => ({ ...identity }),
    async health({ signal } = {}) {
      const body = await client.request({ method: 'GET', path: '/v1/health', ...(signal ? { signal } : {}) });
      const parsed = healthResponseSchema.safeParse(body);
      if (!parsed.success) {
        throw new Error(
          redact(`GET ${base}/v1/health: unexpected response (${describeIssues(parsed.error)}).`),
        );
      }
      return parsed.data;
    },
    async preflight({ signal } = {}) {
      try {
        const body = await probeEndpoint({
          url: `${base}/v1/health`,
          headers: secret ? { [headerName]: secret } : {},
          timeoutMs: Math.min(options.timeoutMs, PROBE_TIMEOUT_MS),
          redact,
          ...(signal ? { signal } : {}),
        });
        // Informational: a reply without them (or not JSON) still lets the run go on. Stored with
        // the results, so never with a secret the server might echo.
        const reported = (body ?? {}) as { name?: unknown; version?: unknown };
        const name = identityText(reported.name);
        const version = identityText(reported.version);
        if (name !== undefined) identity.name = redact(name);
        if (version !== undefined) identity.version = redact(version);
      } catch (error) {
        if (!(error instanceof ProbeError)) throw error;
        const auth = options.authHeaderEnv
          ? ` check the ${headerName} value in ${options.authHeaderEnv} (--provider-auth-env)`
          : ' name the variable holding its credentials with --provider-auth-env';
        throw new Error(
          redact(
            error.reason === 'unreachable'
              ? `The provider at ${named} does not answer (${error.detail}): is the server running at that URL?`
              : `The provider at ${named} refused lme's credentials (${error.detail}):${auth}.`,
          ),
        );
      }
    },
    async reset(namespace, { signal } = {}) {
      await post('/v1/reset', { namespace }, signal);
    },
    async ingest(namespace, sessions, { signal } = {}) {
      const body = await post('/v1/ingest', { namespace, sessions }, signal);
      // Any reply will do; `usage`, when there, must be well formed.
      if (typeof body !== 'object' || body === null || !('usage' in body)) return {};
      const parsed = ingestResponseSchema.safeParse(body);
      if (!parsed.success) {
        throw new Error(
          `POST ${base}/v1/ingest returned an unexpected body (${describeIssues(parsed.error)}).`,
        );
      }
      const usage = parsed.data.usage;
      if (!usage) return {};
      return { usage: { ...usage, ...(usage.model ? { model: redact(usage.model) } : {}) } };
    },
    async search(request, { signal } = {}) {
      const body: SearchRequest = {
        namespace: request.namespace,
        query: request.query,
        ...(request.queryDate === undefined ? {} : { query_date: request.queryDate }),
        top_k: request.topK,
        granularity: request.granularity,
      };
      const reply = await post('/v1/search', body, signal);
      const parsed = searchResponseSchema.safeParse(reply);
      if (!parsed.success) {
        throw new Error(
          `POST ${base}/v1/search returned an unexpected body (${describeIssues(parsed.error)}).`,
        );
      }
      return parsed.data;
    },
  };
}

/** Where hit errors of the http provider point: the search URL. */
export function searchUrlOf(url: string): string {
  return `${url.replace(/\/+$/, '')}/v1/search`;
}
