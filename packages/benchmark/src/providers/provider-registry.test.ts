import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { LongMemEvalRecord } from '../benchmarks/longmemeval-record.js';
import { parseRun } from '../cli/parse-run-flags.js';
import { providersHelp } from '../cli/provider-help.js';
import { resolveRunInput } from '../cli/run-option-flags.js';
import { defineProviderOptions, providerOptionFlag } from '../components/provider-options.js';
import { unwrapOption } from '../config/option-text.js';
import { listPresets, loadPreset } from '../config/presets.js';
import { parseRunSections } from '../config/run-sections.js';
import { redact } from '../config/secrets.js';
import { PRESET_CONTEXT_BUDGET } from '../config/sections/stages-section.js';
import { tinyRecord } from '../testing/tiny-record.js';
import { externalProviderDescriptor } from './external/external-descriptor.js';
import type { ExternalMemory } from './external/external-memory.js';
import type { ExternalMemoryDescriptor } from './external/external-memory-descriptor.js';
import { EXTERNAL_MEMORIES } from './external-memory-registry.js';
import type { ProtocolSession } from './http/protocol.js';
import { PROVIDERS, parseProviderOptions, providerNamed } from './provider-registry.js';

/** An in-memory ExternalMemory: stores sessions per namespace and ranks them in ingest order. */
function memoryStore() {
  const namespaces = new Map<string, ProtocolSession[]>();
  const calls: string[] = [];
  const memory: ExternalMemory = {
    identity: () => ({ kind: 'store', url: 'memory://store' }),
    preflight: async () => {},
    reset: async (namespace) => {
      calls.push(`reset ${namespace}`);
      namespaces.delete(namespace);
    },
    ingest: async (namespace, sessions) => {
      calls.push(`ingest ${namespace}`);
      namespaces.set(namespace, [...(namespaces.get(namespace) ?? []), ...sessions]);
      return {};
    },
    search: async ({ namespace, topK }) => ({
      hits: (namespaces.get(namespace) ?? [])
        .slice(0, topK)
        .map((session, rank) => ({ session_id: session.session_id, score: 10 - rank })),
    }),
  };
  return { memory, calls, namespaces };
}

const storeOptions = defineProviderOptions({
  'top-boost': { schema: z.number().min(0).max(1).optional(), help: 'weight of the boost, 0 to 1' },
});

function storeDescriptor(store = memoryStore()): ExternalMemoryDescriptor<typeof storeOptions> {
  return {
    name: 'store',
    description: 'an in-memory store',
    options: storeOptions,
    capabilities: { external: true, answersItself: false, ranks: true, apiKeyEnv: ['STORE_API_KEY'] },
    createMemory: () => store.memory,
  };
}

describe('the provider registry', () => {
  it('names the close provider of a misspelt one, and lists the known ones', () => {
    expect(() => providerNamed('htp')).toThrow(
      `Unknown provider "htp" (--provider); did you mean "http"?; known providers: ${['pipeline', 'full-context', 'oracle', 'http', ...Object.keys(EXTERNAL_MEMORIES)].join(', ')}.`,
    );
    expect(providerNamed('http').capabilities).toMatchObject({
      external: true,
      answersItself: true,
      ranks: true,
    });
    expect(providerNamed('oracle').capabilities.ranks).toBe(false);
  });

  it("parses --provider-option values by the provider's schema, naming the flag, key and provider when one is wrong", () => {
    const descriptor = externalProviderDescriptor(storeDescriptor());
    expect(parseProviderOptions(descriptor, { 'top-boost': '0.5' })).toEqual({ 'top-boost': 0.5 });
    expect(() => parseProviderOptions(descriptor, { 'top-bost': '0.5' })).toThrow(
      '--provider-option top-bost=0.5: --provider store has no option "top-bost" (did you mean "top-boost"?); its options: top-boost.',
    );
    expect(() => parseProviderOptions(descriptor, { 'top-boost': '7' })).toThrow(
      `--provider-option top-boost=7: --provider store's option "top-boost": takes a number from 0 to 1.`,
    );
    expect(() => parseProviderOptions(PROVIDERS['http']!, { fresh: 'true' })).toThrow(
      '--provider-option fresh=true: --provider http has no option "fresh" (did you mean "fresh-per-question"?); its options: fresh-per-question, ingest-batch.',
    );
  });

  it('refuses a run without an option that has no default, naming the flag it needs', () => {
    const descriptor = {
      name: 'store',
      options: defineProviderOptions({
        space: { schema: z.string().min(1), help: 'the space the memories are kept in' },
      }),
    };
    expect(() => parseProviderOptions(descriptor, {})).toThrow(
      new Error(
        '--provider store needs --provider-option space=<value> (the space the memories are kept in).',
      ),
    );
    expect(parseProviderOptions(descriptor, { space: 'lab' })).toEqual({ space: 'lab' });
  });

  it('refuses an empty value and a number not in decimal, and cuts a long value it echoes', () => {
    const mem0 = providerNamed('mem0');
    for (const [value, problem] of [
      ['', 'is empty; give a value or leave the option out'],
      ['  ', 'is empty; give a value or leave the option out'],
      ['0x1', 'takes a number from 0 to 1'],
      ['0b1', 'takes a number from 0 to 1'],
    ]) {
      expect(() => parseProviderOptions(mem0, { threshold: value! })).toThrow(
        `--provider-option threshold=${value}: --provider mem0's option "threshold": ${problem}.`,
      );
    }
    expect(parseProviderOptions(mem0, { threshold: '.25' })).toMatchObject({ threshold: 0.25 });
    const long = '9'.repeat(100_000);
    let message = '';
    try {
      parseProviderOptions(mem0, { threshold: long });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(
      /^--provider-option threshold=9{40}… \(100000 characters\): --provider mem0's option/,
    );
    expect(message.length).toBeLessThan(200);
  });

  it("lists every provider's options in lme run --help", () => {
    const help = providersHelp({ ...PROVIDERS, store: externalProviderDescriptor(storeDescriptor()) });
    expect(help).toContain('store: an in-memory store [external system; key from STORE_API_KEY]');
    expect(help).toContain('top-boost=…  weight of the boost, 0 to 1');
    expect(help).toContain('fresh-per-question=…');
  });

  it('warns that --provider-option has no effect under a provider without options, and refuses an unknown key', () => {
    const warned = resolveRunInput(parseRun(['--provider', 'pipeline', '--provider-option', 'x=1']));
    expect(warned.warnings).toContain(
      '--provider-option has no effect with --provider pipeline, which takes no options.',
    );
    expect(parseProviderOptions(PROVIDERS['pipeline']!, { x: '1' })).toEqual({});
    expect(() =>
      resolveRunInput(parseRun(['--provider', 'http', '--provider-option', 'ingest-bach=5'])),
    ).toThrow(
      /^--provider-option ingest-bach=5: --provider http has no option "ingest-bach" \(did you mean "ingest-batch"\?\)/,
    );
    const repeated = resolveRunInput(
      parseRun([
        '--provider',
        'http',
        '--provider-option',
        'ingest-batch=5',
        '--provider-option',
        'fresh-per-question=false',
      ]),
    );
    expect(repeated.sections.provider.providerOptions).toEqual({
      'ingest-batch': '5',
      'fresh-per-question': 'false',
    });
    // An external system gets every role unless asked; lme's own pipeline keeps the official user turns.
    expect(repeated.sections.retrieval.indexRoles).toBe('all');
    expect(resolveRunInput(parseRun([])).sections.retrieval.indexRoles).toBe('user');
    // Issue 60, item 3: its packed context is measured as the presets measure lme's own.
    expect(repeated.sections.stages.contextBudget).toBe(PRESET_CONTEXT_BUDGET);
    for (const preset of listPresets().filter((name) => loadPreset(name).config.contextBudget !== undefined))
      expect(loadPreset(preset).config.contextBudget, preset).toBe(PRESET_CONTEXT_BUDGET);
    expect(resolveRunInput(parseRun([])).sections.stages.contextBudget).toBeUndefined();
    expect(
      resolveRunInput(parseRun(['--provider', 'http', '--context-budget', '500'])).sections.stages
        .contextBudget,
    ).toBe(500);
    expect(
      resolveRunInput(parseRun(['--provider', 'http', '--index-roles', 'user'])).sections.retrieval
        .indexRoles,
    ).toBe('user');
  });

  it('warns about the request budget only for external systems', () => {
    expect(resolveRunInput(parseRun(['--provider-retries', '2'])).warnings).toContain(
      '--provider-retries has no effect without --provider http or another external system.',
    );
    expect(resolveRunInput(parseRun(['--provider', 'http', '--provider-retries', '2'])).warnings).toEqual([]);
  });
});

describe("every provider's options (the registry iterated)", () => {
  const providers = Object.values(PROVIDERS).map((descriptor) => [descriptor.name, descriptor] as const);
  const withOptions = providers.filter(([, descriptor]) => Object.keys(descriptor.options).length > 0);

  it('are there to check', () => {
    expect(withOptions.length).toBeGreaterThan(0);
  });

  it.each(providers)(
    '%s: each option is a ComponentOption with help and its flag, and the default its help documents reads back as itself',
    (name, descriptor) => {
      const help = providersHelp({ [name]: descriptor }).split('\n');
      const defaults = parseProviderOptions(descriptor, {});
      for (const [key, option] of Object.entries(descriptor.options)) {
        expect(key).toMatch(/^[a-z]+(-[a-z]+)*$/);
        expect(option.help, key).toMatch(/\w+ \w+/);
        expect(option.flags).toBe(providerOptionFlag(key));
        expect(option.group).toBe('retrieval');
        const line = help.find((text) => text.startsWith(`      ${key}=…  ${option.help}`));
        expect(line, key).toBeDefined();
        const fallback = unwrapOption(option).defaultValue;
        expect(defaults[key]).toEqual(fallback);
        if (fallback === undefined) continue;
        expect(line).toContain(`default: ${String(fallback)}`);
        expect(parseProviderOptions(descriptor, { [key]: String(fallback) })[key]).toEqual(fallback);
      }
    },
  );

  it.each(withOptions)(
    '%s: an unknown option fails in one sentence naming it, the provider and the option meant',
    (name, descriptor) => {
      const keys = Object.keys(descriptor.options);
      const meant = keys[0]!;
      const typo = `${meant.slice(0, -1)}${meant.endsWith('q') ? 'z' : 'q'}`;
      expect(() => parseProviderOptions(descriptor, { [typo]: '1' })).toThrow(
        new Error(
          `--provider-option ${typo}=1: --provider ${name} has no option "${typo}" (did you mean "${meant}"?); its options: ${keys.join(', ')}.`,
        ),
      );
    },
  );
});

describe('an external memory system registered by its descriptor', () => {
  const sections = () => parseRunSections({ provider: 'store', indexRoles: 'all' });

  it('needs the key its capabilities name, from the environment, and keeps it out of every message', () => {
    const descriptor = externalProviderDescriptor(storeDescriptor());
    expect(() =>
      descriptor.create({
        sections: sections(),
        options: { 'top-boost': undefined },
        runId: 'r',
        environment: {},
      }),
    ).toThrow(
      '--provider store needs its API key in the environment variable STORE_API_KEY, which is not set.',
    );
    descriptor.create({
      sections: sections(),
      options: { 'top-boost': undefined },
      runId: 'r',
      environment: { STORE_API_KEY: 'sk-store-0123456789' },
    });
    expect(redact('failed with sk-store-0123456789')).not.toContain('0123456789');
  });

  it('is driven by the external provider: one ingest for questions sharing a haystack, freed after the last', async () => {
    const store = memoryStore();
    const provider = externalProviderDescriptor(storeDescriptor(store)).create({
      sections: sections(),
      options: { 'top-boost': undefined },
      runId: 'run',
      environment: { STORE_API_KEY: 'sk-store-0123456789' },
    });
    const shared = (index: number): LongMemEvalRecord =>
      tinyRecord(index, {
        haystack_session_ids: ['answer_1', 'plain_2'],
        haystack_dates: ['2023/05/01 (Mon) 10:00', '2023/05/02 (Tue) 10:00'],
        haystack_sessions: [
          [
            { role: 'user', content: 'I adopted a greyhound', has_answer: true },
            { role: 'assistant', content: 'Congratulations!' },
          ],
          [{ role: 'user', content: 'the weather is nice' }],
        ],
        answer_session_ids: ['answer_1'],
      });
    const records = [shared(1), shared(2), tinyRecord(3)];
    await provider.plan!({ records });
    const outcomes = await Promise.all(records.map((record) => provider.retrieve({ record })));
    expect(store.calls.filter((call) => call.startsWith('ingest'))).toHaveLength(2);
    expect(outcomes.map((outcome) => outcome.ingest?.shared)).toEqual([false, true, false]);
    expect(outcomes[0]!.hits.map((hit) => hit.sessionId)).toEqual(['answer_1', 'plain_2']);
    expect(outcomes[1]!.hits[0]!.routes).toHaveProperty('store');
    // Freed after the last question of each haystack: nothing left stored.
    expect(store.namespaces.size).toBe(0);
    expect(store.calls.join(' ')).not.toMatch(/answer|plain|q1|q2/);
  });

  it('ingests again after a failed ingest, and charges the one that succeeded', async () => {
    const store = memoryStore();
    let failures = 1;
    const ingest = store.memory.ingest;
    store.memory.ingest = async (namespace, sessions) => {
      if (failures-- > 0) throw new Error('storage full');
      return ingest(namespace, sessions);
    };
    const provider = externalProviderDescriptor(storeDescriptor(store)).create({
      sections: sections(),
      options: { 'top-boost': undefined },
      runId: 'run',
      environment: { STORE_API_KEY: 'sk-store-0123456789' },
    });
    const records = [tinyRecord(1), tinyRecord(2)];
    await provider.plan!({ records });
    await expect(provider.retrieve({ record: records[0]! })).rejects.toThrow('question q1: storage full');
    const second = await provider.retrieve({ record: records[1]! });
    expect(second.ingest?.shared).toBe(false);
    expect(store.namespaces.size).toBe(0);
  });
});
