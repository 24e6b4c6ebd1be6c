import type { PipelineResources } from './pipeline/configured-embedder.js';
import type { Provider } from './provider.js';
import type { ProviderContext } from './provider-descriptor.js';
import { parseProviderOptions, providerNamed } from './provider-registry.js';

/**
 * The provider a config selects (`--provider`, its `--provider-option`s parsed by its descriptor);
 * an unknown name fails listing the known ones.
 */
export function createProvider(
  /** The run's config as a provider's factory receives it (`ProviderContext`). */
  config: ProviderContext<unknown>['config'],
  runId: string | (() => string),
  resources?: PipelineResources,
  environment: Readonly<Record<string, string | undefined>> = process.env,
): Provider {
  const descriptor = providerNamed(config.provider);
  const options = parseProviderOptions(descriptor, config.providerOptions);
  return descriptor.create({ config, options, runId, resources, environment });
}
