import type { LoadedPlugin } from '../components/plugins/load-plugins.js';
import { defineProviderOptions, type ProviderOptionInput } from '../components/provider-options.js';
import { externalProviderDescriptor } from './external/external-descriptor.js';
import type { ExternalMemoryDescriptor } from './external/external-memory-descriptor.js';
import { EXTERNAL_MEMORIES } from './external-memory-registry.js';
import { PROVIDERS } from './provider-registry.js';

/**
 * Adds the external memory systems of loaded plugins (`memories`: `ExternalMemoryDescriptor`s, their
 * options a `{ schema, help }` record each) to `--provider`'s registry, as an external memory
 * folder's registry line would; a provider lme cannot use or whose name is taken is refused in one
 * sentence naming the plugin file.
 */
export function registerPluginMemories(plugins: readonly LoadedPlugin[]): void {
  for (const { file, memories, components } of plugins) {
    for (const memory of memories as ExternalMemoryDescriptor[]) {
      const name = memory?.name;
      if (typeof name !== 'string' || name === '' || typeof memory.createMemory !== 'function')
        throw new Error(
          `Plugin ${file}: an external memory system needs a name and a createMemory function.`,
        );
      if (
        typeof memory.options !== 'object' ||
        memory.options === null ||
        typeof memory.capabilities !== 'object'
      )
        throw new Error(`Plugin ${file}: provider "${name}" needs options and capabilities objects.`);
      if (typeof (memory.options as { safeParse?: unknown }).safeParse === 'function')
        throw new Error(
          `Plugin ${file}: provider "${name}" gives its options as one zod object; give a record per option ({ schema, help }, docs/plugins.md).`,
        );
      for (const [key, option] of Object.entries(
        memory.options as Record<string, Partial<ProviderOptionInput>>,
      ))
        if (
          typeof option?.schema?.safeParse !== 'function' ||
          typeof option.help !== 'string' ||
          option.help === ''
        )
          throw new Error(
            `Plugin ${file}: option "${key}" of provider "${name}" needs a zod schema and help.`,
          );
      if (Object.hasOwn(PROVIDERS, name))
        throw new Error(`Plugin ${file}: provider "${name}" is already registered; give it another name.`);
      // Its options as lme's own providers' (the flag and help section follow from each key).
      const registered = { ...memory, options: defineProviderOptions(memory.options) };
      (EXTERNAL_MEMORIES as Record<string, ExternalMemoryDescriptor>)[name] = registered;
      (PROVIDERS as Record<string, unknown>)[name] = externalProviderDescriptor(registered);
      components.push(`provider ${name}`);
    }
  }
}
