import { afterEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { collectedSecrets, forgetSecrets } from '../../config/secrets.js';
import type { ExternalMemoryDescriptor } from '../external/external-memory-descriptor.js';
import { lettaDescriptor } from '../letta/descriptor.js';
import { mem0PlatformDescriptor } from '../mem0-platform/descriptor.js';
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
    const shape = (descriptor.options as unknown as z.ZodObject).shape;

    it('is an external system that ranks, with one key variable, and help for every option', () => {
      expect(descriptor.capabilities).toMatchObject({ external: true, ranks: true, answersItself: false });
      expect(descriptor.capabilities.apiKeyEnv).toHaveLength(1);
      for (const [key, field] of Object.entries(shape)) {
        expect(key).toMatch(/^[a-z]+(-[a-z]+)*$/);
        expect((field as z.ZodType).description, key).toMatch(/\w+ \w+/);
      }
    });

    it('parses options given as --provider-option text, and refuses an unknown one', () => {
      const defaults = descriptor.options.parse({}) as Record<string, unknown>;
      expect(defaults['base-url']).toMatch(/^https:\/\//);
      const numeric = Object.entries(defaults).find(([, value]) => typeof value === 'number');
      if (numeric) {
        const parsed = descriptor.options.parse({ [numeric[0]]: String(numeric[1]) }) as Record<
          string,
          unknown
        >;
        expect(parsed[numeric[0]]).toBe(numeric[1]);
      }
      expect(descriptor.options.safeParse({ 'no-such-option': '1' }).success).toBe(false);
      expect(descriptor.options.safeParse({ 'base-url': 'not a url' }).success).toBe(false);
    });

    it('creates its memory from the key variable alone, registering the key as a secret', () => {
      const variable = descriptor.capabilities.apiKeyEnv![0]!;
      const options = descriptor.options.parse({});
      expect(() => descriptor.createMemory(options, dependencies({}))).toThrow(variable);
      const memory = descriptor.createMemory(options, dependencies({ [variable]: 'key-0123456789abcdef' }));
      expect(collectedSecrets()).toEqual(['key-0123456789abcdef']);
      expect(memory.identity()).toMatchObject({ kind: descriptor.name, url: defaults(descriptor) });
    });
  },
);

function defaults(descriptor: ExternalMemoryDescriptor): string {
  return (descriptor.options.parse({}) as { 'base-url': string })['base-url'];
}
