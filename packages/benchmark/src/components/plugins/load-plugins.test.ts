import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PLUGIN_KINDS } from '../../cli/plugin-kinds.js';
import { REPO_ROOT } from '../../testing/run-cli.js';
import { STAGES } from '../stages/stage-registry.js';
import { loadedPlugins, loadPlugins, pluginFileOf, unloadPlugins } from './load-plugins.js';
import type { PluginKind } from './plugin-kind.js';

const dir = mkdtempSync(join(tmpdir(), 'lme-load-plugins-'));
afterAll(() => {
  // Other test files share this worker's registries: leave them as lme's own.
  unloadPlugins();
  expect(Object.hasOwn(STAGES, 'keep-two')).toBe(false);
  expect(loadedPlugins()).toHaveLength(0);
  rmSync(dir, { recursive: true, force: true });
});

const STAGE_PLUGIN = `export default ({ z, defineStage }) => ({
  stages: [defineStage({
    name: 'keep-two',
    description: 'keeps the first two hits',
    options: { keepTwo: { schema: z.boolean().default(false), flags: '--keep-two', group: 'stages', help: 'keep two hits' } },
    capabilities: { runsOn: 'pipeline', order: 35, needsVectors: false },
    switch: 'keepTwo',
    create: () => ({ name: 'keep_two', apply: (pool) => pool.slice(0, 2) }),
    provenance: () => 'keep-two',
  })],
});
`;

/** Every kind of the table, imported (a kind given as a function imports its registry's module). */
const kinds = async (): Promise<[string, PluginKind][]> =>
  Promise.all(
    Object.entries(PLUGIN_KINDS).map(
      async ([key, kind]) => [key, typeof kind === 'function' ? await kind() : kind] as [string, PluginKind],
    ),
  );

/**
 * A plugin file whose default export is `contents`, handed over through a global: the refusals
 * below build their components from lme's own registries, which a file's text cannot hold.
 */
let written = 0;
function pluginOf(contents: Record<string, unknown>): string {
  const name = `plugin-${++written}`;
  (globalThis as Record<string, unknown>)[`lmeTest_${name.replace('-', '_')}`] = contents;
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, `export default globalThis.lmeTest_${name.replace('-', '_')};\n`);
  return file;
}

/** The message `loadPlugins` refuses a plugin with. */
async function refusal(contents: Record<string, unknown>): Promise<string> {
  const file = pluginOf(contents);
  const error = await loadPlugins([file], PLUGIN_KINDS).then(
    () => undefined,
    (thrown: Error) => thrown,
  );
  expect(error, file).toBeInstanceOf(Error);
  // One sentence, naming the file.
  expect(error!.message.startsWith(`Plugin ${file}: `)).toBe(true);
  expect(error!.message.slice(0, -1)).not.toMatch(/\.\s/);
  return error!.message.slice(`Plugin ${file}: `.length);
}

describe('loadPlugins', () => {
  it("loads an installed package by name from the run's folder, once, hashing its file", async () => {
    const folder = join(dir, 'node_modules/lme-plugin-keep-two');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'package.json'),
      JSON.stringify({ name: 'lme-plugin-keep-two', main: 'index.mjs' }),
    );
    writeFileSync(join(folder, 'index.mjs'), STAGE_PLUGIN);
    const [plugin] = await loadPlugins(['lme-plugin-keep-two', 'lme-plugin-keep-two'], PLUGIN_KINDS, dir);
    expect(plugin).toMatchObject({
      file: join(folder, 'index.mjs'),
      sha256: createHash('sha256').update(STAGE_PLUGIN).digest('hex'),
      components: ['stage keep-two'],
    });
    const registered = (STAGES as Record<string, unknown>)['keep-two'];
    expect(registered).toMatchObject({ name: 'keep-two', switch: 'keepTwo' });
    expect(pluginFileOf(registered as object)).toBe(plugin!.file);
    // Named twice: loaded once.
    expect(loadedPlugins()).toHaveLength(1);
  });

  it('refuses a name that is neither a file nor an installed package, naming it', async () => {
    await expect(loadPlugins(['lme-plugin-missing'], PLUGIN_KINDS, dir)).rejects.toThrow(
      `Plugin lme-plugin-missing is neither a file nor an installed package (from ${dir}).`,
    );
  });

  it("adds every example plugin's components to their kinds' registries, and takes them out again", async () => {
    const examples = readdirSync(join(REPO_ROOT, 'examples')).filter((name) => name.endsWith('-plugin.mjs'));
    const copies = join(dir, 'examples');
    mkdirSync(copies);
    for (const name of readdirSync(join(REPO_ROOT, 'examples')))
      if (/\.(mjs|json)$/.test(name)) copyFileSync(join(REPO_ROOT, 'examples', name), join(copies, name));
    const plugins = await loadPlugins(
      examples.map((name) => join(copies, name)),
      PLUGIN_KINDS,
    );
    const all = await kinds();
    const added = new Set<string>();
    for (const plugin of plugins)
      for (const component of plugin.components) {
        const [key, kind] = all.find(([, kind]) => component.startsWith(`${kind.word} `))!;
        const name = component.slice(kind.word.length + 1);
        expect(Object.hasOwn(kind.registry(), name), component).toBe(true);
        added.add(key);
      }
    // The examples hold a component of every kind a plugin may bring.
    expect([...added].sort()).toEqual(Object.keys(PLUGIN_KINDS).sort());
    unloadPlugins();
    for (const plugin of plugins)
      for (const component of plugin.components) {
        const [, kind] = all.find(([, kind]) => component.startsWith(`${kind.word} `))!;
        expect(Object.hasOwn(kind.registry(), component.slice(kind.word.length + 1)), component).toBe(false);
      }
  });

  it('refuses, for every kind, a name it has, a component lacking what the kind needs, and an option of lme', async () => {
    const all = await kinds();
    for (const [key, kind] of all) {
      const [existing] = Object.values(kind.registry()) as Record<string, unknown>[];
      expect(await refusal({ [key]: [{ name: existing!.name }] })).toBe(
        `${kind.word} "${existing!.name}" is already registered; give it another name.`,
      );
      expect(await refusal({ [key]: [{ name: 'plugin-test' }] })).toMatch(
        new RegExp(`^${kind.word} "plugin-test" needs .+\\.$`),
      );
      if (!kind.runOptions) continue;
      // A key lme owns, declared anew (not lme's own ComponentOption, which `option(key)` shares).
      const options = existing!.options as Record<string, unknown>;
      const owned = all
        .filter(([, other]) => other.runOptions)
        .flatMap(([, other]) => Object.values(other.registry()) as { options: Record<string, unknown> }[])
        .flatMap((descriptor) => Object.keys(descriptor.options))
        .find((option) => !Object.hasOwn(options, option))!;
      const copy = {
        ...existing,
        name: 'plugin-test',
        options: { ...options, [owned]: { schema: z.number(), flags: '--x <n>', group: 'run', help: 'x' } },
      };
      expect(await refusal({ [key]: [copy] })).toBe(
        `option "${owned}" of ${kind.word} "plugin-test" is already an option of lme; rename it.`,
      );
    }
  });

  it("refuses a benchmark breaking the registry's rules, in its sentence after the file", async () => {
    const [key, kind] = (await kinds()).find(([, kind]) => kind.word === 'benchmark')!;
    const [first] = Object.values(kind.registry()) as { questionTypes: string[] }[];
    const clashing = {
      name: 'plugin-test',
      description: 'x',
      formatHint: 'x',
      recognizes: () => false,
      load: async () => ({}),
      questionTypes: [first!.questionTypes[0]],
      conventions: {},
      defaults: {},
    };
    expect(await refusal({ [key]: [clashing] })).toBe(
      `benchmark "plugin-test": question type "${first!.questionTypes[0]}" is another's.`,
    );
  });
});
