import { join } from 'node:path';
import type { ComponentOptions } from '../../components/component.js';
import { addSecret } from '../../config/secrets.js';
import type { ProviderDescriptor } from '../provider-descriptor.js';
import type { ExternalMemoryDescriptor } from './external-memory-descriptor.js';
import { createExternalProvider } from './external-provider.js';

/**
 * An external memory system's descriptor as a provider: its memory (made with the run's
 * environment, request budget and a work folder under the cache) driven by the external provider.
 * Its credentials come from the environment variables `capabilities.apiKeyEnv` names, each
 * registered as a secret before the system sees it; an unset one stops the run in one sentence.
 */
export function externalProviderDescriptor<O extends ComponentOptions>(
  descriptor: ExternalMemoryDescriptor<O>,
): ProviderDescriptor<O> {
  return {
    name: descriptor.name,
    description: descriptor.description,
    options: descriptor.options,
    capabilities: { ...descriptor.capabilities, external: true },
    create({ sections, options, runId, environment, benchmark }) {
      const { provider, retrieval, run } = sections;
      for (const name of descriptor.capabilities.apiKeyEnv ?? []) {
        const value = environment[name];
        if (!value) {
          throw new Error(
            `--provider ${descriptor.name} needs its API key in the environment variable ${name}, which is not set.`,
          );
        }
        addSecret(value);
      }
      const memory = descriptor.createMemory(options, {
        environment,
        timeoutMs: provider.providerTimeoutMs,
        maxRetries: provider.providerMaxRetries,
        workDir: join(run.cacheDir, 'providers', descriptor.name),
        processes: run.concurrency,
      });
      return createExternalProvider(memory, {
        name: descriptor.name,
        granularity: retrieval.granularity,
        indexRoles: retrieval.indexRoles,
        benchmark,
        ...(retrieval.topK === undefined ? {} : { topK: retrieval.topK }),
        namespacePrefix: runId,
        ...(descriptor.capabilities.freshPerQuestion ? { freshPerQuestion: true } : {}),
      });
    },
  };
}
