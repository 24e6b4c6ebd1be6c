import { describe, expect, it } from 'vitest';
import type { RetrieverCapabilities } from '../components/retrievers/retriever-descriptor.js';
import { RETRIEVERS, type RetrieverName } from '../components/retrievers/retriever-registry.js';
import { ineffectiveKeyWarnings } from './ineffective-keys.js';
import { searchedRoutes } from './retriever-rules.js';
import type { RunConfig, RunConfigInput } from './run-config.js';
import { flagOfKey } from './run-options.js';
import { groupConfig, parseRunConfig } from './run-sections.js';

const warnings = (input: RunConfigInput, flags: string[]) =>
  ineffectiveKeyWarnings(groupConfig(parseRunConfig(input)), flags);

/** Whether a retriever reads a route setting, by its capabilities and the routes it searches. */
const READS: Record<string, (capabilities: RetrieverCapabilities, config: RunConfig) => boolean> = {
  timeBoost: (capabilities) => capabilities.timeBoost,
  bm25K1: (capabilities) => capabilities.bm25Settings,
  bm25FeedbackDocs: (capabilities) => capabilities.bm25Settings,
  denseNeighbours: (capabilities, config) =>
    capabilities.denseNeighbours && searchedRoutes(config).includes('dense'),
  fusion: (capabilities, config) =>
    capabilities.fusion === 'always' ||
    (capabilities.fusion === 'routes' && searchedRoutes(config).length > 1),
};

describe('the has-no-effect warnings of the keys base retrievers read (from their capabilities)', () => {
  it('warn about a route setting exactly under the retrievers whose capabilities do not read it', () => {
    for (const name of Object.keys(RETRIEVERS) as RetrieverName[]) {
      const config = parseRunConfig({ retriever: name });
      const capabilities = RETRIEVERS[name].capabilities as RetrieverCapabilities;
      for (const [key, reads] of Object.entries(READS)) {
        const said = ineffectiveKeyWarnings(groupConfig(config), [key]);
        expect(said, `${name} ${key}`).toHaveLength(reads(capabilities, config) ? 0 : 1);
        for (const sentence of said)
          expect(sentence).toMatch(new RegExp(`^${flagOfKey(key)} has no effect without .+\\.$`));
      }
    }
  });

  it('name the retrievers that read the route settings', () => {
    const [timeBoost, denseNeighbours, bm25K1, fusion] = warnings({ retriever: 'multi-route' }, [
      'timeBoost',
      'denseNeighbours',
      'bm25K1',
      'fusion',
    ]);
    expect(timeBoost).toMatch(
      /^--time-boost has no effect without --provider pipeline \(not --retriever .*multi-route/,
    );
    expect(denseNeighbours).toMatch(
      /^--dense-neighbours has no effect without a dense route \(--retriever .*hybrid/,
    );
    expect(bm25K1).toMatch(/^--bm25-k1 has no effect without --retriever .*session-aware/);
    expect(fusion).toMatch(
      /^--fusion has no effect without --retriever .*hybrid.* \(or multi-source over --routes hybrid\)\.$/,
    );
    expect(warnings({ retriever: 'bm25' }, ['rrfK', 'weights'])).toEqual([
      expect.stringMatching(
        /^--rrf-k has no effect without --fusion rrf with --retriever .*, or --retriever .+\.$/,
      ),
      expect.stringMatching(/^--weights has no effect without --fusion weighted\|combmnz with --retriever /),
    ]);
  });

  it('say nothing where the retriever reads the key', () => {
    expect(warnings({ retriever: 'multi-route' }, ['rrfK', 'routes', 'sessionFirst'])).toEqual([]);
    expect(
      warnings({ retriever: 'session-aware', routes: 'bm25' }, ['fusion', 'bm25K1', 'timeBoost']),
    ).toEqual([]);
    expect(warnings({ retriever: 'multi-source', routes: 'dense' }, ['denseNeighbours'])).toEqual([]);
    expect(warnings({ retriever: 'multi-source', routes: 'hybrid' }, ['fusion', 'weights'])).toEqual([]);
  });
});
