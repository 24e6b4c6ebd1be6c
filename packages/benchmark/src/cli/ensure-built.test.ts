import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundleFailure, isStale, refusesBuild } from '../../bin/ensure-built.js';

/** A repository layout with one source file and (optionally) a build stamp and bundle, with set mtimes. */
function repository(times: { source: number; test?: number; stamp?: number; bundle?: false }): string {
  const root = mkdtempSync(join(tmpdir(), 'lme-build-'));
  const src = join(root, 'packages/benchmark/src');
  mkdirSync(src, { recursive: true });
  mkdirSync(join(root, 'packages/benchmark/dist'), { recursive: true });
  const file = (path: string, seconds: number) => {
    writeFileSync(path, '');
    utimesSync(path, seconds, seconds);
  };
  file(join(src, 'main.ts'), times.source);
  if (times.test !== undefined) file(join(src, 'main.test.ts'), times.test);
  if (times.stamp !== undefined) file(join(root, 'packages/benchmark/dist/.build-stamp'), times.stamp);
  if (times.bundle !== false) {
    mkdirSync(join(root, 'packages/benchmark/dist/bundle'), { recursive: true });
    file(join(root, 'packages/benchmark/dist/bundle/main.js'), times.stamp ?? 0);
  }
  return root;
}

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});
const at = (times: Parameters<typeof repository>[0]) => {
  const root = repository(times);
  roots.push(root);
  return root;
};

describe('the lme launcher build check', () => {
  it('rebuilds when there is no build, or a source is newer than the last build', () => {
    expect(isStale(at({ source: 1_000 }))).toBe(true);
    expect(isStale(at({ source: 2_000, stamp: 1_000 }))).toBe(true);
  });

  it('rebuilds when the CLI bundle is missing (a build from before bin/bundle-cli.js)', () => {
    expect(isStale(at({ source: 1_000, stamp: 2_000, bundle: false }))).toBe(true);
  });

  it('runs the build as it is when every source is older', () => {
    expect(isStale(at({ source: 1_000, stamp: 2_000 }))).toBe(false);
  });

  it('ignores test files, which never run from dist', () => {
    expect(isStale(at({ source: 1_000, test: 3_000, stamp: 2_000 }))).toBe(false);
  });
});

describe('a finished build', () => {
  it('is current when tsc succeeded, even if a touched source (same text) was not emitted again', () => {
    expect(refusesBuild({ status: 0, sourceTime: 2_000, emittedTime: 1_000 })).toBe(false);
  });

  it('is refused when tsc failed and the newest source was not emitted', () => {
    expect(refusesBuild({ status: 2, sourceTime: 2_000, emittedTime: 1_000 })).toBe(true);
    expect(refusesBuild({ status: 2, sourceTime: 2_000, emittedTime: 3_000 })).toBe(false);
  });
});

describe('a failed bundle', () => {
  it('stops lme with one sentence: the bundler’s reason, said once, then why nothing runs', () => {
    expect(
      bundleFailure(
        'lme: bundling the CLI failed: chunk-X.js reads __filename: leave the package that does out of BUNDLED (bin/bundle-cli.js).\n',
      ),
    ).toBe(
      'bundling the CLI failed: chunk-X.js reads __filename: leave the package that does out of BUNDLED (bin/bundle-cli.js), so lme will not run a stale build (pnpm lme:dev runs the sources).',
    );
    expect(bundleFailure('')).toBe(
      'bundling the CLI failed, so lme will not run a stale build (pnpm lme:dev runs the sources).',
    );
  });
});
