import { ROUTE_SETS, type RouteSetName } from '../components/retrievers/retriever-descriptor.js';
import { type AnyRetriever, listNames, retrieversWhere } from '../components/retrievers/retriever-queries.js';

/**
 * The "has no effect without …" phrases of the keys base retrievers read, written from the
 * descriptors' capabilities (config/ineffective-keys.ts states them): a new retriever joins them
 * by its capabilities, never by name.
 */

const where = retrieversWhere;
const fixedRoutes = ({ capabilities }: AnyRetriever) => capabilities.routes !== 'configured';
const routeSets = (test: (routes: readonly string[]) => boolean) =>
  (Object.keys(ROUTE_SETS) as RouteSetName[]).filter((name) => test(ROUTE_SETS[name]));

const fuseTheirRoutes = where(
  (descriptor) =>
    (fixedRoutes(descriptor) &&
      descriptor.capabilities.fusion === 'routes' &&
      descriptor.capabilities.routes.length > 1) ||
    descriptor.capabilities.fusion === 'always',
);
const fuseConfiguredRoutes = where(
  (descriptor) => !fixedRoutes(descriptor) && descriptor.capabilities.fusion === 'routes',
);
const FUSES = `--retriever ${listNames(fuseTheirRoutes)}${fuseConfiguredRoutes.length > 0 ? ` (or ${listNames(fuseConfiguredRoutes)} over --routes ${listNames(routeSets((routes) => routes.length > 1))})` : ''}`;

const denseRetrievers = where(
  (descriptor) => fixedRoutes(descriptor) && (descriptor.capabilities.routes as string[]).includes('dense'),
);
const DENSE_ROUTE = `a dense route (--retriever ${denseRetrievers.join('|')}, or --routes ${routeSets((routes) => routes.includes('dense')).join('|')})`;

const butNot = (names: readonly string[], before: string, after: string) =>
  names.length > 0 ? `${before}not --retriever ${listNames(names)}${after}` : '';

const turnRankers = where(({ capabilities }) => capabilities.ranks === 'turn');
const rrfAlone = where(({ capabilities }) => capabilities.fusion === 'rrf');

export const RETRIEVER_NEEDS = {
  FUSES,
  DENSE_ROUTE,
  bm25Settings: `--retriever ${listNames(where(({ capabilities }) => capabilities.bm25Settings))}`,
  routes: `--retriever ${listNames(where((descriptor) => !fixedRoutes(descriptor)))}`,
  granularity: `--retriever ${listNames(where(({ capabilities }) => capabilities.ranks !== 'turn'))}${turnRankers.length > 0 ? ` (${listNames(turnRankers, 'and')} rank turns)` : ''}`,
  timeBoost: `--provider pipeline${butNot(
    where(({ capabilities }) => !capabilities.timeBoost),
    ' (',
    ')',
  )}`,
  denseNeighbours: `${DENSE_ROUTE}${butNot(
    where(({ capabilities }) => !capabilities.denseNeighbours),
    ', ',
    '',
  )}`,
  rrfK: `--fusion rrf with ${FUSES}${rrfAlone.length > 0 ? `, or --retriever ${listNames(rrfAlone)}` : ''}`,
} as const;
