import type { Benchmark } from '../benchmarks/benchmark.js';
import type { RunSections } from '../config/run-sections.js';
import type { PipelineResources } from './pipeline/configured-embedder.js';
import type { Provider } from './provider.js';
import { parseProviderOptions, providerNamed } from './provider-registry.js';

/**
 * The provider a run selects (`--provider`, its `--provider-option`s parsed by its descriptor);
 * an unknown name fails listing the known ones.
 */
export function createProvider(
  sections: RunSections,
  runId: string | (() => string),
  resources?: PipelineResources,
  environment: Readonly<Record<string, string | undefined>> = process.env,
  benchmark?: Benchmark,
): Provider {
  const { provider, providerOptions } = sections.provider;
  const descriptor = providerNamed(provider);
  const options = parseProviderOptions(descriptor, providerOptions);
  return descriptor.create({ sections, options, runId, resources, environment, benchmark });
}
