import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from './run-cli.js';

const PACKAGE = resolve(REPO_ROOT, 'packages/benchmark');

/**
 * Bundles a copy of the package's sources (`<copy>/src/cli/main.ts`, under the `source` condition,
 * as tsx runs them) with lme's own bundler into `<copy>/dist/bundle/`, and returns the file to run:
 * each process then starts in about a quarter of the CPU tsx takes to compile the sources again.
 */
function bundleCopy(copy: string): string {
  // The launcher's helpers, which the sources name (a stale-build check run only from dist/).
  if (!existsSync(join(copy, 'bin'))) symlinkSync(join(PACKAGE, 'bin'), join(copy, 'bin'));
  const bundler = pathToFileURL(join(PACKAGE, 'bin/bundle-cli.js')).href;
  const options = { packageDir: copy, entry: 'src/cli/main.ts', conditions: ['source'] };
  const script = `import { bundleCli } from ${JSON.stringify(bundler)};\nawait bundleCli(${JSON.stringify(options)});`;
  const result = spawnSync(process.execPath, ['--input-type=module', '--eval', script], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`bundling ${copy} failed: ${result.stderr}`);
  return join(copy, 'dist/bundle/main.js');
}

/**
 * A registry edit: `[before, after]` replacements, each of which must match exactly once, and
 * lines put before the file's first line (an import, whatever the registry imports already).
 */
export type RegistryEdit = {
  path: string;
  prepend?: string;
  replacements: readonly (readonly [string, string])[];
};

export type ScratchPackage = {
  /** The copy's src folder. */
  src: string;
  /** Runs the real CLI of the copy (its sources, bundled) from the repository root. */
  run(args: readonly string[]): { status: number | null; stdout: string; stderr: string };
  remove(): void;
};

/**
 * A copy of the benchmark package's src (test files left out) at the package's depth
 * (packages/.scratch-*), its node_modules linked beside it, with new files written (a component's
 * folder) and its registry edited: nothing else of the copy changes. The registry edit must add
 * exactly `addedLines` lines (the registry line and its import), which the caller asserts against.
 */
export function scratchPackage(options: {
  files: Readonly<Record<string, string>>;
  registry: RegistryEdit;
}): ScratchPackage & { addedLines: number } {
  const copy = mkdtempSync(join(REPO_ROOT, 'packages/.scratch-'));
  symlinkSync(join(PACKAGE, 'node_modules'), join(copy, 'node_modules'));
  cpSync(join(PACKAGE, 'src'), join(copy, 'src'), {
    recursive: true,
    filter: (source) => !source.endsWith('.test.ts'),
  });
  cpSync(join(PACKAGE, 'package.json'), join(copy, 'package.json'));
  const src = join(copy, 'src');
  for (const [path, text] of Object.entries(options.files)) {
    mkdirSync(dirname(join(src, path)), { recursive: true });
    writeFileSync(join(src, path), text);
  }
  const registry = join(src, options.registry.path);
  const before = readFileSync(registry, 'utf8');
  let after = `${options.registry.prepend ?? ''}${before}`;
  for (const [from, to] of options.registry.replacements) {
    if (after.split(from).length !== 2)
      throw new Error(`${options.registry.path}: expected "${from}" exactly once in the registry.`);
    after = after.replace(from, to);
  }
  writeFileSync(registry, after);
  const cli = bundleCopy(copy);
  return {
    src,
    addedLines: after.split('\n').length - before.split('\n').length,
    run(args) {
      const result = spawnSync(process.execPath, [cli, ...args], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        timeout: 240_000,
      });
      return { status: result.status, stdout: result.stdout, stderr: result.stderr };
    },
    remove() {
      rmSync(copy, { recursive: true, force: true });
    },
  };
}
