import { describe, expect, it } from 'vitest';
import { recordedKeyDifferences } from '../config/recorded-config.js';
import { parseRunConfig } from '../config/run-sections.js';
import { measuringProviderOptions, PROVIDERS, providerCapabilities } from './provider-registry.js';

/** Each provider with its options, as records (`measures` among their fields). */
const providers = Object.entries(PROVIDERS).map(
  ([name, descriptor]) => [name, descriptor.options as Record<string, { measures?: boolean }>] as const,
);

describe('provider options that do not change what a run measures', () => {
  it('leave a resume comparison unchanged, where a measuring option differs, for every provider that declares one', () => {
    const declaring = providers.filter(([, options]) =>
      Object.values(options).some((option) => option.measures === false),
    );
    expect(declaring.length).toBeGreaterThan(0);
    for (const [name, options] of declaring) {
      const keys = Object.keys(options);
      const idle = keys.find((key) => options[key]!.measures === false)!;
      const config = (providerOptions: Record<string, string>) =>
        measuringProviderOptions(parseRunConfig({ provider: name, providerOptions }));
      const differences = (a: Record<string, string>, b: Record<string, string>) =>
        recordedKeyDifferences(config(a), config(b), providerCapabilities(name));
      expect(differences({ [idle]: '1' }, { [idle]: '2' }), `${name} ${idle}`).toEqual([]);
      const measured = keys.find((key) => options[key]!.measures !== false);
      if (measured !== undefined)
        expect(differences({ [measured]: '1' }, { [measured]: '2' }), `${name} ${measured}`).toEqual([
          'providerOptions',
        ]);
    }
  });
});
