import { z } from 'zod';
import { defineProviderOptions } from '../../components/provider-options.js';
import type { ProviderDescriptor } from '../provider-descriptor.js';
import { createHttpProvider } from './http-provider.js';

const httpOptions = defineProviderOptions({
  'fresh-per-question': {
    schema: z.boolean().optional(),
    help: 'true: a namespace per question, never shared (a server that must start empty for each)',
  },
  'ingest-batch': {
    schema: z.number().int().min(1).max(10_000).optional(),
    help: 'sessions per ingest request',
    defaultHelp: '100',
  },
});

/** `--provider http`: any server speaking docs/provider-protocol.md at `--provider-url`. */
export const httpDescriptor: ProviderDescriptor<typeof httpOptions> = {
  name: 'http',
  description:
    "an external memory system behind lme's HTTP protocol (--provider-url; docs/provider-protocol.md)",
  options: httpOptions,
  capabilities: {
    external: true,
    answersItself: true,
    ranks: true,
    runKeys: ['providerUrl', 'providerAuthEnv', 'providerAuthHeader'],
  },
  create({ sections, options, runId, environment, benchmark }) {
    const { provider, retrieval } = sections;
    if (!provider.providerUrl) {
      throw new Error(
        '--provider http needs --provider-url <url> (a server speaking docs/provider-protocol.md).',
      );
    }
    return createHttpProvider({
      url: provider.providerUrl,
      authHeaderEnv: provider.providerAuthEnv,
      authHeaderName: provider.providerAuthHeader,
      environment,
      timeoutMs: provider.providerTimeoutMs,
      maxRetries: provider.providerMaxRetries,
      topK: retrieval.topK,
      granularity: retrieval.granularity,
      indexRoles: retrieval.indexRoles,
      benchmark,
      namespacePrefix: runId,
      ...(options['ingest-batch'] === undefined ? {} : { ingestBatchSize: options['ingest-batch'] }),
      ...(options['fresh-per-question'] ? { freshPerQuestion: true } : {}),
    });
  },
};
