import { describe, expect, it } from 'vitest';
import { ineffectiveKeyWarnings } from '../../config/ineffective-keys.js';
import type { RunConfigInput } from '../../config/run-config.js';
import { flagOfKey } from '../../config/run-options.js';
import { groupConfig, parseRunConfig } from '../../config/run-sections.js';
import { PROVIDERS } from '../../providers/provider-registry.js';
import { runStages } from '../../report/html/run-provenance.js';
import { llmRoles } from '../../run/checks/preflight.js';
import type { StageDescriptor } from './stage-descriptor.js';
import { STAGES, selectedStages } from './stage-registry.js';

const stages = Object.values(STAGES) as StageDescriptor[];
/** The value that turns a stage's switch on (a stage selected by need keeps its value: it is on when a reader is). */
const onValue = (stage: StageDescriptor) => stage.switchOn?.value ?? true;
const allOn = Object.fromEntries(stages.map((stage) => [stage.switch, onValue(stage)])) as RunConfigInput;
const externals = Object.entries(PROVIDERS).filter(([, provider]) => provider.capabilities.external);
const byNeed = (stage: StageDescriptor) => stage.capabilities.providesSummaries === true;
const readersOfSummaries = stages.filter((stage) => stage.capabilities.needsSummaries);

describe('the stage registry (components/stages/)', () => {
  it('holds stages under their own names, in distinct declared orders, each owning its switch', () => {
    for (const [key, stage] of Object.entries(STAGES)) expect(stage.name).toBe(key);
    const orders = stages.map((stage) => stage.capabilities.order);
    expect(new Set(orders).size).toBe(stages.length);
    for (const stage of stages) expect(Object.keys(stage.options)).toContain(stage.switch);
  });

  it('selects the stages whose switch is on, and those providing what a selected one reads, in their declared order', () => {
    const config = parseRunConfig(allOn);
    const selected = selectedStages(config);
    expect(selected.map(({ descriptor }) => descriptor.name)).toEqual(
      [...stages].sort((a, b) => a.capabilities.order - b.capabilities.order).map((stage) => stage.name),
    );
    for (const { descriptor, options } of selected)
      expect(Object.keys(options).sort()).toEqual(
        Object.keys(descriptor.options)
          .filter((key) => config[key as keyof typeof config] !== undefined)
          .sort(),
      );
    expect(selectedStages(parseRunConfig({}))).toEqual([]);
    // A stage selected by need is on with a reader of what it provides, and off without one.
    for (const reader of readersOfSummaries) {
      const alone = selectedStages(parseRunConfig({ [reader.switch]: onValue(reader) } as RunConfigInput));
      expect(alone.map(({ descriptor }) => descriptor.name)).toEqual(
        [...stages.filter(byNeed), reader]
          .sort((a, b) => a.capabilities.order - b.capabilities.order)
          .map((stage) => stage.name),
      );
    }
  });

  it('lists the stages in the report provenance in the order they run, index-time ones first', () => {
    const config = parseRunConfig(allOn);
    const listed = runStages(config);
    const provenance = (at: (stage: StageDescriptor) => boolean) =>
      selectedStages(config)
        .filter(({ descriptor }) => at(descriptor))
        .flatMap(({ descriptor, options }) => descriptor.provenance(options) ?? []);
    const atIndex = provenance((stage) => stage.capabilities.at === 'index');
    const after = provenance((stage) => stage.capabilities.at !== 'index');
    expect(atIndex.length + after.length).toBeGreaterThan(1);
    expect(listed.slice(0, atIndex.length)).toEqual(atIndex);
    expect(listed.slice(-after.length)).toEqual(after);
  });

  it("warns that a stage's options have no effect without its switch (or a reader), and says nothing with it", () => {
    for (const stage of stages) {
      const others = Object.keys(stage.options).filter((key) => key !== stage.switch);
      const keys = byNeed(stage) ? Object.keys(stage.options) : others;
      const needs = byNeed(stage)
        ? [stage.selectedBy, ...readersOfSummaries.map((reader) => flagOfKey(reader.switch))].join(' or ')
        : flagOfKey(stage.switch);
      expect(ineffectiveKeyWarnings(groupConfig(parseRunConfig({})), keys), stage.name).toEqual(
        keys.map((key) => `${flagOfKey(key)} has no effect without ${needs}.`),
      );
      // On, each option matters unless a rule of the stage's own says which of its values it needs.
      const on = parseRunConfig(allOn);
      const ruled = Object.keys(stage.optionRules ?? {});
      expect(
        ineffectiveKeyWarnings(
          groupConfig(on),
          Object.keys(stage.options).filter((key) => !ruled.includes(key)),
        ),
        stage.name,
      ).toEqual([]);
    }
  });

  it("warns of an option that needs another of its stage's options, or a dense route", () => {
    const on = parseRunConfig({ contextual: 'template', retriever: 'bm25' });
    expect(
      ineffectiveKeyWarnings(groupConfig(on), ['summarizerModel', 'contextualModel', 'contextualDense']),
    ).toEqual([
      '--summarizer-model has no effect without --summarizer llm.',
      '--contextual-model has no effect without --contextual llm.',
      '--contextual-dense has no effect without a dense route.',
    ]);
    const llm = parseRunConfig({ contextual: 'llm', summarizer: 'llm', retriever: 'hybrid' });
    expect(
      ineffectiveKeyWarnings(groupConfig(llm), ['summarizerModel', 'contextualModel', 'contextualDense']),
    ).toEqual([]);
  });

  it('has preflight check the chat models its selected stages call, in the pipeline only', () => {
    const config = parseRunConfig({ contextual: 'llm', contextualModel: 'c-model', summarizer: 'llm' });
    const staged = (roles: ReturnType<typeof llmRoles>) =>
      roles.filter((role) => role.endpoint === 'pipeline').map(({ role, model }) => `${role} ${model}`);
    expect(staged(llmRoles(groupConfig(config)))).toEqual(['summarizer gpt-4o-mini', 'contextual c-model']);
    expect(
      staged(
        llmRoles(
          groupConfig(parseRunConfig({ contextual: 'template', summarizer: 'llm', retriever: 'bm25' })),
        ),
      ),
    ).toEqual(['summarizer gpt-4o-mini']);
    const [external] = externals[0]!;
    expect(staged(llmRoles(groupConfig({ ...config, provider: external as never })))).toEqual([]);
  });

  it('warns that every stage flag has no effect under an external memory system', () => {
    expect(externals.length).toBeGreaterThan(0);
    const config = parseRunConfig(allOn);
    const keys = stages.flatMap((stage) => Object.keys(stage.options));
    for (const [name, provider] of externals)
      expect(ineffectiveKeyWarnings(groupConfig(config), keys, provider.capabilities), name).toEqual(
        keys.map((key) => `${flagOfKey(key)} has no effect without --provider pipeline.`),
      );
  });
});
