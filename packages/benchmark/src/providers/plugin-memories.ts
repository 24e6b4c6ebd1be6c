import type { LoadedPlugin } from '../components/plugins/load-plugins.js';
import { externalProviderDescriptor } from './external/external-descriptor.js';
import type { ExternalMemoryDescriptor } from './external/external-memory-descriptor.js';
import { EXTERNAL_MEMORIES } from './external-memory-registry.js';
import { PROVIDERS } from './provider-registry.js';

/**
 * Adds the external memory systems of loaded plugins (`memories`: `ExternalMemoryDescriptor`s) to
 * `--provider`'s registry, as an external memory folder's registry line would; a provider lme cannot
 * use or whose name is taken is refused in one sentence naming the plugin file.
 */
export function registerPluginMemories(plugins: readonly LoadedPlugin[]): void {
  for (const { file, memories, components } of plugins) {
    for (const memory of memories as ExternalMemoryDescriptor[]) {
      const name = memory?.name;
      if (typeof name !== 'string' || name === '' || typeof memory.createMemory !== 'function')
        throw new Error(
          `Plugin ${file}: an external memory system needs a name and a createMemory function.`,
        );
      if (typeof memory.options?.safeParse !== 'function' || typeof memory.capabilities !== 'object')
        throw new Error(`Plugin ${file}: provider "${name}" needs a zod options object and capabilities.`);
      if (Object.hasOwn(PROVIDERS, name))
        throw new Error(`Plugin ${file}: provider "${name}" is already registered; give it another name.`);
      (EXTERNAL_MEMORIES as Record<string, ExternalMemoryDescriptor>)[name] = memory;
      (PROVIDERS as Record<string, unknown>)[name] = externalProviderDescriptor(memory);
      components.push(`provider ${name}`);
    }
  }
}
