import { describe, expect, it } from 'vitest';
import { benchmarkNamed } from '../benchmarks/benchmark-registry.js';
import { parseRunConfig } from '../config/run-sections.js';
import { benchmarkLayer, settleBenchmarkDefaults } from './benchmark-defaults.js';

describe("a benchmark's published setting as a config layer", () => {
  const locomo = benchmarkNamed('locomo');

  it('decides only the keys no higher layer sets, and records which', () => {
    expect(benchmarkLayer(locomo, {})).toEqual({
      convention: 'evidence',
      judge: 'locomo-llm',
      readerPrompt: 'locomo',
      benchmarkDefaults: { benchmark: 'locomo', keys: ['convention', 'judge', 'readerPrompt'] },
    });
    expect(benchmarkLayer(locomo, { judge: 'longmemeval', readerPrompt: 'cot' })).toEqual({
      convention: 'evidence',
      benchmarkDefaults: { benchmark: 'locomo', keys: ['convention'] },
    });
    expect(
      benchmarkLayer(locomo, { convention: 'evidence', judge: 'longmemeval', readerPrompt: 'cot' }),
    ).toEqual({});
  });

  it("fills a parsed config's unset judge and reader prompt from the dataset's benchmark", () => {
    const settled = settleBenchmarkDefaults(
      parseRunConfig({ dataset: 'x.json', convention: 'evidence' }),
      locomo,
    );
    expect(settled).toMatchObject({
      judge: 'locomo-llm',
      readerPrompt: 'locomo',
      benchmarkDefaults: { benchmark: 'locomo', keys: ['judge', 'readerPrompt'] },
    });
    const kept = settleBenchmarkDefaults(
      parseRunConfig({ dataset: 'x.json', judge: 'longmemeval', readerPrompt: 'cot' }),
      locomo,
    );
    expect(kept).toMatchObject({ judge: 'longmemeval', readerPrompt: 'cot' });
    expect(kept.benchmarkDefaults).toBeUndefined();
  });

  it('refuses a judge or reader prompt no benchmark brings, in one sentence naming the flag', () => {
    expect(() =>
      settleBenchmarkDefaults(parseRunConfig({ dataset: 'x.json', judge: 'locomo-lm' }), locomo),
    ).toThrow('--judge locomo-lm: no benchmark brings it (close names: locomo-llm, locomo-plus).');
    expect(() =>
      settleBenchmarkDefaults(parseRunConfig({ dataset: 'x.json', readerPrompt: 'cott' }), locomo),
    ).toThrow(/^--reader-prompt cott: no benchmark brings it \(close names: cot/);
  });
});
