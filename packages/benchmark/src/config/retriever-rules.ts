import { ownOptions } from '../components/component.js';
import type { RouteSetName } from '../components/retrievers/retriever-descriptor.js';
import { ROUTE_SETS, type Route } from '../components/retrievers/retriever-descriptor.js';
import { type AnyRetriever, retrieverNamed } from '../components/retrievers/retriever-queries.js';
import type { RetrieverName } from '../components/retrievers/retriever-registry.js';

/**
 * What the config asks of its base retriever, answered by the retriever's descriptor
 * (components/retrievers/<name>/): its routes, its fusion, the documents it ranks and what its
 * own options make it do. Nothing here names a retriever.
 */

export type { Route, RouteSetName } from '../components/retrievers/retriever-descriptor.js';
export { ROUTE_SETS };

/** The part of a config that says which retriever runs over which routes. */
export type RetrieverChoice = {
  readonly retriever: RetrieverName;
  readonly routes?: RouteSetName | undefined;
};

const descriptorOf = (config: Pick<RetrieverChoice, 'retriever'>): AnyRetriever =>
  retrieverNamed(config.retriever);

/** The routes a resolved config's base retriever searches. */
export function searchedRoutes(config: RetrieverChoice): readonly Route[] {
  const { routes, defaultRoutes } = descriptorOf(config).capabilities;
  return routes === 'configured' ? ROUTE_SETS[config.routes ?? defaultRoutes ?? 'hybrid'] : routes;
}

/** The base retriever searches a dense route (it embeds the documents). */
export const searchesDense = (config: RetrieverChoice): boolean => searchedRoutes(config).includes('dense');

/**
 * The base retriever reads `--fusion`: one that fuses its own stages always, or one fusing two
 * routes (one fusing by RRF alone reads `--rrf-k` only).
 */
export function fusesRoutes(config: RetrieverChoice): boolean {
  const { fusion } = descriptorOf(config).capabilities;
  return fusion === 'always' || (fusion === 'routes' && searchedRoutes(config).length > 1);
}

/** The base retriever fuses by reciprocal rank alone (`--rrf-k`, whatever `--fusion` says). */
export const fusesByRrfAlone = (config: Pick<RetrieverChoice, 'retriever'>): boolean =>
  descriptorOf(config).capabilities.fusion === 'rrf';

/** The base retriever reads `--routes`. */
export const takesRoutes = (config: Pick<RetrieverChoice, 'retriever'>): boolean =>
  descriptorOf(config).capabilities.routes === 'configured';

/** The base retriever ranks turns, whatever `--granularity` says. */
export const ranksTurns = (config: Pick<RetrieverChoice, 'retriever'>): boolean =>
  descriptorOf(config).capabilities.ranks === 'turn';

/** The base retriever reads a route setting (`bm25Settings`: `--bm25-k1`, `--bm25-b`, BM25 feedback). */
export const readsRouteSetting = (
  config: Pick<RetrieverChoice, 'retriever'>,
  setting: 'bm25Settings' | 'timeBoost' | 'denseNeighbours',
): boolean => descriptorOf(config).capabilities[setting];

/** The base retriever with its own options (as `RunSections.retriever` holds it). */
export type OwnedRetriever = { readonly name: string; readonly options: Readonly<Record<string, unknown>> };

/** A resolved config's retriever options (those its descriptor declares). */
export const retrieverOptions = (
  config: Pick<RetrieverChoice, 'retriever'> & Readonly<Record<string, unknown>>,
): Record<string, unknown> => ownOptions(descriptorOf(config), config);

/** The retriever a resolved config selects, with its own options. */
export const selectedRetriever = (
  config: Pick<RetrieverChoice, 'retriever'> & Readonly<Record<string, unknown>>,
): OwnedRetriever => ({ name: config.retriever, options: retrieverOptions(config) });

const descriptorOwning = (retriever: OwnedRetriever): AnyRetriever =>
  retrieverNamed(retriever.name as RetrieverName);

/** The most candidates per question the base retriever hands the rerank stage (undefined: every document). */
export const rerankCandidates = (retriever: OwnedRetriever): number | undefined =>
  descriptorOwning(retriever).rerankCandidates?.(retriever.options);

/** The base retriever's stages under its options, for the report's provenance. */
export const retrieverStages = (retriever: OwnedRetriever): string[] =>
  descriptorOwning(retriever).stages?.(retriever.options) ?? [];

/** What explain.jsonl says of the base retriever (its own fusion, its weights). */
export const retrieverExplain = (
  retriever: OwnedRetriever,
  rrfK: number,
): { fusion?: Record<string, unknown>; weights?: Record<string, unknown> } =>
  descriptorOwning(retriever).explain?.(retriever.options, { rrfK }) ?? {};
