import type { Benchmark } from '../../benchmarks/benchmark.js';
import type { Granularity, IndexRoles } from '../../benchmarks/build-corpus.js';
import { createExternalProvider, type ExternalProvider } from '../external/external-provider.js';
import { createHttpMemory, type HttpMemoryOptions, searchUrlOf } from './http-memory.js';
import type { HealthResponse } from './protocol.js';

/**
 * An external memory system spoken to over the HTTP+JSON protocol of `docs/provider-protocol.md`:
 * the protocol client (`createHttpMemory`) driven by the external provider, which sends every
 * haystack once under opaque ids and maps the hits back.
 */
export type HttpProviderOptions = HttpMemoryOptions & {
  /** Hits asked of the server; default every document of the haystack. */
  topK?: number;
  granularity: Granularity;
  /** Which turns are sent, and graded: the same documents as the in-process pipeline. */
  indexRoles: IndexRoles;
  /** The run's benchmark, found once (how the documents are keyed); default: each record's. */
  benchmark?: Benchmark | undefined;
  /** Namespace prefix (the run id, or a function giving it); a random one by default. */
  namespacePrefix?: string | (() => string);
  /** Sessions per ingest request; default 100. */
  ingestBatchSize?: number;
  /** A namespace per question, never shared. */
  freshPerQuestion?: boolean;
};

/** `GET /v1/health`. */
export type HealthResult = HealthResponse;

export type HttpProvider = ExternalProvider & {
  health(options?: { signal?: AbortSignal }): Promise<HealthResult>;
};

/**
 * The harness side of the protocol: a Provider whose rankings come from an external server. Every
 * failure is thrown as one Error naming the question, the request and the problem, with the auth
 * header value (whole, its token part, or any start of it) and every other secret of the process
 * redacted; the runner stores it in the question's sample and goes on.
 */
export function createHttpProvider(options: HttpProviderOptions): HttpProvider {
  const memory = createHttpMemory(options);
  const provider = createExternalProvider(memory, {
    name: 'http',
    granularity: options.granularity,
    indexRoles: options.indexRoles,
    benchmark: options.benchmark,
    ...(options.topK === undefined ? {} : { topK: options.topK }),
    ...(options.namespacePrefix === undefined ? {} : { namespacePrefix: options.namespacePrefix }),
    ...(options.ingestBatchSize === undefined ? {} : { ingestBatchSize: options.ingestBatchSize }),
    ...(options.freshPerQuestion ? { freshPerQuestion: true } : {}),
    searchLabel: `POST ${searchUrlOf(options.url)}`,
    redact: memory.redact,
  });
  return { ...provider, id: `http:${options.url.replace(/\/+$/, '')}`, health: memory.health };
}
