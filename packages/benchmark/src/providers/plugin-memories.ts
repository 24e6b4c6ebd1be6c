import type { PluginKind } from '../components/plugins/plugin-kind.js';
import { defineProviderOptions, type ProviderOptionInput } from '../components/provider-options.js';
import { externalProviderDescriptor } from './external/external-descriptor.js';
import type { ExternalMemoryDescriptor } from './external/external-memory-descriptor.js';
import { EXTERNAL_MEMORIES } from './external-memory-registry.js';
import { PROVIDERS } from './provider-registry.js';

/**
 * A plugin's external memory systems (`memories`: `ExternalMemoryDescriptor`s, their options a
 * `{ schema, help }` record each), added to `--provider`'s registry as an external memory folder's
 * registry line would add them, their options made lme's own providers' (flag and help section
 * follow from each key).
 */
export const MEMORY_PLUGIN_KIND: PluginKind = {
  word: 'provider',
  registry: () => PROVIDERS,
  lacks(memory) {
    if (typeof memory.createMemory !== 'function') return 'needs a createMemory function';
    const options = memory.options as Record<string, Partial<ProviderOptionInput>> | null | undefined;
    if (typeof options !== 'object' || options === null || typeof memory.capabilities !== 'object')
      return 'needs options and capabilities objects';
    if (typeof (options as { safeParse?: unknown }).safeParse === 'function')
      return 'gives its options as one zod object; give a record per option ({ schema, help }, docs/plugins.md)';
    for (const [key, option] of Object.entries(options))
      if (
        typeof option?.schema?.safeParse !== 'function' ||
        typeof option.help !== 'string' ||
        option.help === ''
      )
        return `needs a zod schema and help for its option "${key}"`;
    return undefined;
  },
  add(memory: ExternalMemoryDescriptor) {
    const registered = { ...memory, options: defineProviderOptions(memory.options) };
    const memories = EXTERNAL_MEMORIES as Record<string, ExternalMemoryDescriptor>;
    const providers = PROVIDERS as Record<string, unknown>;
    memories[memory.name] = registered;
    providers[memory.name] = externalProviderDescriptor(registered);
    return () => {
      delete memories[memory.name];
      delete providers[memory.name];
    };
  },
};
