import type { ComponentOption } from './component.js';

/** A provider option as its folder writes it: its flag and help section follow from its key. */
export type ProviderOptionInput = Omit<ComponentOption, 'flags' | 'group'>;

/** The flag a provider option is given by: `--provider-option base-url=<value>`. */
export const providerOptionFlag = (key: string): string => `--provider-option ${key}=<value>`;

/**
 * A provider's options as `ComponentOption` records (the same records retrievers, stages,
 * embedders and rerankers declare), keyed by the name `--provider-option key=value` takes: each
 * gets the flag `--provider-option <key>=<value>` and the retrieval section of `lme run --help`.
 * The schema holds the typed value (a number, a boolean, an enum); the text of the command line is
 * read into it by config/option-text.ts.
 */
export function defineProviderOptions<const O extends Readonly<Record<string, ProviderOptionInput>>>(
  options: O,
): { readonly [K in keyof O]: O[K] & { readonly flags: string; readonly group: 'retrieval' } } {
  return Object.fromEntries(
    Object.entries(options).map(([key, option]) => [
      key,
      { ...option, flags: providerOptionFlag(key), group: 'retrieval' },
    ]),
  ) as { readonly [K in keyof O]: O[K] & { readonly flags: string; readonly group: 'retrieval' } };
}
