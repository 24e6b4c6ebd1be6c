import { ConfigError } from './config-error.js';
import type { RunConfig, RunConfigInput } from './run-config.js';
import { flagOfKey } from './run-options.js';

/** A route of the pipeline: a scorer over the indexed documents. */
export type Route = 'bm25' | 'dense';

/** The routes `--routes` names (a session-aware, multi-route or multi-source retriever searches them). */
export const ROUTE_SETS = {
  bm25: ['bm25'],
  dense: ['dense'],
  hybrid: ['bm25', 'dense'],
} as const satisfies Record<NonNullable<RunConfig['routes']>, readonly Route[]>;

export type RouteSetName = keyof typeof ROUTE_SETS;

/** A setting a base retriever cannot run with, and why (said in the refusal). */
type Refusal = { key: keyof RunConfig; value: unknown; reason: string };

/**
 * What a base retriever is, as far as the config knows: the routes it searches (fixed, or those
 * `--routes` names), the documents it ranks, the config keys only it reads, and the settings it
 * cannot run with. The pipeline builds it from the key of the same name in
 * `providers/pipeline/base-retriever-factories.ts`.
 */
export type BaseRetrieverDeclaration = {
  readonly description: string;
  /** Fixed routes, or `configured`: those `--routes` names (default `defaultRoutes`). */
  readonly routes: readonly Route[] | 'configured';
  readonly defaultRoutes?: RouteSetName;
  /**
   * `turn`: it ranks turns inside sessions, so its documents are turns whatever `--granularity`
   * says (the run sets granularity to turn and records it; `--granularity` given as a flag warns).
   */
  readonly ranks?: 'turn';
  /** Config keys only this retriever reads: a flag for one of them under another retriever has no effect. */
  readonly options: readonly (keyof RunConfig)[];
  readonly refuses: readonly Refusal[];
  /** The boolean key old configs and command lines set for it (`sessionAware`: `--session-aware`). */
  readonly legacyKey?: LegacyRetrieverKey;
};

/** The boolean keys that named a base retriever before `--retriever` did. */
export const LEGACY_RETRIEVER_KEYS = ['sessionAware', 'multiRoute', 'multiSource'] as const;
export type LegacyRetrieverKey = (typeof LEGACY_RETRIEVER_KEYS)[number];

const RANKS_TURNS = 'it ranks turns (or rounds with --chunk-unit round), not whole sessions';

/** Every base retriever `--retriever` names: one key each, with its options and refusals. */
export const BASE_RETRIEVERS = {
  bm25: { description: 'BM25 over the documents', routes: ['bm25'], options: [], refuses: [] },
  dense: { description: 'dense similarity over the documents', routes: ['dense'], options: [], refuses: [] },
  hybrid: {
    description: 'BM25 and dense fused (--fusion)',
    routes: ['bm25', 'dense'],
    options: [],
    refuses: [],
  },
  'session-aware': {
    description:
      'sessions first (--routes over session text and best turns), then the best turns inside them',
    routes: 'configured',
    defaultRoutes: 'hybrid',
    ranks: 'turn',
    options: ['topSessions', 'turnsPerSession', 'sessionIndex', 'sessionWeights'],
    refuses: [{ key: 'chunkUnit', value: 'session', reason: RANKS_TURNS }],
    legacyKey: 'sessionAware',
  },
  'multi-route': {
    description: 'turn BM25, turn dense (when --routes has it) and session-text BM25 fused by RRF (--rrf-k)',
    routes: 'configured',
    defaultRoutes: 'hybrid',
    ranks: 'turn',
    options: ['sessionFirst'],
    refuses: [{ key: 'chunkUnit', value: 'session', reason: RANKS_TURNS }],
    legacyKey: 'multiRoute',
  },
  'multi-source': {
    description: 'stored memory (--routes, fused), an entity graph and the conversation context, merged',
    routes: 'configured',
    defaultRoutes: 'hybrid',
    options: ['sourceWeights'],
    refuses: [],
    legacyKey: 'multiSource',
  },
} as const satisfies Record<RunConfig['retriever'], BaseRetrieverDeclaration>;

export type BaseRetrieverName = keyof typeof BASE_RETRIEVERS;

const declarationOf = (name: BaseRetrieverName): BaseRetrieverDeclaration => BASE_RETRIEVERS[name];

/** The routes a resolved config's base retriever searches. */
export function searchedRoutes(config: Pick<RunConfig, 'retriever' | 'routes'>): readonly Route[] {
  const { routes, defaultRoutes } = declarationOf(config.retriever);
  return routes === 'configured' ? ROUTE_SETS[config.routes ?? defaultRoutes ?? 'hybrid'] : routes;
}

/** The base retriever searches a dense route (it embeds the documents). */
export const searchesDense = (config: Pick<RunConfig, 'retriever' | 'routes'>): boolean =>
  searchedRoutes(config).includes('dense');

/**
 * The base retriever reads `--fusion`: session-aware (its two stages), or one fusing two routes
 * (multi-route fuses by RRF alone, `--rrf-k`).
 */
export const fusesRoutes = (config: Pick<RunConfig, 'retriever' | 'routes'>): boolean =>
  config.retriever === 'session-aware' ||
  (config.retriever !== 'multi-route' && searchedRoutes(config).length > 1);

/** The base retriever reads `--routes`. */
export const takesRoutes = (config: Pick<RunConfig, 'retriever'>): boolean =>
  declarationOf(config.retriever).routes === 'configured';

/** The base retriever ranks turns, whatever `--granularity` says. */
export const ranksTurns = (config: Pick<RunConfig, 'retriever'>): boolean =>
  declarationOf(config.retriever).ranks === 'turn';

/** The base retriever whose option `key` is (`topSessions` → session-aware), if one is. */
export function retrieverOfOption(key: string): BaseRetrieverName | undefined {
  return (Object.keys(BASE_RETRIEVERS) as BaseRetrieverName[]).find((name) =>
    (declarationOf(name).options as readonly string[]).includes(key),
  );
}

const isRouteSet = (value: unknown): value is RouteSetName =>
  typeof value === 'string' && Object.hasOwn(ROUTE_SETS, value);

/**
 * Maps the old form of a config (`retriever: hybrid` with `sessionAware: true`, from an old
 * preset, a run's config.json or `--session-aware`) onto the new one (`retriever:
 * session-aware`, `routes: hybrid`), the old retriever becoming the routes. Two base retrievers
 * named at once are refused in one sentence naming both flags.
 */
export function fromLegacyRetrieverKeys(input: RunConfigInput): RunConfigInput {
  // A value that is no boolean stays for the schema to refuse, naming the key.
  const legacy = LEGACY_RETRIEVER_KEYS.filter((key) => typeof input[key] === 'boolean');
  const rest: RunConfigInput = { ...input };
  for (const key of legacy) delete rest[key];
  const named = (Object.keys(BASE_RETRIEVERS) as BaseRetrieverName[]).filter((name) => {
    const { legacyKey } = declarationOf(name);
    return legacyKey !== undefined && input[legacyKey] === true;
  });
  if (named.length === 0) return rest;
  const flagOf = (name: BaseRetrieverName) => flagOfKey(declarationOf(name).legacyKey!);
  const legacyKeys = named.map((name) => declarationOf(name).legacyKey!);
  if (named.length > 1)
    throw new ConfigError(
      `Invalid configuration: ${flagOf(named[1]!)} cannot be combined with ${flagOf(named[0]!)}: each is a base retriever; name one with --retriever.`,
      legacyKeys,
    );
  const name = named[0]!;
  const current = rest.retriever;
  if (current !== undefined && !isRouteSet(current) && current !== name)
    throw new ConfigError(
      `Invalid configuration: ${flagOf(name)} cannot be combined with --retriever ${current}: each is a base retriever; name one with --retriever.`,
      [legacyKeys[0]!, 'retriever'],
    );
  // The old --retriever named the routes; its default was bm25.
  const routes = rest.routes ?? (isRouteSet(current) ? current : current === name ? undefined : 'bm25');
  return { ...rest, retriever: name, ...(routes ? { routes } : {}) };
}

/**
 * Holds a validated config to its base retriever's declaration: refuses the settings it cannot run
 * with and a true option of another retriever (one sentence naming both flags), fills `routes`
 * for a retriever that reads them, and sets the granularity of one that ranks turns.
 */
export function settleBaseRetriever(config: RunConfig): RunConfig {
  const declaration = declarationOf(config.retriever);
  const retrieverFlag = `--retriever ${config.retriever}`;
  for (const refusal of declaration.refuses) {
    if (config[refusal.key] === refusal.value)
      throw new ConfigError(
        `Invalid configuration: ${flagOfKey(refusal.key)} ${String(refusal.value)} cannot be combined with ${retrieverFlag}: ${refusal.reason}.`,
        [refusal.key, 'retriever'],
      );
  }
  for (const key of Object.keys(config) as (keyof RunConfig)[]) {
    const owner = retrieverOfOption(key);
    if (owner && owner !== config.retriever && config[key] === true)
      throw new ConfigError(
        `Invalid configuration: ${flagOfKey(key)} needs --retriever ${owner}, not ${retrieverFlag}.`,
        [key, 'retriever'],
      );
  }
  const settled: RunConfig = { ...config };
  if (declaration.routes === 'configured') settled.routes = config.routes ?? declaration.defaultRoutes;
  if (declaration.ranks === 'turn') settled.granularity = 'turn';
  return settled;
}
