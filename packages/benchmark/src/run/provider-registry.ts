import type { RunConfig } from '../config/run-config.js';
import { createContextProvider } from '../providers/context-providers.js';
import { createHttpProvider } from '../providers/http/http-provider.js';
import type { PipelineResources } from '../providers/pipeline/configured-embedder.js';
import { createPipelineProvider } from '../providers/pipeline/pipeline-provider.js';
import type { Provider } from '../providers/provider.js';

type ProviderFactory = (options: {
  config: RunConfig;
  /** The run id, or a function giving it (the default run id is known after the provider's preflight). */
  runId: string | (() => string);
  resources?: PipelineResources;
}) => Provider;

/** The memory systems a run can test, by provider id (`--provider`). */
export const providers = {
  pipeline: ({ config, resources }) => createPipelineProvider(config, resources),
  'full-context': () => createContextProvider('full-context'),
  oracle: () => createContextProvider('oracle'),
  http: ({ config, runId }) => {
    if (!config.providerUrl) {
      throw new Error(
        '--provider http needs --provider-url <url> (a server speaking docs/provider-protocol.md).',
      );
    }
    return createHttpProvider({
      url: config.providerUrl,
      authHeaderEnv: config.providerAuthEnv,
      authHeaderName: config.providerAuthHeader,
      timeoutMs: config.providerTimeoutMs,
      maxRetries: config.providerMaxRetries,
      topK: config.topK,
      granularity: config.granularity,
      indexRoles: config.indexRoles,
      namespacePrefix: runId,
    });
  },
} as const satisfies Record<RunConfig['provider'], ProviderFactory>;

/** The provider a config selects; an unknown id fails listing the known ones. */
export function createProvider(
  config: RunConfig,
  runId: string | (() => string),
  resources?: PipelineResources,
): Provider {
  const factory = (providers as Record<string, ProviderFactory>)[config.provider];
  if (!factory) {
    throw new Error(
      `Unknown provider "${config.provider}" (--provider); known providers: ${Object.keys(providers).join(', ')}.`,
    );
  }
  return factory({ config, runId, resources });
}
