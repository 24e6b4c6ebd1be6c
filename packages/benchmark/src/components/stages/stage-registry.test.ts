import { describe, expect, it } from 'vitest';
import { ineffectiveKeyWarnings } from '../../config/ineffective-keys.js';
import { parseRunConfig } from '../../config/parse-run-config.js';
import type { RunConfigInput } from '../../config/run-config.js';
import { flagOfKey } from '../../config/run-options.js';
import { PROVIDERS } from '../../providers/provider-registry.js';
import { runStages } from '../../report/html/run-provenance.js';
import type { StageDescriptor } from './stage-descriptor.js';
import { STAGES, selectedStages } from './stage-registry.js';

const stages = Object.values(STAGES) as StageDescriptor[];
const allOn = Object.fromEntries(stages.map((stage) => [stage.switch, true])) as RunConfigInput;
const externals = Object.entries(PROVIDERS).filter(([, provider]) => provider.capabilities.external);

describe('the stage registry (components/stages/)', () => {
  it('holds stages under their own names, in distinct declared orders, each owning its switch', () => {
    for (const [key, stage] of Object.entries(STAGES)) expect(stage.name).toBe(key);
    const orders = stages.map((stage) => stage.capabilities.order);
    expect(new Set(orders).size).toBe(stages.length);
    for (const stage of stages) expect(Object.keys(stage.options)).toContain(stage.switch);
  });

  it('selects the stages whose switch is on, in their declared order, with their own options', () => {
    const config = parseRunConfig(allOn);
    const selected = selectedStages(config);
    expect(selected.map(({ descriptor }) => descriptor.name)).toEqual(
      [...stages].sort((a, b) => a.capabilities.order - b.capabilities.order).map((stage) => stage.name),
    );
    for (const { descriptor, options } of selected)
      expect(Object.keys(options).sort()).toEqual(Object.keys(descriptor.options).sort());
    expect(selectedStages(parseRunConfig({}))).toEqual([]);
  });

  it('lists the stages in the report provenance in the order they run', () => {
    const config = parseRunConfig(allOn);
    const listed = runStages(config);
    const expected = selectedStages(config).map(({ descriptor, options }) => descriptor.provenance(options));
    expect(listed.slice(-expected.length)).toEqual(expected);
  });

  it("warns that a stage's options have no effect without its switch, and says nothing with it", () => {
    for (const stage of stages) {
      const others = Object.keys(stage.options).filter((key) => key !== stage.switch);
      expect(ineffectiveKeyWarnings(parseRunConfig({}), others)).toEqual(
        others.map((key) => `${flagOfKey(key)} has no effect without ${flagOfKey(stage.switch)}.`),
      );
      const on = parseRunConfig({ [stage.switch]: true } as RunConfigInput);
      expect(ineffectiveKeyWarnings(on, Object.keys(stage.options))).toEqual([]);
    }
  });

  it('warns that every stage flag has no effect under an external memory system', () => {
    expect(externals.length).toBeGreaterThan(0);
    const config = parseRunConfig(allOn);
    const keys = stages.flatMap((stage) => Object.keys(stage.options));
    for (const [name, provider] of externals)
      expect(ineffectiveKeyWarnings(config, keys, provider.capabilities), name).toEqual(
        keys.map((key) => `${flagOfKey(key)} has no effect without --provider pipeline.`),
      );
  });
});
