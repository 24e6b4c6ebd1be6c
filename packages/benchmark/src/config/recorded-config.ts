import { COMPONENT_KINDS, type ComponentKind, componentKeyUsed } from './component-kinds.js';
import type { ProviderCapabilities } from './provider-capabilities.js';
import { type RunConfig, resultKeyDifferences, runConfigSchema, withDefaults } from './run-config.js';
import { attributeName } from './run-options.js';
import { groupConfig } from './run-sections.js';

const KINDS = Object.values(COMPONENT_KINDS) as ComponentKind[];

/** The config key that names a kind's component (`--embedder` → `embedder`); none for the stages. */
const selectorKey = (kind: ComponentKind): string[] =>
  kind.flag === undefined ? [] : [attributeName(kind.flag)];

/**
 * The keys `recordedConfig` may leave out: every component's options and every kind's selector
 * (asked when needed: a plugin's components join the registries after this module is loaded).
 */
const unrecordable = (): Set<string> =>
  new Set(
    KINDS.flatMap((kind) => [
      ...selectorKey(kind),
      ...Object.values(kind.registry).flatMap((descriptor) => Object.keys(descriptor.options)),
    ]),
  );

/**
 * The config a results folder records (config.json `config`, its setup's settings and the
 * fingerprint's config hash): without the options of the components the run did not select, nor a
 * kind's selector where the run does not use the kind (a BM25 run embeds nothing, so it names no
 * embedder). They changed nothing; resume, merge and compare read a key a folder lacks as its default.
 */
export function recordedConfig(config: RunConfig, provider: ProviderCapabilities): RunConfig {
  // A stored config may lack keys (a newer release records only what its components use): read at their defaults.
  const sections = groupConfig(withDefaults(config));
  const unused = new Set(KINDS.filter((kind) => !kind.inUse(sections, provider)).flatMap(selectorKey));
  return Object.fromEntries(
    Object.entries(config).filter(
      ([key]) => !unused.has(key) && componentKeyUsed(key, sections, provider)?.used !== false,
    ),
  ) as RunConfig;
}

/**
 * The result keys in which a run stored in a results folder differs from `current` (the resolved
 * config of a resume), among those either records: a folder of an earlier release records every
 * key, a newer one only what its components use, and neither differs from a run that sets the same.
 */
export function recordedKeyDifferences(
  stored: RunConfig,
  current: RunConfig,
  provider: ProviderCapabilities,
): string[] {
  const keys = new Set([
    ...Object.keys(recordedConfig(withDefaults(stored), provider)),
    ...Object.keys(recordedConfig(current, provider)),
  ]);
  return resultKeyDifferences(stored, current, keys);
}

/**
 * A recorded config as the run resolved it: the keys `recordedConfig` left out at their defaults
 * (what the run used, since they changed nothing), so that every reader of a results folder sees
 * each key. A config that does not parse stays as it is (its reader reports it).
 */
export function unrecordedDefaults(recorded: RunConfig): RunConfig {
  const parsed = runConfigSchema.safeParse(recorded);
  if (!parsed.success) return recorded;
  const keys = unrecordable();
  const defaults = Object.entries(parsed.data).filter(
    ([key, value]) => keys.has(key) && !Object.hasOwn(recorded, key) && value !== undefined,
  );
  return { ...Object.fromEntries(defaults), ...recorded } as RunConfig;
}
