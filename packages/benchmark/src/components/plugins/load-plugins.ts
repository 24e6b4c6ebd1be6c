import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as searchCore from '@lme/search-core';
import { z } from 'zod';
import type { ComponentOption } from '../component.js';
import type { PluginKind, PluginKinds } from './plugin-kind.js';

/** A plugin lme loaded: its file, the SHA-256 of its content (the run's fingerprint) and what it added. */
export type LoadedPlugin = {
  readonly file: string;
  readonly sha256: string;
  /** `retriever word-overlap`, `benchmark tiny-recall`: its components, each with its kind's word. */
  readonly components: readonly string[];
};

const loaded: LoadedPlugin[] = [];
const removals: (() => void)[] = [];
const files = new WeakMap<object, string>();

/** The plugins this process loaded, in order. */
export const loadedPlugins = (): readonly LoadedPlugin[] => loaded;

/**
 * Takes every loaded plugin's components out of the registries and forgets the plugins: for tests,
 * whose files share one module graph per worker (vitest `isolate: false`), so that a plugin one file
 * loads never shows in another file's registries or code hash.
 */
export function unloadPlugins(): void {
  for (const remove of removals.splice(0).reverse()) remove();
  loaded.length = 0;
}

/** The plugin file a component came from (undefined: lme's own). */
export const pluginFileOf = (descriptor: object): string | undefined => files.get(descriptor);

/** The kinds imported so far (a kind given as a function is not, until a plugin holds one). */
const importedKinds = (kinds: PluginKinds): PluginKind[] =>
  Object.values(kinds).filter((kind): kind is PluginKind => typeof kind !== 'function');

/**
 * What a plugin's default export receives when it is a function: lme's zod, `@lme/search-core`,
 * `option(key)` (lme's own `ComponentOption` of a key, for a component that reads it too, as every
 * reranker family shares `rerankDepth`) and each kind's definers (`defineRetriever`, ...).
 */
export function pluginApi(kinds: PluginKinds): Readonly<Record<string, unknown>> {
  const option = (key: string): ComponentOption => {
    const found = ownedOptions(importedKinds(kinds)).get(key);
    if (!found) throw new Error(`lme has no component option "${key}" to share.`);
    return found;
  };
  return Object.assign({ z, searchCore, option }, ...importedKinds(kinds).map((kind) => kind.api ?? {}));
}

/** Every run option lme's components (and plugins added so far) own, by key. */
function ownedOptions(kinds: readonly PluginKind[]): Map<string, ComponentOption> {
  const owned = new Map<string, ComponentOption>();
  for (const kind of kinds)
    if (kind.runOptions)
      for (const descriptor of Object.values(kind.registry()) as {
        options: Record<string, ComponentOption>;
      }[])
        for (const [key, option] of Object.entries(descriptor.options)) owned.set(key, option);
  return owned;
}

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

/**
 * Refuses a component lme cannot use, in one sentence naming the file: no name, a name its kind
 * has, what its kind needs missing, or a run option lme owns (an identical `ComponentOption`, taken
 * with `option(key)`, is shared, not taken).
 */
function check(file: string, kind: PluginKind, kinds: PluginKinds, given: Record<string, unknown>): string {
  const { word, registry, lacks, runOptions } = kind;
  const name = given?.name;
  if (typeof name !== 'string' || name === '') throw new Error(`Plugin ${file}: a ${word} needs a name.`);
  if (Object.hasOwn(registry(), name))
    throw new Error(`Plugin ${file}: ${word} "${name}" is already registered; give it another name.`);
  const lacking = lacks(given);
  if (lacking !== undefined) throw new Error(`Plugin ${file}: ${word} "${name}" ${lacking}.`);
  if (!runOptions) return name;
  const owned = ownedOptions(importedKinds(kinds));
  for (const [option, declared] of Object.entries(given.options as Record<string, ComponentOption>)) {
    if (owned.has(option) && owned.get(option) !== declared)
      throw new Error(
        `Plugin ${file}: option "${option}" of ${word} "${name}" is already an option of lme; rename it.`,
      );
    if (typeof (declared as { schema?: { safeParse?: unknown } })?.schema?.safeParse !== 'function')
      throw new Error(`Plugin ${file}: option "${option}" of ${word} "${name}" has no zod schema.`);
  }
  return name;
}

/**
 * Loads plugins (files or installed packages) and adds their components to lme's registries, as
 * lm-evaluation-harness's `--include_path` and inspect_ai's entry points do: each module's default
 * export is an object of components by kind (a key of `kinds`), or a function of `pluginApi(kinds)`
 * returning one. A plugin that cannot be imported, throws, gives nothing usable, reuses a name or
 * takes an option lme has is refused in one sentence naming its file. Call it before the run config
 * is built (cli/main.ts, with cli/plugin-kinds.ts's table).
 */
export async function loadPlugins(
  specifiers: readonly string[],
  kinds: PluginKinds,
  cwd = process.cwd(),
): Promise<LoadedPlugin[]> {
  const imported: { file: string; contents: Record<string, unknown> }[] = [];
  for (const specifier of specifiers) {
    const file = resolvePlugin(specifier, cwd);
    // Named twice (a flag and a config file): loaded once.
    if (loaded.some((plugin) => plugin.file === file) || imported.some((plugin) => plugin.file === file))
      continue;
    let contents: Record<string, unknown> | undefined;
    try {
      const module = (await import(pathToFileURL(file).href)) as { default?: unknown };
      const exported = module.default ?? module;
      contents = (
        typeof exported === 'function' ? await exported(pluginApi(kinds)) : exported
      ) as typeof contents;
    } catch (error) {
      throw new Error(`Plugin ${file} failed to load: ${(error as Error).message}`);
    }
    if (!Object.keys(kinds).some((key) => Array.isArray(contents?.[key])))
      throw new Error(
        `Plugin ${file} exports nothing lme can use: its default export (or what its function returns) needs ${Object.keys(kinds).join(', ')}.`,
      );
    imported.push({ file, contents: contents! });
  }
  // Kind by kind, in the table's order, every plugin's components of the kind.
  const components = new Map(imported.map(({ file }) => [file, [] as string[]]));
  for (const [key, entry] of Object.entries(kinds)) {
    const holders = imported.filter(({ contents }) => Array.isArray(contents[key]));
    if (holders.length === 0) continue;
    const kind = typeof entry === 'function' ? await entry() : entry;
    for (const { file, contents } of holders)
      for (const descriptor of contents[key] as Record<string, unknown>[]) {
        const name = check(file, kind, kinds, descriptor);
        try {
          removals.push(kind.add(descriptor as never));
        } catch (error) {
          const message = (error as Error).message;
          throw new Error(`Plugin ${file}: ${message.charAt(0).toLowerCase()}${message.slice(1)}`);
        }
        files.set(descriptor, file);
        components.get(file)!.push(`${kind.word} ${name}`);
      }
  }
  const added = imported.map(({ file }) => ({
    file,
    sha256: createHash('sha256').update(readFileSync(file)).digest('hex'),
    components: components.get(file)!,
  }));
  loaded.push(...added);
  return added;
}
