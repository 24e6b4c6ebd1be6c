import { z } from 'zod';
import { unwrapOption } from '../config/option-text.js';
import type { ProviderDescriptor } from '../providers/provider-descriptor.js';
import { PROVIDERS } from '../providers/provider-registry.js';
import { helpOf } from './run-option-flags.js';

/**
 * The `Providers` section of `lme run --help`: each registered provider with what it is, its
 * capabilities and its `--provider-option`s, each described as a run flag is (its help, then its
 * default), with its choices.
 */
export function providersHelp(registry: Readonly<Record<string, ProviderDescriptor>> = PROVIDERS): string {
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
    for (const [key, option] of Object.entries(descriptor.options)) {
      const field = unwrapOption(option);
      const choices =
        field.schema instanceof z.ZodEnum ? ` (choices: ${field.schema.options.join(', ')})` : '';
      // A provider option is always given a value (`fresh-per-question=true`): its default is said as one.
      const defaultHelp =
        option.defaultHelp ?? (field.defaultValue === undefined ? undefined : String(field.defaultValue));
      lines.push(
        `      ${key}=…  ${helpOf({ ...option, key, ...(defaultHelp === undefined ? {} : { defaultHelp }) }, field)}${choices}`,
      );
    }
  }
  return lines.join('\n');
}
