import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as searchCore from '@lme/search-core';
import { z } from 'zod';
import type { ComponentOptions } from '../component.js';
import { EMBEDDERS } from '../embedders/embedder-registry.js';
import { RERANKERS } from '../rerankers/reranker-registry.js';
import { defineRetriever, type RetrieverDescriptor } from '../retrievers/retriever-descriptor.js';
import { RETRIEVERS } from '../retrievers/retriever-registry.js';
import { defineStage, type StageDescriptor } from '../stages/stage-descriptor.js';
import { STAGES } from '../stages/stage-registry.js';

/** What a plugin's default export receives when it is a function: lme's own zod and definers. */
export const PLUGIN_API = { z, defineRetriever, defineStage, searchCore } as const;

/**
 * What a plugin gives lme: components by kind (a default export, or what its function returns).
 * `memories` (external memory systems) are registered by the providers layer
 * (providers/plugin-memories.ts), which this layer cannot reach.
 */
export type PluginContents = {
  retrievers?: readonly RetrieverDescriptor[];
  stages?: readonly StageDescriptor[];
  memories?: readonly unknown[];
};

/** A plugin lme loaded: its file, the SHA-256 of its content (the run's fingerprint) and what it added. */
export type LoadedPlugin = {
  readonly file: string;
  readonly sha256: string;
  readonly components: string[];
  /** Its external memory systems, for the providers layer to register. */
  readonly memories: readonly unknown[];
};

/** The registries a plugin may add to, by the key of `PluginContents`, with the word its messages use. */
const KINDS = {
  retrievers: { registry: RETRIEVERS as Record<string, { options: ComponentOptions }>, word: 'retriever' },
  stages: { registry: STAGES as Record<string, { options: ComponentOptions }>, word: 'stage' },
} as const;

const loaded: LoadedPlugin[] = [];
const files = new WeakMap<object, string>();

/** The plugins this process loaded, in order. */
export const loadedPlugins = (): readonly LoadedPlugin[] => loaded;

/**
 * Takes every loaded plugin's components out of the registries and forgets the plugins: for tests,
 * whose files share one module graph per worker (vitest `isolate: false`), so that a plugin one file
 * loads never shows in another file's registries or code hash.
 */
export function unloadPlugins(): void {
  for (const { registry } of Object.values(KINDS))
    for (const [name, descriptor] of Object.entries(registry))
      if (files.has(descriptor)) delete registry[name];
  loaded.length = 0;
}

/** The plugin file a component came from (undefined: lme's own). */
export const pluginFileOf = (descriptor: object): string | undefined => files.get(descriptor);

/** A file path (relative to `cwd`) or an installed package's name, as a file. */
function resolvePlugin(specifier: string, cwd: string): string {
  const path = isAbsolute(specifier) ? specifier : resolve(cwd, specifier);
  if (existsSync(path)) return path;
  try {
    return createRequire(join(cwd, 'package.json')).resolve(specifier);
  } catch {
    throw new Error(`Plugin ${specifier} is neither a file nor an installed package (from ${cwd}).`);
  }
}

/** Every option key lme's components own now, of every kind (a plugin may not take one). */
function ownedKeys(): Set<string> {
  const keys = new Set<string>();
  for (const registry of [RETRIEVERS, STAGES, EMBEDDERS, RERANKERS] as Record<
    string,
    { options: ComponentOptions }
  >[])
    for (const descriptor of Object.values(registry))
      for (const key of Object.keys(descriptor.options)) keys.add(key);
  return keys;
}

/** Refuses a descriptor lme cannot use, in one sentence naming the file. */
function check(file: string, word: string, descriptor: unknown, registry: Record<string, unknown>): void {
  const given = descriptor as { name?: unknown; create?: unknown; options?: unknown; capabilities?: unknown };
  if (typeof given?.name !== 'string' || given.name === '' || typeof given.create !== 'function')
    throw new Error(`Plugin ${file}: a ${word} needs a name and a create function.`);
  if (typeof given.options !== 'object' || given.options === null || typeof given.capabilities !== 'object')
    throw new Error(`Plugin ${file}: ${word} "${given.name}" needs options and capabilities objects.`);
  if (Object.hasOwn(registry, given.name))
    throw new Error(`Plugin ${file}: ${word} "${given.name}" is already registered; give it another name.`);
  const taken = ownedKeys();
  for (const [key, option] of Object.entries(given.options)) {
    if (taken.has(key))
      throw new Error(
        `Plugin ${file}: option "${key}" of ${word} "${given.name}" is already an option of lme; rename it.`,
      );
    if (typeof (option as { schema?: { safeParse?: unknown } }).schema?.safeParse !== 'function')
      throw new Error(`Plugin ${file}: option "${key}" of ${word} "${given.name}" has no zod schema.`);
  }
}

/**
 * Loads plugins (files or installed packages) and adds their components to lme's registries, as
 * lm-evaluation-harness's `--include_path` and inspect_ai's entry points do: each module's default
 * export is `PluginContents`, or a function of `PLUGIN_API` returning it. A plugin that cannot be
 * imported, throws, gives nothing usable, reuses a name or takes an option lme has is refused in one
 * sentence naming its file. Call it before the run config is built (cli/main.ts).
 */
export async function loadPlugins(
  specifiers: readonly string[],
  cwd = process.cwd(),
): Promise<LoadedPlugin[]> {
  const added: LoadedPlugin[] = [];
  for (const specifier of specifiers) {
    const file = resolvePlugin(specifier, cwd);
    // Named twice (a flag and a config file): loaded once.
    if (loaded.some((plugin) => plugin.file === file)) continue;
    let contents: PluginContents;
    try {
      const module = (await import(pathToFileURL(file).href)) as { default?: unknown };
      const exported = module.default ?? module;
      contents = (typeof exported === 'function' ? await exported(PLUGIN_API) : exported) as PluginContents;
    } catch (error) {
      throw new Error(`Plugin ${file} failed to load: ${(error as Error).message}`);
    }
    const kinds = Object.keys(KINDS).filter((kind) =>
      Array.isArray(contents?.[kind as keyof PluginContents]),
    );
    const memories = Array.isArray(contents?.memories) ? contents.memories : [];
    if (kinds.length === 0 && memories.length === 0)
      throw new Error(
        `Plugin ${file} exports nothing lme can use: its default export (or what its function returns) needs ${[...Object.keys(KINDS), 'memories'].join(', ')}.`,
      );
    const components: string[] = [];
    for (const kind of kinds as (keyof typeof KINDS)[]) {
      const { registry, word } = KINDS[kind];
      for (const descriptor of contents[kind]!) {
        check(file, word, descriptor, registry);
        if (word === 'stage' && !Object.hasOwn(descriptor.options, (descriptor as StageDescriptor).switch))
          throw new Error(`Plugin ${file}: stage "${descriptor.name}" has no option named by its switch.`);
        registry[descriptor.name] = descriptor;
        files.set(descriptor, file);
        components.push(`${word} ${descriptor.name}`);
      }
    }
    const plugin = {
      file,
      sha256: createHash('sha256').update(readFileSync(file)).digest('hex'),
      components,
      memories,
    };
    loaded.push(plugin);
    added.push(plugin);
  }
  return added;
}
