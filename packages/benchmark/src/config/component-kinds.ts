import { type ComponentRegistry, componentsOwning } from '../components/component.js';
import { EMBEDDERS } from '../components/embedders/embedder-registry.js';
import { RERANKERS } from '../components/rerankers/reranker-registry.js';
import { RETRIEVERS } from '../components/retrievers/retriever-registry.js';
import { familyOf } from './component-ids.js';
import type { ProviderCapabilities } from './provider-capabilities.js';
import { embedderParts, type RunConfig } from './run-config.js';
import { embeds, reranks, usesPipeline } from './run-shape.js';

/**
 * A kind of component the run config selects by name: the flag that names it, its registry, the
 * names a config selects, and whether the run uses the kind at all. The config layer asks these,
 * never a component's name.
 */
export type ComponentKind = {
  readonly flag: string;
  readonly registry: ComponentRegistry;
  /** Where the kind is used, for the has-no-effect warning (` in a pipeline that embeds`). */
  readonly where?: string;
  selected(config: RunConfig): string[];
  inUse(config: RunConfig, provider: ProviderCapabilities): boolean;
};

export const COMPONENT_KINDS = {
  retriever: {
    flag: '--retriever',
    registry: RETRIEVERS,
    selected: (config) => [config.retriever],
    inUse: (_config, provider) => usesPipeline(provider),
  },
  embedder: {
    flag: '--embedder',
    registry: EMBEDDERS,
    where: ' in a pipeline that embeds',
    selected: (config) => embedderParts(config.embedder).map(familyOf),
    inUse: (config, provider) => embeds(config, provider),
  },
  reranker: {
    flag: '--reranker',
    registry: RERANKERS,
    selected: (config) => (config.reranker ? [familyOf(config.reranker)] : []),
    inUse: (config, provider) => reranks(config, provider),
  },
} as const satisfies Record<string, ComponentKind>;

/** The kind whose components own a config key, with the owners' names (none: a key of the config's sections). */
export function ownersOf(key: string): { kind: ComponentKind; owners: string[] } | undefined {
  for (const kind of Object.values(COMPONENT_KINDS) as ComponentKind[]) {
    const owners = componentsOwning(kind.registry, key);
    if (owners.length > 0) return { kind, owners };
  }
  return undefined;
}

/**
 * Whether a component-owned key matters in a resolved config: the kind is in use and a selected
 * component owns it. Undefined for a key no component owns.
 */
export function componentKeyUsed(
  key: string,
  config: RunConfig,
  provider: ProviderCapabilities,
): { used: boolean; needs: string } | undefined {
  const owned = ownersOf(key);
  if (!owned) return undefined;
  const { kind, owners } = owned;
  const used = kind.inUse(config, provider) && kind.selected(config).some((name) => owners.includes(name));
  // Owned by every component of the kind: naming the flag is enough (`--reranker`).
  const all = owners.length === Object.keys(kind.registry).length;
  const named = all ? '' : ` ${owners.map((name) => formOf(kind.registry, name)).join('|')}`;
  return { used, needs: `${kind.flag}${named}${kind.where ?? ''}` };
}

/** How a component's names look (`hf:<owner>/<model>[@<dtype>]`, `http:<url>`), else its name. */
function formOf(registry: ComponentRegistry, name: string): string {
  const capabilities = (registry[name] as { capabilities?: { form?: unknown } }).capabilities;
  return typeof capabilities?.form === 'string' ? capabilities.form : name;
}
