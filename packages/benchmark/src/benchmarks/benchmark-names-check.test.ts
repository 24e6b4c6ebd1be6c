import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../testing/run-cli.js';

const SCRIPT = join(REPO_ROOT, 'scripts/check-benchmark-names.mjs');

function check(root?: string) {
  const result = spawnSync(process.execPath, [SCRIPT, ...(root ? ['--root', root] : [])], {
    encoding: 'utf8',
  });
  return { status: result.status, stderr: result.stderr };
}

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/** A tree with two benchmark folders, the given files under packages/benchmark/src, and an allow list. */
function tree(files: Record<string, string>, allowed: Record<string, string[]> = {}): string {
  root = mkdtempSync(join(tmpdir(), 'lme-names-'));
  const src = join(root, 'packages/benchmark/src');
  for (const name of ['alpha', 'beta']) mkdirSync(join(src, 'benchmarks', name), { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(src, path)), { recursive: true });
    writeFileSync(join(src, path), text);
  }
  mkdirSync(join(root, 'scripts'));
  writeFileSync(join(root, 'scripts/benchmark-names-allowed.json'), JSON.stringify({ files: allowed }));
  return root;
}

describe('the benchmark-names layer check (pnpm lint)', () => {
  it('passes on the repository as it is', () => {
    expect(check()).toMatchObject({ status: 0, stderr: '' });
  });

  it('fails on a planted violation: a shared file naming a benchmark in a string, an identifier or an import', () => {
    for (const text of [
      "export const format = 'alpha';\n",
      'export function alphaCategoryOf(): void {}\n',
      "import { x } from '../benchmarks/alpha/x.js';\nexport { x };\n",
      'export const message = `a $' + '{1} ALPHA file`;\n',
    ]) {
      const result = check(
        tree({ 'run/shared.ts': text, 'benchmarks/alpha/own.ts': "export const a = 'alpha';\n" }),
      );
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(
        'packages/benchmark/src/run/shared.ts names the benchmark "alpha" outside benchmarks/alpha/',
      );
      rmSync(root!, { recursive: true, force: true });
    }
  });

  it('lets a benchmark name itself in its folder, the registry name every one, comments and tests name any', () => {
    const result = check(
      tree({
        'benchmarks/alpha/own.ts': "export const a = 'alpha';\n",
        'benchmarks/benchmark-registry.ts':
          "import { a } from './alpha/own.js';\nexport const B = { alpha: a };\n",
        'run/shared.ts': '// alpha and beta are named here only in a comment\nexport const x = 1;\n',
        'run/shared.test.ts': "export const format = 'beta';\n",
      }),
    );
    expect(result).toMatchObject({ status: 0, stderr: '' });
  });

  it('fails on an allow-list entry no longer needed, so the list only shrinks', () => {
    const result = check(tree({ 'run/shared.ts': 'export const x = 1;\n' }, { 'run/shared.ts': ['beta'] }));
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'lists run/shared.ts for "beta", which it no longer names: remove the entry.',
    );
  });
});
