import { describe, expect, it } from 'vitest';
import { ownersOf } from './component-kinds.js';
import { runConfigSchema } from './run-config.js';
import { datasetSourceOf, groupConfig, parseRunConfig } from './run-sections.js';

/** The fields of `RunSections` that hold selected components, not a section. */
const COMPONENTS = ['retriever', 'embedders', 'reranker', 'pipelineStages'];

describe('groupConfig', () => {
  it('puts every key of a resolved config in exactly one section or one selected component', () => {
    const config = parseRunConfig({ retriever: 'session-aware', reranker: 'offline:session-prior', topK: 5 });
    const sections = groupConfig(config);
    const placed = [
      ...Object.entries(sections).flatMap(([name, section]) =>
        COMPONENTS.includes(name) ? [] : Object.keys(section ?? {}),
      ),
      ...Object.keys(sections.retriever.options),
      ...sections.embedders.flatMap((embedder) => Object.keys(embedder.options)),
      ...Object.keys(sections.reranker?.options ?? {}),
      ...sections.pipelineStages.flatMap((stage) => Object.keys(stage.options)),
    ];
    // The rest are options of components of a kind the config did not select (http's --rerank-model).
    const unplaced = Object.keys(config).filter((key) => !placed.includes(key));
    expect(unplaced.filter((key) => ownersOf(key) === undefined)).toEqual([]);
    expect(unplaced.filter((key) => ownersOf(key)?.owners.includes(sections.reranker!.name))).toEqual([]);
    expect(placed.length).toBe(new Set(placed).size);
    expect(sections.data.dataset).toBe('sample');
    expect(sections.retrieval.topK).toBe(5);
    expect(sections.retriever.id).toBe('session-aware');
    expect(sections.reranker?.id).toBe('offline:session-prior');
    expect(sections.embedders.map((embedder) => embedder.name)).toEqual(['hf', 'hf']);
    // The reranking stage is selected with its own option (the reranker's id), and session-aware's summaries are not.
    expect(sections.pipelineStages.map(({ descriptor, options }) => [descriptor.name, options])).toEqual([
      ['reranking', { reranker: 'offline:session-prior' }],
    ]);
  });

  it('knows every key of the run config schema in one section or one component registry', () => {
    const config = parseRunConfig({});
    const sections = groupConfig(config);
    const sectionKeys = Object.entries(sections)
      .filter(([name]) => !COMPONENTS.includes(name))
      .flatMap(([, section]) => Object.keys(section ?? {}));
    expect(sectionKeys.length).toBe(new Set(sectionKeys).size);
    // Every key the schema knows is a section's or a component's: none is left out of the grouping.
    const owned = new Set([...sectionKeys, ...Object.keys(sections.retriever.options)]);
    const unplaced = Object.keys(runConfigSchema.shape).filter(
      (key) =>
        !owned.has(key) &&
        ownersOf(key) === undefined &&
        !['sessionAware', 'multiRoute', 'multiSource'].includes(key),
    );
    expect(unplaced.filter((key) => key in config)).toEqual([]);
  });
});

describe('datasetSourceOf', () => {
  it("reads the dataset of an input at the schema's defaults, refusing a bad value as the parse does", () => {
    expect(datasetSourceOf({})).toEqual({ dataset: 'sample', dataDir: 'datasets' });
    expect(datasetSourceOf({ dataset: 's', dataDir: '/data', topK: 5 })).toEqual({
      dataset: 's',
      dataDir: '/data',
    });
    expect(() => datasetSourceOf({ dataset: '' })).toThrow(
      /^Invalid configuration: dataset: .*\(--dataset\)\.$/,
    );
  });
});
