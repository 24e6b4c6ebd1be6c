import { BENCHMARK_PLUGIN_KIND } from '../benchmarks/plugin-benchmarks.js';
import { COMPONENT_PLUGIN_KINDS } from '../components/plugins/component-plugin-kinds.js';
import type { PluginKinds } from '../components/plugins/plugin-kind.js';

/**
 * Every kind a plugin's default export may hold, by key, in the order a plugin's components are
 * added: each declared beside its registry, in the layer that owns it (docs/plugins.md).
 */
export const PLUGIN_KINDS: PluginKinds = {
  ...COMPONENT_PLUGIN_KINDS,
  benchmarks: BENCHMARK_PLUGIN_KIND,
  // Imported once the others are in: the providers' registry reads the run config, built from them.
  memories: async () => (await import('../providers/plugin-memories.js')).MEMORY_PLUGIN_KIND,
};
