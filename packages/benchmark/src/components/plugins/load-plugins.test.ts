import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STAGES } from '../stages/stage-registry.js';
import { loadedPlugins, loadPlugins, pluginFileOf, unloadPlugins } from './load-plugins.js';

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

describe('loadPlugins', () => {
  it("loads an installed package by name from the run's folder, once, hashing its file", async () => {
    const folder = join(dir, 'node_modules/lme-plugin-keep-two');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'package.json'),
      JSON.stringify({ name: 'lme-plugin-keep-two', main: 'index.mjs' }),
    );
    writeFileSync(join(folder, 'index.mjs'), STAGE_PLUGIN);
    const [plugin] = await loadPlugins(['lme-plugin-keep-two', 'lme-plugin-keep-two'], dir);
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
    await expect(loadPlugins(['lme-plugin-missing'], dir)).rejects.toThrow(
      `Plugin lme-plugin-missing is neither a file nor an installed package (from ${dir}).`,
    );
  });
});
