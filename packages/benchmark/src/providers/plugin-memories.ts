import type { PluginKind } from '../components/plugins/plugin-kind.js';
import { externalProviderDescriptor } from './external/external-descriptor.js';
import type { ExternalMemoryDescriptor } from './external/external-memory-descriptor.js';
import { EXTERNAL_MEMORIES } from './external-memory-registry.js';
import { PROVIDERS } from './provider-registry.js';

/**
 * A plugin's external memory systems (`memories`: `ExternalMemoryDescriptor`s), added to
 * `--provider`'s registry as an external memory folder's registry line would add them.
 */
export const MEMORY_PLUGIN_KIND: PluginKind = {
  word: 'provider',
  registry: () => PROVIDERS,
  lacks(memory) {
    if (typeof memory.createMemory !== 'function') return 'needs a createMemory function';
    const options = memory.options as { safeParse?: unknown } | undefined;
    if (typeof options?.safeParse !== 'function' || typeof memory.capabilities !== 'object')
      return 'needs a zod options object and capabilities';
    return undefined;
  },
  add(memory: ExternalMemoryDescriptor) {
    const memories = EXTERNAL_MEMORIES as Record<string, ExternalMemoryDescriptor>;
    const providers = PROVIDERS as Record<string, unknown>;
    memories[memory.name] = memory;
    providers[memory.name] = externalProviderDescriptor(memory);
    return () => {
      delete memories[memory.name];
      delete providers[memory.name];
    };
  },
};
