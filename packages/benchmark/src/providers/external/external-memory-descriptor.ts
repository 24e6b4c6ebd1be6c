import type { ComponentOptions, OptionValues } from '../../components/component.js';
import type { ProviderCapabilities } from '../../config/provider-capabilities.js';
import type { ExternalMemory } from './external-memory.js';

/** What the rest of the program may ask of a provider instead of comparing its name. */
export type { ProviderCapabilities } from '../../config/provider-capabilities.js';

/** What a run hands an external memory system's factory besides its own options. */
export type ExternalMemoryDependencies = {
  /** Where credentials are looked up (process.env in a run; tests pass their own). */
  environment: Readonly<Record<string, string | undefined>>;
  /** Budget of one request attempt. */
  timeoutMs: number;
  /** Extra attempts after a retryable failure. */
  maxRetries: number;
  /** A folder the system may keep files in for this run (a bridge's store), inside lme's cache. */
  workDir: string;
  /**
   * Questions the run keeps in flight (`--concurrency`): a system lme runs as its own processes (a
   * bridge) starts this many, each with a store of its own. Unset: 1.
   */
  processes?: number;
};

/**
 * One external memory system (a folder under providers/ and one registry line): its name, what it
 * is, its options (`ComponentOption` records made by `defineProviderOptions`, given as
 * `--provider-option key=value`), its capabilities, and the factory.
 */
export type ExternalMemoryDescriptor<O extends ComponentOptions = ComponentOptions> = {
  readonly name: string;
  readonly description: string;
  readonly options: O;
  readonly capabilities: ProviderCapabilities;
  createMemory(options: OptionValues<O>, dependencies: ExternalMemoryDependencies): ExternalMemory;
};
