import { setTimeout as wait } from 'node:timers/promises';
import {
  createJsonClient,
  isAuthStatus,
  type JsonClientOptions,
  redactSecrets,
  ServiceError,
} from '@lme/search-core';
import type { z } from 'zod';
import { addSecret, checkEndpointUrl, redact as redactRegistered } from '../../config/secrets.js';
import { type ProviderIdentity, publicUrl } from '../../results/provider-identity.js';
import type { ExternalMemory } from '../external/external-memory.js';
import type { ExternalMemoryDependencies } from '../external/external-memory-descriptor.js';
import { describeIssues } from '../http/protocol.js';

/** What tests may replace in a hosted adapter: the waits between retries and polls. */
export type HostedTestHooks = {
  /** Waits between attempts and between polls; a timer by default. */
  sleep?: NonNullable<JsonClientOptions['sleep']>;
};

export type HostedConnectionOptions = {
  /** The adapter's name (`--provider`), e.g. `mem0-platform`. */
  system: string;
  /** The service as users know it, e.g. `Mem0 Platform`. */
  displayName: string;
  /** The service's base URL (the `base-url` option). */
  baseUrl: string;
  /** The environment variable holding the key; the key is read from nowhere else. */
  apiKeyEnv: string;
  /** The headers that carry the key, in the service's own scheme. */
  authHeaders(key: string): Record<string, string>;
  dependencies: ExternalMemoryDependencies;
  hooks?: HostedTestHooks;
};

export type HostedRequest = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path and query after the base URL, already encoded. */
  path: string;
  body?: unknown;
  signal?: AbortSignal | undefined;
};

/** One hosted service as an adapter speaks to it: the key, the JSON client, the identity. */
export type HostedConnection = {
  /** The base URL without a trailing slash. */
  readonly base: string;
  /** Kind, public URL, and the name and version once known. */
  readonly identity: ProviderIdentity;
  /** One request; the reply checked against `schema` (one sentence when it does not fit). */
  request<T>(schema: z.ZodType<T>, request: HostedRequest): Promise<T>;
  /** As `request`, but a 404 (nothing there) resolves to undefined instead of failing. */
  requestOrMissing<T>(schema: z.ZodType<T>, request: HostedRequest): Promise<T | undefined>;
  /** `text` without the key or any other secret of the process. */
  redact(text: string): string;
  /** The waits between polls (the same injectable sleep as the retries). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
};

/**
 * The connection every hosted adapter (mem0-platform, zep, supermemory, letta) is built on: the
 * key read from its environment variable only and registered as a secret (so no message, result
 * or log can carry it), the base URL checked like every endpoint lme stores, and search-core's
 * one JSON client with its one retry policy (408, 429, 5xx, timeouts; `retry-after` honoured).
 * Failures are one sentence: a refused key names the variable; a reply of the wrong shape names
 * the request and the field.
 */
export function createHostedConnection(options: HostedConnectionOptions): HostedConnection {
  const { system, displayName, apiKeyEnv, dependencies } = options;
  const key = dependencies.environment[apiKeyEnv]?.trim();
  if (!key) {
    throw new Error(
      `${system} needs the API key of ${displayName} in the environment variable ${apiKeyEnv}, which is not set.`,
    );
  }
  addSecret(key);
  const redact = (text: string) => redactRegistered(redactSecrets(text, [key]));
  const base = checkEndpointUrl(options.baseUrl, '--provider-option base-url').replace(/\/+$/, '');
  const identity: ProviderIdentity = { kind: system, url: publicUrl(base), name: displayName };
  const sleep = options.hooks?.sleep;
  const client = createJsonClient({
    baseUrl: base,
    headers: options.authHeaders(key),
    timeoutMs: dependencies.timeoutMs,
    maxRetries: dependencies.maxRetries,
    redact,
    ...(sleep ? { sleep } : {}),
  });

  async function send(request: HostedRequest): Promise<unknown> {
    try {
      return await client.request({
        method: request.method,
        path: request.path,
        ...(request.body === undefined ? {} : { body: request.body }),
        ...(request.signal ? { signal: request.signal } : {}),
      });
    } catch (error) {
      if (request.signal?.aborted) throw error;
      if (error instanceof ServiceError && isAuthStatus(error.status)) {
        throw new ServiceError(
          redact(
            `${displayName} at ${base} refused the key in ${apiKeyEnv} (HTTP ${error.status} on ${request.method} ${pathOnly(request.path)}): check that the variable holds a valid ${displayName} key.`,
          ),
          { retryable: false, status: error.status },
        );
      }
      if (error instanceof ServiceError) {
        throw new ServiceError(redact(`${displayName}: ${error.message}`), {
          retryable: error.retryable,
          status: error.status,
        });
      }
      throw new Error(redact(`${displayName}: ${(error as Error).message}`));
    }
  }

  function check<T>(schema: z.ZodType<T>, body: unknown, request: HostedRequest): T {
    const parsed = schema.safeParse(body);
    if (parsed.success) return parsed.data;
    throw new ServiceError(
      redact(
        `${displayName}: ${request.method} ${base}${pathOnly(request.path)} returned a reply lme cannot read (${describeIssues(parsed.error)}).`,
      ),
      { retryable: false },
    );
  }

  return {
    base,
    identity,
    redact,
    sleep: (ms, signal) => (sleep ? sleep(ms, signal) : wait(ms, undefined, signal ? { signal } : {})),
    async request(schema, request) {
      return check(schema, await send(request), request);
    },
    async requestOrMissing(schema, request) {
      try {
        return check(schema, await send(request), request);
      } catch (error) {
        if (error instanceof ServiceError && error.status === 404) return undefined;
        throw error;
      }
    },
  };
}

/** A request path without its query (a query may carry ids; messages name the route only). */
function pathOnly(path: string): string {
  return path.replace(/\?.*$/, '');
}

/**
 * A hosted adapter as the external provider drives it, plus the count of results it left out
 * because their stored metadata named no session lme sent (see `mapHostedHits`).
 */
export type HostedMemory = ExternalMemory & {
  /** Results dropped so far, over all searches. */
  droppedHits(): number;
};
