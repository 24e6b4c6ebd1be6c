import { afterEach, describe, expect, it } from 'vitest';
import { collectedSecrets, forgetSecrets } from '../../config/secrets.js';
import type { ExternalMemoryDescriptor } from '../external/external-memory-descriptor.js';
import { lettaDescriptor } from '../letta/descriptor.js';
import { mem0PlatformDescriptor } from '../mem0-platform/descriptor.js';
import { parseProviderOptions } from '../provider-registry.js';
import { supermemoryDescriptor } from '../supermemory/descriptor.js';
import { zepDescriptor } from '../zep/descriptor.js';

// Typed as the registry will hold them: each descriptor must be assignable to the plain type.
const descriptors: ExternalMemoryDescriptor[] = [
  mem0PlatformDescriptor,
  zepDescriptor,
  supermemoryDescriptor,
  lettaDescriptor,
];
const dependencies = (environment: Record<string, string>) => ({
  environment,
  timeoutMs: 1000,
  maxRetries: 0,
  workDir: '/tmp',
});

afterEach(() => forgetSecrets());

describe.each(descriptors.map((descriptor) => [descriptor.name, descriptor] as const))(
  'the %s descriptor',
  (_name, descriptor) => {
    it('is an external system that ranks, with one key variable', () => {
      expect(descriptor.capabilities).toMatchObject({ external: true, ranks: true, answersItself: false });
      expect(descriptor.capabilities.apiKeyEnv).toHaveLength(1);
    });

    it('reads --provider-option text into its options, and refuses a base URL that is not one', () => {
      const defaults = parseProviderOptions(descriptor, {});
      expect(defaults['base-url']).toMatch(/^https:\/\//);
      const numeric = Object.entries(defaults).find(([, value]) => typeof value === 'number');
      if (numeric)
        expect(parseProviderOptions(descriptor, { [numeric[0]]: String(numeric[1]) })[numeric[0]]).toBe(
          numeric[1],
        );
      expect(() => parseProviderOptions(descriptor, { 'base-url': 'not a url' })).toThrow(
        `--provider-option base-url=not a url: --provider ${descriptor.name}'s option "base-url": invalid URL.`,
      );
    });

    it('creates its memory from the key variable alone, registering the key as a secret', () => {
      const variable = descriptor.capabilities.apiKeyEnv![0]!;
      const options = parseProviderOptions(descriptor, {});
      expect(() => descriptor.createMemory(options, dependencies({}))).toThrow(variable);
      const memory = descriptor.createMemory(options, dependencies({ [variable]: 'key-0123456789abcdef' }));
      expect(collectedSecrets()).toEqual(['key-0123456789abcdef']);
      expect(memory.identity()).toMatchObject({ kind: descriptor.name, url: defaults(descriptor) });
    });
  },
);

function defaults(descriptor: ExternalMemoryDescriptor): string {
  return parseProviderOptions(descriptor, {})['base-url'] as string;
}
