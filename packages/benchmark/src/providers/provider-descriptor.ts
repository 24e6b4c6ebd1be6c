import type { ComponentOptions, OptionValues } from '../components/component.js';
import type { ProviderCapabilities } from '../config/provider-capabilities.js';
import type { ProviderSection } from '../config/sections/provider-section.js';
import type { RetrievalSection } from '../config/sections/retrieval-section.js';
import type { RunSection } from '../config/sections/run-section.js';
import type { PipelineResources } from './pipeline/configured-embedder.js';
import type { PipelineProviderSettings } from './pipeline/pipeline-settings.js';
import type { Provider } from './provider.js';

/**
 * What a provider reads of the run's config: the provider section (its name and options, URL, auth, request budget),
 * the documents it is given and graded on (granularity, roles, top K), the cache folder, and, for
 * lme's own pipeline, the pipeline's settings. A flat resolved config has them all.
 */
export type ProviderRunSettings = PipelineProviderSettings &
  Pick<
    ProviderSection,
    | 'provider'
    | 'providerOptions'
    | 'providerUrl'
    | 'providerAuthEnv'
    | 'providerAuthHeader'
    | 'providerTimeoutMs'
    | 'providerMaxRetries'
  > &
  Pick<RetrievalSection, 'topK' | 'granularity' | 'indexRoles'> &
  Pick<RunSection, 'cacheDir'> &
  Partial<Pick<RunSection, 'concurrency'>>;

/** What a run hands a provider's factory. */
export type ProviderContext<Options> = {
  config: ProviderRunSettings;
  /** Its `--provider-option`s, parsed by its `options` schema. */
  options: Options;
  /** The run id, or a function giving it (the default run id is known after the provider's preflight). */
  runId: string | (() => string);
  resources?: PipelineResources | undefined;
  /** Where credentials are looked up. */
  environment: Readonly<Record<string, string | undefined>>;
};

/**
 * One memory system `--provider` can name: what it is, its `--provider-option`s (`ComponentOption`
 * records, as every component's, made by `defineProviderOptions`: schema, help, `measures`), its
 * capabilities (what the rest of the program asks instead of its name) and its factory.
 */
export type ProviderDescriptor<O extends ComponentOptions = ComponentOptions> = {
  readonly name: string;
  readonly description: string;
  readonly options: O;
  readonly capabilities: ProviderCapabilities;
  create(context: ProviderContext<OptionValues<O>>): Provider;
};
