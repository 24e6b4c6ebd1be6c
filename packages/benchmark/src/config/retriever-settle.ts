import { componentsOwning } from '../components/component.js';
import { ROUTE_SETS, type RouteSetName } from '../components/retrievers/retriever-descriptor.js';
import { retrieverNamed } from '../components/retrievers/retriever-queries.js';
import { RETRIEVERS } from '../components/retrievers/retriever-registry.js';
import { ConfigError } from './config-error.js';
import type { RetrieverChoice } from './retriever-rules.js';
import { flagOfKey } from './run-options.js';
import { LEGACY_RETRIEVER_KEYS } from './sections/retrieval-section.js';

const isRouteSet = (value: unknown): value is RouteSetName =>
  typeof value === 'string' && Object.hasOwn(ROUTE_SETS, value);

/**
 * Maps the old form of a config (`retriever: hybrid` with `sessionAware: true`, from an old
 * preset, a run's config.json or `--session-aware`) onto the new one (`retriever:
 * session-aware`, `routes: hybrid`), the old retriever becoming the routes. The old keys are the
 * descriptors' `capabilities.legacyKey`. Two base retrievers named at once are refused in one
 * sentence naming both flags.
 */
export function fromLegacyRetrieverKeys<I extends Readonly<Record<string, unknown>>>(input: I): I {
  // A value that is no boolean stays for the schema to refuse, naming the key.
  const legacy = LEGACY_RETRIEVER_KEYS.filter(({ key }) => typeof input[key] === 'boolean');
  const rest: Record<string, unknown> = { ...input };
  for (const { key } of legacy) delete rest[key];
  const named = LEGACY_RETRIEVER_KEYS.filter(({ key }) => input[key] === true);
  if (named.length === 0) return rest as I;
  const legacyKeys = named.map(({ key }) => key);
  if (named.length > 1)
    throw new ConfigError(
      `Invalid configuration: ${flagOfKey(named[1]!.key)} cannot be combined with ${flagOfKey(named[0]!.key)}: each is a base retriever; name one with --retriever.`,
      legacyKeys,
    );
  const { key, retriever: name } = named[0]!;
  const current = rest.retriever;
  if (current !== undefined && !isRouteSet(current) && current !== name)
    throw new ConfigError(
      `Invalid configuration: ${flagOfKey(key)} cannot be combined with --retriever ${current}: each is a base retriever; name one with --retriever.`,
      [key, 'retriever'],
    );
  // The old --retriever named the routes; its default was bm25.
  const routes = rest.routes ?? (isRouteSet(current) ? current : current === name ? undefined : 'bm25');
  return { ...rest, retriever: name, ...(routes ? { routes } : {}) } as unknown as I;
}

/**
 * Holds a validated config to its base retriever's descriptor: refuses the settings it cannot run
 * with and a true option of another retriever (one sentence naming both flags), fills `routes`
 * for a retriever that reads them, and sets the granularity of one that ranks turns.
 */
export function settleBaseRetriever<C extends RetrieverChoice & { granularity: 'session' | 'turn' }>(
  config: C,
): C {
  const { capabilities } = retrieverNamed(config.retriever);
  const values = config as Readonly<Record<string, unknown>>;
  const retrieverFlag = `--retriever ${config.retriever}`;
  for (const refusal of capabilities.refuses) {
    if (values[refusal.key] === refusal.value)
      throw new ConfigError(
        `Invalid configuration: ${flagOfKey(refusal.key)} ${String(refusal.value)} cannot be combined with ${retrieverFlag}: ${refusal.reason}.`,
        [refusal.key, 'retriever'],
      );
  }
  for (const key of Object.keys(config)) {
    const owners = componentsOwning(RETRIEVERS, key);
    if (owners.length > 0 && !owners.includes(config.retriever) && values[key] === true)
      throw new ConfigError(
        `Invalid configuration: ${flagOfKey(key)} needs --retriever ${owners.join('|')}, not ${retrieverFlag}.`,
        [key, 'retriever'],
      );
  }
  const settled: C & { routes?: RetrieverChoice['routes']; granularity: 'session' | 'turn' } = {
    ...config,
  };
  if (capabilities.routes === 'configured') settled.routes = config.routes ?? capabilities.defaultRoutes;
  if (capabilities.ranks === 'turn') settled.granularity = 'turn';
  return settled;
}
