import { RERANKER_KINDS, rerankEndpoint } from '@lme/search-core';
import { z } from 'zod';
import type { ComponentOption } from '../../component.js';
import { endpointUrl } from '../../setting-values.js';
import { RERANK_DEPTH_OPTION } from '../rerank-depth-option.js';
import { defineReranker, type RerankerServer } from '../reranker-descriptor.js';

const HTTP_OPTIONS = {
  rerankDepth: RERANK_DEPTH_OPTION,
  /** Model named in the body of an `http:` reranker request. */
  rerankModel: {
    schema: z.string().min(1).default('rerank'),
    flags: '--rerank-model <model>',
    group: 'stages',
    help: 'model sent to an http: reranker',
  },
  /** Environment variable holding the `http:` reranker's key (only its name is recorded). */
  rerankKeyEnv: {
    schema: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name')
      .optional(),
    flags: '--rerank-key-env <name>',
    group: 'stages',
    help: 'environment variable holding the http: reranker key (only its name is recorded)',
    measures: false,
  },
} as const satisfies Record<string, ComponentOption>;

/** The key `--rerank-key-env` names, read from the environment; refused when the variable is unset. */
function keyOf(
  keyEnv: string | undefined,
  environment: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const apiKey = keyEnv ? environment[keyEnv] : undefined;
  if (keyEnv && !apiKey)
    throw new Error(`--rerank-key-env names ${keyEnv}, which is not set in the environment.`);
  return apiKey;
}

/**
 * `http:<url>`: a rerank service speaking the /rerank wire format (Cohere, Jina, Voyage, TEI), sent
 * `--rerank-model`, its key read from the variable `--rerank-key-env` names (redacted from every
 * output, never stored).
 */
export const HTTP_RERANKER = defineReranker({
  name: 'http',
  description: 'a rerank service at a URL (the /rerank wire format)',
  options: HTTP_OPTIONS,
  capabilities: { form: 'http:<url>', chatModel: false, server: true },
  // config.json stores the id: the URL is held to the endpoint rules (no key in it).
  argument: {
    schema: endpointUrl,
    message:
      'an http: reranker is http:<base URL> (for example http:https://host/v1), without credentials, query string or fragment (keys go in --rerank-key-env)',
  },
  create: (argument, options, dependencies) => {
    const url = dependencies.checkEndpointUrl(argument, '--reranker http:<url>');
    const apiKey = keyOf(options.rerankKeyEnv, dependencies.environment);
    dependencies.addSecret(apiKey);
    return RERANKER_KINDS.http(url, {
      http: {
        model: options.rerankModel,
        maxRetries: dependencies.maxRetries,
        timeoutMs: dependencies.timeoutMs,
        ...(apiKey ? { apiKey } : {}),
        ...(dependencies.cacheDir ? { cacheDir: dependencies.cacheDir } : {}),
      },
    });
  },
  pricedModel: (_argument, options) => options.rerankModel,
  // One call, billed by the service (its tokens counted as prompt tokens).
  planCalls: ({ depth, candidateTokens, queryTokens }) => ({
    calls: 1,
    promptTokens: depth * (candidateTokens + queryTokens),
    completionTokens: 0,
  }),
  probe: (argument, options, dependencies): RerankerServer => {
    const base = dependencies.checkEndpointUrl(argument, '--reranker http:<url>');
    const apiKey = options.rerankKeyEnv ? dependencies.environment[options.rerankKeyEnv] : undefined;
    return {
      who: `the reranker (${options.rerankModel})`,
      named: `--reranker http:${base}`,
      url: rerankEndpoint(base),
      headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
      secrets: apiKey ? [apiKey] : [],
      keyHint: options.rerankKeyEnv
        ? `check the key in ${options.rerankKeyEnv} (--rerank-key-env)`
        : 'name the variable holding its key with --rerank-key-env',
    };
  },
});
