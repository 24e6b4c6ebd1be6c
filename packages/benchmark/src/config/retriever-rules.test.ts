import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type RetrieverCapabilities, ROUTE_SETS } from '../components/retrievers/retriever-descriptor.js';
import { listNames } from '../components/retrievers/retriever-queries.js';
import { RETRIEVERS, type RetrieverName } from '../components/retrievers/retriever-registry.js';
import { readManifest } from '../run/outputs/run-manifest.js';
import { ineffectiveKeyWarnings } from './ineffective-keys.js';
import { loadPreset } from './presets.js';
import { searchedRoutes } from './retriever-rules.js';
import { type RunConfig, type RunConfigInput, resultKeyDifferences } from './run-config.js';
import { flagOfKey } from './run-options.js';
import { groupConfig, parseRunConfig } from './run-sections.js';

const NAMES = Object.keys(RETRIEVERS) as RetrieverName[];
/** The names a refusal lists, as zod's enum message quotes them. */
const KNOWN = NAMES.map((name) => `"${name}"`).join('|');

/** What an old run wrote to config.json: the routes as `retriever`, the base retriever as booleans. */
function oldConfigJson(config: RunConfig): RunConfigInput {
  const { routes, ...rest } = config;
  const named = config.retriever;
  return {
    ...rest,
    retriever: routes ?? (named as 'bm25' | 'dense' | 'hybrid'),
    sessionAware: named === 'session-aware',
    multiRoute: named === 'multi-route',
    multiSource: named === 'multi-source',
  };
}

describe('RETRIEVERS and the rules over their capabilities', () => {
  it('resolves every key: routes for those that read them, turn granularity for those that rank turns', () => {
    const resolved = Object.fromEntries(
      NAMES.map((name) => {
        const config = parseRunConfig({ retriever: name, granularity: 'session' });
        return [
          name,
          [config.retriever, config.routes ?? '-', config.granularity, searchedRoutes(config).join('+')],
        ];
      }),
    );
    // Every retriever as its capabilities say: --routes' default when it reads them, turns when it ranks them.
    for (const name of NAMES) {
      const { routes, defaultRoutes, ranks } = RETRIEVERS[name].capabilities as RetrieverCapabilities;
      expect(resolved[name], name).toEqual([
        name,
        routes === 'configured' ? (defaultRoutes ?? 'hybrid') : '-',
        ranks === 'turn' ? 'turn' : 'session',
        (routes === 'configured' ? ROUTE_SETS[defaultRoutes ?? 'hybrid'] : routes).join('+'),
      ]);
    }
    expect(resolved).toMatchObject({
      bm25: ['bm25', '-', 'session', 'bm25'],
      dense: ['dense', '-', 'session', 'dense'],
      hybrid: ['hybrid', '-', 'session', 'bm25+dense'],
      'session-aware': ['session-aware', 'hybrid', 'turn', 'bm25+dense'],
      'multi-route': ['multi-route', 'hybrid', 'turn', 'bm25+dense'],
      'multi-source': ['multi-source', 'hybrid', 'session', 'bm25+dense'],
    });
    expect(searchedRoutes(parseRunConfig({ retriever: 'session-aware', routes: 'bm25' }))).toEqual(['bm25']);
  });

  it('states the granularity a retriever that ranks turns sets, and the options only another retriever reads', () => {
    const warnings = (input: RunConfigInput, flags: string[]) =>
      ineffectiveKeyWarnings(groupConfig(parseRunConfig(input)), flags);
    const ranksTurns = (name: RetrieverName) =>
      (RETRIEVERS[name].capabilities as RetrieverCapabilities).ranks === 'turn';
    expect(warnings({ retriever: 'session-aware', granularity: 'session' }, ['granularity'])).toEqual([
      `--granularity has no effect without --retriever ${listNames(NAMES.filter((name) => !ranksTurns(name)))} (${listNames(NAMES.filter(ranksTurns), 'and')} rank turns).`,
    ]);
    expect(warnings({ retriever: 'multi-source', granularity: 'turn' }, ['granularity'])).toEqual([]);
    expect(
      warnings({ retriever: 'hybrid', topSessions: 3, routes: 'dense' }, ['topSessions', 'routes']),
    ).toEqual([
      '--top-sessions has no effect without --retriever session-aware.',
      `--routes has no effect without --retriever ${listNames(NAMES.filter((name) => RETRIEVERS[name].capabilities.routes === 'configured'))}.`,
    ]);
  });

  it('a name the registry does not hold is refused with the close one, then the known ones', () => {
    expect(() => parseRunConfig({ retriever: 'sesion-aware' as never })).toThrow(
      `Invalid configuration: retriever: Invalid option "sesion-aware" (did you mean "session-aware"?): expected one of ${KNOWN} (--retriever).`,
    );
    expect(() => parseRunConfig({ retriever: 'hybird' as never })).toThrow(/did you mean "hybrid"\?/);
  });

  it("a retriever's own option under another retriever has no effect, naming its owner", () => {
    const owned = NAMES.flatMap((name) =>
      Object.keys(RETRIEVERS[name].options).map((key) => ({ key, name })),
    );
    expect(owned.map(({ key }) => key)).toEqual(expect.arrayContaining(['topSessions', 'sourceWeights']));
    for (const { key, name } of owned) {
      const other = NAMES.find((candidate) => candidate !== name)!;
      const config = parseRunConfig({ retriever: other });
      expect(ineffectiveKeyWarnings(groupConfig(config), [key]), key).toEqual([
        `${flagOfKey(key)} has no effect without --retriever ${name}.`,
      ]);
      expect(ineffectiveKeyWarnings(groupConfig(parseRunConfig({ retriever: name })), [key]), key).toEqual(
        [],
      );
    }
  });

  it('an unknown retriever is refused, listing the known ones', () => {
    expect(() => parseRunConfig({ retriever: 'graph' as never })).toThrow(
      `retriever: Invalid option "graph": expected one of ${KNOWN} (--retriever).`,
    );
  });
});

describe('combinations a base retriever cannot run with', () => {
  it('give one sentence naming both flags', () => {
    const refusal = (input: RunConfigInput) => {
      try {
        parseRunConfig(input);
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(refusal({ sessionAware: true, multiRoute: true })).toBe(
      'Invalid configuration: --multi-route cannot be combined with --session-aware: each is a base retriever; name one with --retriever.',
    );
    expect(refusal({ multiRoute: true, multiSource: true })).toBe(
      'Invalid configuration: --multi-source cannot be combined with --multi-route: each is a base retriever; name one with --retriever.',
    );
    expect(refusal({ retriever: 'session-aware', multiSource: true })).toBe(
      'Invalid configuration: --multi-source cannot be combined with --retriever session-aware: each is a base retriever; name one with --retriever.',
    );
    expect(refusal({ retriever: 'session-aware', chunkUnit: 'session' })).toBe(
      'Invalid configuration: --chunk-unit session cannot be combined with --retriever session-aware: it ranks turns (or rounds with --chunk-unit round), not whole sessions.',
    );
    expect(refusal({ retriever: 'hybrid', sessionFirst: true })).toBe(
      'Invalid configuration: --session-first needs --retriever multi-route, not --retriever hybrid.',
    );
    // The old boolean naming the retriever already named is no conflict.
    expect(refusal({ retriever: 'session-aware', sessionAware: true })).toBe('accepted');
    expect(refusal({ retriever: 'multi-route', chunkUnit: 'round' })).toBe('accepted');
  });

  it('a wrong type of an old key is refused by the schema, naming it', () => {
    expect(() => parseRunConfig({ sessionAware: 'yes' as never })).toThrow(
      /sessionAware: .*\(--session-aware\)/,
    );
  });
});

describe('configs of the old form', () => {
  it('an old preset (booleans) resolves to the same config as today’s', () => {
    const old: Record<string, RunConfigInput> = {
      'session-aware': { retriever: 'hybrid', sessionAware: true, topSessions: 5, weights: [0.4, 0.6] },
      'multi-route': { retriever: 'hybrid', multiRoute: true, sessionFirst: true, rrfK: 60 },
      'multi-source': { retriever: 'hybrid', granularity: 'session', multiSource: true },
    };
    for (const [name, input] of Object.entries(old)) {
      const { sessionAware: _s, multiRoute: _m, multiSource: _x, retriever: _r, ...rest } = input;
      expect(parseRunConfig(input), name).toEqual(
        parseRunConfig({ ...rest, retriever: name as RetrieverName, routes: 'hybrid' }),
      );
    }
    // The old --retriever defaulted to bm25: `--session-aware` alone searched BM25 only.
    expect(parseRunConfig({ sessionAware: true })).toEqual(
      parseRunConfig({ retriever: 'session-aware', routes: 'bm25' }),
    );
  });

  it('an old run’s config.json (booleans) maps to the same resolved config, replayed as a preset or read back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lme-old-config-'));
    try {
      for (const name of ['session-aware', 'multi-route', 'multi-source', 'hybrid', 'bm25']) {
        const current = parseRunConfig(name === 'bm25' ? {} : loadPreset(name).config);
        const path = join(dir, `${name}.json`);
        writeFileSync(path, JSON.stringify({ run_id: name, config: oldConfigJson(current) }));
        // `--preset path/config.json` replays it.
        expect(parseRunConfig(loadPreset(path).config), name).toEqual(current);
      }
      // --resume, compare and the report read a run's config.json in today's form: no result key differs.
      writeFileSync(
        join(dir, 'config.json'),
        JSON.stringify({
          run_id: 'old',
          config: oldConfigJson(parseRunConfig(loadPreset('session-aware').config)),
        }),
      );
      const manifest = readManifest(dir);
      expect(manifest.config).toMatchObject({
        retriever: 'session-aware',
        routes: 'hybrid',
        granularity: 'turn',
      });
      expect(manifest.config).not.toHaveProperty('sessionAware');
      expect(
        resultKeyDifferences(manifest.config, parseRunConfig(loadPreset('session-aware').config)),
      ).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
