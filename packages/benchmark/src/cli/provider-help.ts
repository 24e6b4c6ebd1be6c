import type { ProviderDescriptor } from '../providers/provider-descriptor.js';
import { PROVIDERS, providerOptionHelp } from '../providers/provider-registry.js';

/**
 * The `Providers` section of `lme run --help`: each registered provider with what it is, its
 * capabilities and its `--provider-option`s (from each option's `.describe()`).
 */
export function providersHelp(
  // biome-ignore lint/suspicious/noExplicitAny: each descriptor has its own options type.
  registry: Readonly<Record<string, ProviderDescriptor<any>>> = PROVIDERS,
): string {
  const lines = ['', 'Providers (--provider <name>; --provider-option key=value, repeatable):'];
  for (const descriptor of Object.values(registry)) {
    const traits = [
      descriptor.capabilities.external ? 'external system' : undefined,
      descriptor.capabilities.answersItself ? 'answers itself' : undefined,
      descriptor.capabilities.apiKeyEnv?.length
        ? `key from ${descriptor.capabilities.apiKeyEnv.join(', ')}`
        : undefined,
    ].filter((trait) => trait !== undefined);
    lines.push(
      `  ${descriptor.name}: ${descriptor.description}${traits.length > 0 ? ` [${traits.join('; ')}]` : ''}`,
    );
    for (const { key, help } of providerOptionHelp(descriptor)) lines.push(`      ${key}=…  ${help}`);
  }
  return lines.join('\n');
}
