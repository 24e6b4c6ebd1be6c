import { type ComponentRegistry, componentsOwning } from '../components/component.js';
import { EMBEDDERS } from '../components/embedders/embedder-registry.js';
import { RERANKERS } from '../components/rerankers/reranker-registry.js';
import { RETRIEVERS } from '../components/retrievers/retriever-registry.js';
import { STAGES, stageDescriptors } from '../components/stages/stage-registry.js';
import type { ProviderCapabilities } from './provider-capabilities.js';
import { flagOfKey } from './run-options.js';
import { type PipelineParts, partsEmbed, reranks, usesPipeline } from './run-shape.js';

/** A selected component: its name (for embedders and rerankers, the whole id) and its own options. */
export type SelectedComponent = {
  /** The name as the config gives it (`session-aware`, `hf:Xenova/e5-small-v2`, `llm:gpt-4o-mini`). */
  readonly id: string;
  /** The registry name of its descriptor (`session-aware`, `hf`, `llm`). */
  readonly name: string;
  readonly options: Readonly<Record<string, unknown>>;
};

/** What the kinds read of a run (as `RunSections` holds it): its selected components, each with its own options, and the retriever's routes. */
export type SelectedComponents = PipelineParts & {
  readonly retriever: SelectedComponent;
  readonly embedders: readonly SelectedComponent[];
  readonly reranker: SelectedComponent | undefined;
};

/**
 * A kind of component the run config selects by name: the flag that names it, its registry, the
 * names a config selects, and whether the run uses the kind at all. The config layer asks these,
 * never a component's name.
 */
export type ComponentKind = {
  /** The flag that names the kind's component (unset: each has a flag of its own, `needs` says it). */
  readonly flag?: string;
  readonly registry: ComponentRegistry;
  /** Where the kind is used, for the has-no-effect warning (` in a pipeline that embeds`). */
  readonly where?: string;
  selected(sections: SelectedComponents): string[];
  inUse(sections: SelectedComponents, provider: ProviderCapabilities): boolean;
  /**
   * What the warning says a key of `owners` needs, when not `<flag> <owners>`: the kind selects
   * each component by a flag of its own (`--dedup`), or is not in use (`--provider pipeline`).
   */
  needs?(owners: readonly string[], inUse: boolean): string;
  /** For a key a selected component owns: whether it matters under that component's other options. */
  optionRule?(
    key: string,
    sections: SelectedComponents,
    provider: ProviderCapabilities,
  ): { used: boolean; needs: string } | undefined;
};

/**
 * What turns a stage on: its switch's flag (`--dedup`), or for one that provides session summaries,
 * what reads them (`--session-index summary|both or --contextual`).
 */
function stageNeeds(name: string): string {
  const stage = stageDescriptors().find((descriptor) => descriptor.name === name)!;
  if (!stage.capabilities.providesSummaries) return flagOfKey(stage.switch);
  const readers = stageDescriptors().filter((descriptor) => descriptor.capabilities.needsSummaries);
  return [
    ...(stage.selectedBy ? [stage.selectedBy] : []),
    ...readers.map((reader) => flagOfKey(reader.switch)),
  ].join(' or ');
}

/** A selected stage's rule for one of its options that matters only under its others (`--summarizer-model`). */
function stageOptionRule(
  key: string,
  sections: SelectedComponents,
  provider: ProviderCapabilities,
): { used: boolean; needs: string } | undefined {
  for (const { descriptor, options } of sections.pipelineStages) {
    const rule = descriptor.optionRules?.[key];
    if (rule)
      return { used: rule.used(options, { embeds: partsEmbed(sections, provider) }), needs: rule.needs };
  }
  return undefined;
}

export const COMPONENT_KINDS = {
  retriever: {
    flag: '--retriever',
    registry: RETRIEVERS,
    selected: (sections) => [sections.retriever.name],
    inUse: (_sections, provider) => usesPipeline(provider),
  },
  embedder: {
    flag: '--embedder',
    registry: EMBEDDERS,
    where: ' in a pipeline that embeds',
    selected: (sections) => sections.embedders.map(({ name }) => name),
    inUse: (sections, provider) => partsEmbed(sections, provider),
  },
  reranker: {
    flag: '--reranker',
    registry: RERANKERS,
    selected: (sections) => (sections.reranker ? [sections.reranker.name] : []),
    inUse: (sections, provider) => reranks({ reranker: sections.reranker?.id }, provider),
  },
  stage: {
    registry: STAGES,
    selected: (sections) => sections.pipelineStages.map(({ descriptor }) => descriptor.name),
    // Every stage runs in lme's own pipeline (`runsOn: 'pipeline'`).
    inUse: (_sections, provider) => usesPipeline(provider),
    needs: (owners, inUse) => (inUse ? owners.map(stageNeeds).join(' or ') : '--provider pipeline'),
    optionRule: stageOptionRule,
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
 * Whether a component-owned key matters in a run: the kind is in use and a selected component
 * owns it. Undefined for a key no component owns.
 */
export function componentKeyUsed(
  key: string,
  sections: SelectedComponents,
  provider: ProviderCapabilities,
): { used: boolean; needs: string } | undefined {
  const owned = ownersOf(key);
  if (!owned) return undefined;
  const { kind, owners } = owned;
  const inUse = kind.inUse(sections, provider);
  const used = inUse && kind.selected(sections).some((name) => owners.includes(name));
  const rule = used ? kind.optionRule?.(key, sections, provider) : undefined;
  if (rule) return rule;
  if (kind.needs) return { used, needs: kind.needs(owners, inUse) };
  // Owned by every component of the kind: naming the flag is enough (`--reranker`).
  const all = owners.length === Object.keys(kind.registry).length;
  const named = all ? '' : ` ${owners.map((name) => formOf(kind.registry, name)).join('|')}`;
  return { used, needs: `${kind.flag ?? ''}${named}${kind.where ?? ''}` };
}

/** How a component's names look (`hf:<owner>/<model>[@<dtype>]`, `http:<url>`), else its name. */
function formOf(registry: ComponentRegistry, name: string): string {
  const capabilities = (registry[name] as { capabilities?: { form?: unknown } }).capabilities;
  return typeof capabilities?.form === 'string' ? capabilities.form : name;
}
