import type { z } from 'zod';
import { closeNames } from '../config/close-names.js';
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
// biome-ignore lint/suspicious/noExplicitAny: each descriptor has its own options type.
export const PROVIDERS: Readonly<Record<string, ProviderDescriptor<any>>> = {
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
  // biome-ignore lint/suspicious/noExplicitAny: each descriptor has its own options type.
  registry: Readonly<Record<string, ProviderDescriptor<any>>> = PROVIDERS,
  // biome-ignore lint/suspicious/noExplicitAny: each descriptor has its own options type.
): ProviderDescriptor<any> {
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

/** The keys of a provider's options schema (empty when it takes none). */
export function providerOptionKeys(descriptor: Pick<ProviderDescriptor, 'options'>): string[] {
  const shape = (descriptor.options as unknown as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : [];
}

/** Each option of a provider with its help line (`.describe()`), for `lme run --help`. */
export function providerOptionHelp(
  descriptor: Pick<ProviderDescriptor, 'options'>,
): { key: string; help: string }[] {
  const shape = (descriptor.options as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  return Object.entries(shape).map(([key, schema]) => ({ key, help: schema.description ?? '' }));
}

const DECIMAL = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const ECHOED_CHARS = 40;

/** A value as a message quotes it: at most ECHOED_CHARS characters, then how long it was. */
function echoed(value: string): string {
  return value.length <= ECHOED_CHARS
    ? value
    : `${value.slice(0, ECHOED_CHARS)}… (${value.length} characters)`;
}

/**
 * `--provider-option key=value` pairs parsed by the provider's schema. An unknown key (with the
 * close one) or a bad value fails in one sentence naming the flag, the key and the provider; a
 * provider that takes no options ignores them (the command line warns).
 */
export function parseProviderOptions(
  // biome-ignore lint/suspicious/noExplicitAny: each descriptor has its own options type.
  descriptor: ProviderDescriptor<any>,
  given: Readonly<Record<string, string>> = {},
): Record<string, unknown> {
  const keys = providerOptionKeys(descriptor);
  // A provider that takes no options ignores them (the command line warns that they have no effect).
  if (keys.length === 0) return {};
  for (const [key, value] of Object.entries(given)) {
    if (keys.includes(key)) continue;
    const close = closeNames(key, keys, 1);
    throw new Error(
      `--provider-option ${key}=${echoed(value)}: --provider ${descriptor.name} has no option "${key}"${close.length > 0 ? ` (did you mean "${close[0]}"?)` : ''}; ${keys.length > 0 ? `its options: ${keys.join(', ')}` : 'it takes no options'}.`,
    );
  }
  const refuse = (key: string, problem: string) =>
    new Error(
      `--provider-option ${key}=${echoed(given[key] ?? '')}: --provider ${descriptor.name}'s option "${key}": ${problem}.`,
    );
  for (const [key, value] of Object.entries(given))
    if (value.trim() === '') throw refuse(key, 'is empty; give a value or leave the option out');
  const parsed = descriptor.options.safeParse({ ...given });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const problem = issue.message.replace(/^Invalid input: /, '').replace(/\.$/, '');
    throw refuse(String(issue.path[0] ?? ''), `${problem.charAt(0).toLowerCase()}${problem.slice(1)}`);
  }
  // A number is written in decimal (0.5, 12, 1e-3): not 0x1, 0b1 or Infinity, which coercion accepts.
  for (const [key, value] of Object.entries(parsed.data as Record<string, unknown>)) {
    const text = given[key];
    if (typeof value === 'number' && text !== undefined && !DECIMAL.test(text.trim()))
      throw refuse(key, 'takes a decimal number (such as 0.5)');
  }
  return parsed.data as Record<string, unknown>;
}
