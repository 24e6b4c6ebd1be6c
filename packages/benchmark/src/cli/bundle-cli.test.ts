import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleCli } from '../../bin/bundle-cli.js';

/**
 * A package whose built CLI (dist/cli/main.js) prints its own folder, the folder of a module one
 * level deeper, and the text a command module loaded on demand returns.
 */
function tinyPackage(): string {
  const root = mkdtempSync(join(tmpdir(), 'lme-bundle-'));
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write(
    'dist/cli/main.js',
    [
      "import { where } from '../run/outputs/where.js';",
      "const { command } = await import('./command.js');",
      'console.log(JSON.stringify({ main: import.meta.dirname, nested: where(), command: command() }));',
    ].join('\n'),
  );
  write('dist/run/outputs/where.js', 'export const where = () => import.meta.dirname;\n');
  write(
    'dist/cli/command.js',
    "export const command = () => new URL('../../package.json', import.meta.url).href;\n",
  );
  return root;
}

const builds = (root: string) =>
  readdirSync(join(root, 'dist/bundle')).filter((name) => name.startsWith('build-'));

describe('the CLI bundle (bin/bundle-cli.js)', () => {
  it('gives each bundled module its own file’s paths, and loads a command’s chunk on demand', async () => {
    const root = tinyPackage();
    await bundleCli({ packageDir: root });
    const result = spawnSync(process.execPath, [join(root, 'dist/bundle/main.js')], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({
      main: join(root, 'dist/cli'),
      nested: join(root, 'dist/run/outputs'),
      command: `file://${join(root, 'package.json')}`,
    });
    // One module imported by main, one chunk for the command imported on demand.
    expect(readdirSync(join(root, 'dist/bundle', builds(root)[0]!)).length).toBe(2);
  });

  it('keeps earlier builds for the processes started from them, the five newest beside the current one', async () => {
    const root = tinyPackage();
    await bundleCli({ packageDir: root });
    const [first] = builds(root);
    await bundleCli({ packageDir: root });
    expect(builds(root)).toContain(first);
    expect(readFileSync(join(root, 'dist/bundle/main.js'), 'utf8')).not.toContain(first);
    for (let build = 0; build < 5; build += 1) await bundleCli({ packageDir: root });
    expect(builds(root)).toHaveLength(5);
    expect(existsSync(join(root, 'dist/bundle', first!))).toBe(false);
    const current = /\.\/(build-[^/]+)\/main\.js/.exec(
      readFileSync(join(root, 'dist/bundle/main.js'), 'utf8'),
    )?.[1];
    expect(builds(root)).toContain(current);
  });
});
