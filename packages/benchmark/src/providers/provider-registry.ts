import type { ComponentOptions, OptionValues } from '../components/component.js';
import { providerOptionFlag } from '../components/provider-options.js';
import { closeNames } from '../config/close-names.js';
import { optionFromText } from '../config/option-text.js';
import type { ProviderCapabilities } from '../config/provider-capabilities.js';
import { fullContextDescriptor, oracleDescriptor } from './context-providers.js';
import { externalProviderDescriptor } from './external/external-descriptor.js';
import { EXTERNAL_MEMORIES } from './external-memory-registry.js';
import { httpDescriptor } from './http/http-descriptor.js';
import { pipelineDescriptor } from './pipeline/pipeline-descriptor.js';
import type { ProviderDescriptor } from './provider-descriptor.js';

/**
 * The memory systems `--provider` can name: lme's own, the http protocol, then every external
 * memory system of `EXTERNAL_MEMORIES` (providers/external-memory-registry.ts).
 */
export const PROVIDERS: Readonly<Record<string, ProviderDescriptor>> = {
  pipeline: pipelineDescriptor,
  'full-context': fullContextDescriptor,
  oracle: oracleDescriptor,
  http: httpDescriptor,
  ...Object.fromEntries(
    Object.entries(EXTERNAL_MEMORIES).map(([name, descriptor]) => [
      name,
      externalProviderDescriptor(descriptor),
    ]),
  ),
};

/** The descriptor `--provider <name>` selects; an unknown name fails naming the close and the known ones. */
export function providerNamed(
  name: string,
  registry: Readonly<Record<string, ProviderDescriptor>> = PROVIDERS,
): ProviderDescriptor {
  const descriptor = Object.hasOwn(registry, name) ? registry[name] : undefined;
  if (descriptor) return descriptor;
  const close = closeNames(name, Object.keys(registry), 1);
  throw new Error(
    `Unknown provider "${name}" (--provider)${close.length > 0 ? `; did you mean "${close[0]}"?` : ''}; known providers: ${Object.keys(registry).join(', ')}.`,
  );
}

/** What the run may ask of the provider a config names (an unknown name asks as the pipeline would not: it fails). */
export function providerCapabilities(name: string): ProviderCapabilities {
  return providerNamed(name).capabilities;
}

/** The capabilities of a provider by name, undefined for a name the registry does not hold (an old run's). */
export function knownProviderCapabilities(name: string): ProviderCapabilities | undefined {
  return Object.hasOwn(PROVIDERS, name) ? PROVIDERS[name]!.capabilities : undefined;
}

const ECHOED_CHARS = 40;

/** A value as a message quotes it: at most ECHOED_CHARS characters, then how long it was. */
function echoed(value: string): string {
  return value.length <= ECHOED_CHARS
    ? value
    : `${value.slice(0, ECHOED_CHARS)}… (${value.length} characters)`;
}

/**
 * `--provider-option key=value` pairs read by the provider's option records (config/option-text.ts),
 * each option not given at its default. An unknown key (with the close one) or a bad value fails in
 * one sentence naming the flag, the key and the provider; a provider that takes no options ignores
 * them (the command line warns).
 */
export function parseProviderOptions<O extends ComponentOptions>(
  descriptor: { readonly name: string; readonly options: O },
  given: Readonly<Record<string, string>> = {},
): OptionValues<O> {
  const keys = Object.keys(descriptor.options);
  const values: Record<string, unknown> = {};
  // A provider that takes no options ignores them (the command line warns that they have no effect).
  if (keys.length === 0) return values as OptionValues<O>;
  for (const [key, value] of Object.entries(given)) {
    if (keys.includes(key)) continue;
    const close = closeNames(key, keys, 1);
    throw new Error(
      `--provider-option ${key}=${echoed(value)}: --provider ${descriptor.name} has no option "${key}"${close.length > 0 ? ` (did you mean "${close[0]}"?)` : ''}; its options: ${keys.join(', ')}.`,
    );
  }
  for (const [key, option] of Object.entries(descriptor.options)) {
    const text = Object.hasOwn(given, key) ? given[key] : undefined;
    if (text === undefined) {
      // Not given: its default; an option with neither a default nor `.optional()` must be given.
      const fallback = option.schema.safeParse(undefined);
      if (!fallback.success)
        throw new Error(`--provider ${descriptor.name} needs ${providerOptionFlag(key)} (${option.help}).`);
      if (fallback.data !== undefined) values[key] = fallback.data;
      continue;
    }
    const read = optionFromText(option, text);
    if ('problem' in read)
      throw new Error(
        `--provider-option ${key}=${echoed(text)}: --provider ${descriptor.name}'s option "${key}": ${read.problem}.`,
      );
    values[key] = read.value;
  }
  return values as OptionValues<O>;
}

/**
 * `config` without the `--provider-option`s its provider declares `measures: false` (an endpoint, a
 * polling interval): what a resume, the setup and the fingerprint compare, as the run config's own
 * non-result keys are left out of them. A provider this lme does not know keeps every option.
 */
export function measuringProviderOptions<
  C extends {
    readonly provider: string;
    readonly providerOptions?: Readonly<Record<string, string>> | undefined;
  },
>(config: C): C {
  const given = config.providerOptions;
  if (given === undefined || !Object.hasOwn(PROVIDERS, config.provider)) return config;
  const options = PROVIDERS[config.provider]!.options as Readonly<Record<string, { measures?: boolean }>>;
  const kept = Object.entries(given).filter(([key]) => options[key]?.measures !== false);
  if (kept.length === Object.keys(given).length) return config;
  return { ...config, providerOptions: Object.fromEntries(kept) };
}
