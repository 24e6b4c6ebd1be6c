import {
  checkQdrantVersion,
  createQdrantGrpc,
  createQdrantHttp,
  PROBE_TIMEOUT_MS,
  ProbeError,
  probeEndpoint,
  QdrantGrpcError,
  redactSecrets,
  safeUrl,
} from '@lme/search-core';
import type { RerankerServer } from '../../components/rerankers/reranker-descriptor.js';
import { resolveReranker } from '../../config/component-ids.js';
import { apiKeyVariables, endpointSource, resolveOpenAiEndpoint } from '../../config/openai-endpoints.js';
import type { RunSections } from '../../config/run-sections.js';
import { partsEmbed, reranks } from '../../config/run-shape.js';
import { checkEndpointUrl, redact } from '../../config/secrets.js';
import { qdrantSettings } from '../../providers/pipeline/vector-stores.js';
import type { Provider } from '../../providers/provider.js';
import { providerCapabilities } from '../../providers/provider-registry.js';
import { llmRoles } from './preflight.js';

const OPENAI_API = 'https://api.openai.com/v1';

/** One server a run will call, and how to name it in a sentence. */
/** One server the run calls, as preflight probes it: a reranker's (its family's `probe`) or an LLM endpoint. */
type ServerCheck = RerankerServer;

/**
 * Asks every server a run will call whether it answers, before the first question: the provider's
 * `GET /v1/health` (through `provider.preflight`), each OpenAI-compatible endpoint of the reader,
 * judge and pipeline models (`GET <base>/models`, which costs nothing on the OpenAI API and is
 * served by local OpenAI-compatible servers; a 404 from one that lacks it still shows a live
 * server), and an `http:` reranker (a GET of its rerank URL). One attempt each, at most
 * PROBE_TIMEOUT_MS, all at once; a server that does not answer, or refuses the credentials, stops
 * the run with one sentence naming the flag and the URL.
 */
export async function checkServers(options: {
  /** The run's settings grouped by owner: the LLM roles', the selected reranker with its options, the vector store. */
  sections: RunSections;
  provider: Provider;
  environment?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}): Promise<void> {
  const { sections, provider, signal } = options;
  const environment = options.environment ?? process.env;
  const timeoutMs = Math.min(sections.qa.timeoutMs, PROBE_TIMEOUT_MS);
  const probes: Promise<void>[] = [];
  if (provider.preflight) probes.push(provider.preflight(signal ? { signal } : {}));
  for (const check of serverChecks(sections, environment)) {
    probes.push(
      probeEndpoint({
        url: check.url,
        headers: check.headers,
        timeoutMs,
        redact: (text) => redact(redactSecrets(text, check.secrets)),
        ...(signal ? { signal } : {}),
      }).then(
        () => undefined,
        (error: unknown) => {
          if (!(error instanceof ProbeError)) throw error;
          throw new Error(redact(redactSecrets(describe(check, error), check.secrets)));
        },
      ),
    );
  }
  const settled = await Promise.allSettled(probes);
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  if (usesQdrant(sections)) {
    // It answers: now its version (older servers are refused before any haystack is embedded).
    const { url, apiKey, grpcUrl } = qdrantSettings(environment);
    const http = createQdrantHttp({ url, ...(apiKey ? { apiKey } : {}), timeoutMs, maxRetries: 0 });
    try {
      const version = await checkQdrantVersion(http, signal ? { signal } : {});
      if (grpcUrl) await checkQdrantGrpc({ grpcUrl, apiKey, timeoutMs, version, signal });
    } finally {
      http.close();
    }
  }
}

/**
 * QDRANT_GRPC_URL answers Qdrant's HealthCheck with QDRANT_URL's version (the same server), or the
 * run stops with one sentence naming it.
 */
async function checkQdrantGrpc(options: {
  grpcUrl: string;
  apiKey: string | undefined;
  timeoutMs: number;
  version: string;
  signal: AbortSignal | undefined;
}): Promise<void> {
  const { grpcUrl, apiKey, version } = options;
  const grpc = createQdrantGrpc({
    url: grpcUrl,
    ...(apiKey ? { apiKey } : {}),
    timeoutMs: options.timeoutMs,
    maxRetries: 0,
  });
  const named = `QDRANT_GRPC_URL ${safeUrl(grpcUrl)}`;
  try {
    const grpcVersion = await grpc.version(options.signal).catch((error: unknown) => {
      if (options.signal?.aborted) throw error;
      const cause = error instanceof QdrantGrpcError ? error.detail : (error as Error).message;
      const detail = redact(redactSecrets(cause, apiKey ? [apiKey] : []));
      throw new Error(
        `The Qdrant vector store's gRPC endpoint at ${named} does not answer (${detail}): is it Qdrant's gRPC port (6334 by default)?`,
      );
    });
    if (grpcVersion !== version) {
      throw new Error(
        `${named} is Qdrant ${grpcVersion} and QDRANT_URL is ${version}: both must be the same server.`,
      );
    }
  } finally {
    grpc.close();
  }
}

const usesQdrant = (sections: RunSections) =>
  sections.embedding.vectorStore === 'qdrant' &&
  partsEmbed(sections, providerCapabilities(sections.provider.provider));

function describe(check: ServerCheck, error: ProbeError): string {
  const where = `${check.who} at ${check.named}`;
  return error.reason === 'unreachable'
    ? `${capitalise(where)} does not answer (${error.detail}): is the server running at that URL?`
    : `${capitalise(where)} refused its credentials (${error.detail}): ${check.keyHint}.`;
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The servers a run calls besides the provider, one check per distinct URL and key. */
export function serverChecks(sections: RunSections, environment: NodeJS.ProcessEnv): ServerCheck[] {
  const checks = new Map<string, ServerCheck>();
  const add = (check: ServerCheck) => {
    const key = `${check.url}\n${check.headers.authorization ?? ''}`;
    const known = checks.get(key);
    if (known) known.who = `${known.who} and ${check.who}`;
    else checks.set(key, check);
  };
  const roles = llmRoles(sections).map((role) => ({
    who: `the ${role.role} (${role.model})`,
    endpoint: role.endpoint,
  }));
  const { reranker, qa } = sections;
  if (reranker && reranks({ reranker: reranker.id }, providerCapabilities(sections.provider.provider))) {
    // A chat model is probed at the pipeline's endpoint; a rerank server by its family's probe.
    const { descriptor, argument } = resolveReranker(reranker.id);
    if (descriptor.capabilities.chatModel)
      roles.push({ who: `the reranker (${argument})`, endpoint: 'pipeline' });
    if (descriptor.capabilities.server && descriptor.probe)
      add(descriptor.probe(argument, reranker.options, { environment, checkEndpointUrl }));
  }
  if (usesQdrant(sections)) {
    const { url, apiKey } = qdrantSettings(environment);
    add({
      who: 'the Qdrant vector store',
      named: `QDRANT_URL ${safeUrl(url)}`,
      url: `${url.replace(/\/+$/, '')}/`,
      // As every Qdrant call (qdrant-collection.ts): a gzip reply waits ~40 ms on Qdrant's Nagle.
      headers: { 'accept-encoding': 'identity', ...(apiKey ? { 'api-key': apiKey } : {}) },
      secrets: apiKey ? [apiKey] : [],
      keyHint: 'check QDRANT_API_KEY',
    });
  }
  for (const { who, endpoint } of roles) {
    const resolved = resolveOpenAiEndpoint(qa, endpoint, environment);
    const base = (resolved.baseURL ?? OPENAI_API).replace(/\/+$/, '');
    add({
      who,
      named: `${endpointSource(qa, endpoint, environment)} ${base}`,
      url: `${base}/models`,
      headers: resolved.apiKey ? { authorization: `Bearer ${resolved.apiKey}` } : {},
      secrets: resolved.apiKey ? [resolved.apiKey] : [],
      keyHint: `check ${apiKeyVariables(endpoint).join(' / ')}`,
    });
  }
  return [...checks.values()];
}
