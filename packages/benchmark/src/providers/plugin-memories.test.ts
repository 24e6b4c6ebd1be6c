import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { providersHelp } from '../cli/provider-help.js';
import { providerOptionFlag } from '../components/provider-options.js';
import { EXTERNAL_MEMORIES } from './external-memory-registry.js';
import { MEMORY_PLUGIN_KIND } from './plugin-memories.js';
import { PROVIDERS, parseProviderOptions, providerNamed } from './provider-registry.js';

const FILE = '/labs/plugins/memory.mjs';
const memory = (fields: Record<string, unknown>) => ({
  name: 'lab-memory',
  description: 'a memory system of a lab',
  capabilities: { external: true, answersItself: false, ranks: true },
  createMemory: () => ({}),
  ...fields,
});
/** What load-plugins.ts says of a memory system its kind refuses, or adds it. */
function register(fields: Record<string, unknown>): void {
  const given = memory(fields);
  const lacking = MEMORY_PLUGIN_KIND.lacks(given);
  if (lacking !== undefined) throw new Error(`Plugin ${FILE}: provider "${given.name}" ${lacking}.`);
  MEMORY_PLUGIN_KIND.add(given as never);
}

afterEach(() => {
  delete (PROVIDERS as Record<string, unknown>)['lab-memory'];
  delete (EXTERNAL_MEMORIES as Record<string, unknown>)['lab-memory'];
});

describe("a plugin's external memory system", () => {
  it("takes its options as option records, read, listed and checked as lme's own providers' are", () => {
    register({
      options: { depth: { schema: z.number().int().min(1).default(3), help: 'hits kept per search' } },
    });
    const descriptor = providerNamed('lab-memory');
    expect(descriptor.options['depth']).toMatchObject({
      flags: providerOptionFlag('depth'),
      group: 'retrieval',
    });
    expect(parseProviderOptions(descriptor, {})).toEqual({ depth: 3 });
    expect(parseProviderOptions(descriptor, { depth: '5' })).toEqual({ depth: 5 });
    expect(() => parseProviderOptions(descriptor, { dept: '5' })).toThrow(
      '--provider-option dept=5: --provider lab-memory has no option "dept" (did you mean "depth"?); its options: depth.',
    );
    expect(() => parseProviderOptions(descriptor, { depth: '0' })).toThrow(
      `--provider-option depth=0: --provider lab-memory's option "depth": takes a whole number of at least 1.`,
    );
    expect(providersHelp()).toContain('      depth=…  hits kept per search (default: 3)');
  });

  it('is refused in one sentence naming the file when its options are one zod object or lack help', () => {
    expect(() => register({ options: z.object({ depth: z.coerce.number() }) })).toThrow(
      `Plugin ${FILE}: provider "lab-memory" gives its options as one zod object; give a record per option ({ schema, help }, docs/plugins.md).`,
    );
    expect(() => register({ options: { depth: { schema: z.number() } } })).toThrow(
      `Plugin ${FILE}: provider "lab-memory" needs a zod schema and help for its option "depth".`,
    );
    expect(Object.hasOwn(PROVIDERS, 'lab-memory')).toBe(false);
  });
});
