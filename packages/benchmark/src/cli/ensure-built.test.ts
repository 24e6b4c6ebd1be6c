import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildKey,
  bundleFailure,
  bundleProblem,
  isStale,
  refusesBuild,
  stampBuild,
} from '../../bin/ensure-built.js';
import { codeSha256 } from '../run/outputs/run-fingerprint.js';

const BIN = join(import.meta.dirname, '../../bin');

/** A repository with one source file and, unless `built: false`, a build of it (bundle pointer and stamp). */
function repository(options: { built?: false } = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'lme-build-'));
  const src = join(root, 'packages/benchmark/src');
  mkdirSync(src, { recursive: true });
  writeFileSync(join(src, 'main.ts'), "export const version = '1';\n");
  writeFileSync(join(root, 'packages/benchmark/package.json'), '{"name":"@lme/benchmark","type":"module"}\n');
  const build = join(root, 'packages/benchmark/dist/bundle/build-abc');
  mkdirSync(build, { recursive: true });
  writeFileSync(join(build, 'main.js'), "console.log('1');\n");
  writeFileSync(join(build, '..', 'main.js'), "await import('./build-abc/main.js');\n");
  if (options.built !== false) stampBuild(root);
  return root;
}

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});
const at = (options: Parameters<typeof repository>[0] = {}) => {
  const root = repository(options);
  roots.push(root);
  return root;
};
const YEAR_2000 = 946_684_800;
const YEAR_2099 = 4_070_908_800;

describe('the lme launcher build check (keyed by content, not time)', () => {
  it('rebuilds when there is no build, and runs a build made from these sources', () => {
    expect(isStale(at({ built: false }))).toBe(true);
    expect(isStale(at())).toBe(false);
  });

  it('rebuilds after a source edit given an old time (tar, rsync -a, cp -p)', () => {
    const root = at();
    const source = join(root, 'packages/benchmark/src/main.ts');
    utimesSync(source, YEAR_2000, YEAR_2000);
    stampBuild(root);
    writeFileSync(source, "export const version = '2';\n");
    utimesSync(source, YEAR_2000, YEAR_2000);
    expect(isStale(root)).toBe(true);
  });

  it('rebuilds after an edit even when the build stamp is dated 2099', () => {
    const root = at();
    utimesSync(join(root, 'packages/benchmark/dist/.build-stamp'), YEAR_2099, YEAR_2099);
    writeFileSync(join(root, 'packages/benchmark/src/main.ts'), "export const version = '2';\n");
    expect(isStale(root)).toBe(true);
  });

  it('rebuilds when a package.json changes, not when a source is only touched or a test edited', () => {
    const root = at();
    utimesSync(join(root, 'packages/benchmark/src/main.ts'), YEAR_2099, YEAR_2099);
    writeFileSync(join(root, 'packages/benchmark/src/main.test.ts'), 'it.todo("x");\n');
    expect(isStale(root)).toBe(false);
    writeFileSync(join(root, 'packages/benchmark/package.json'), '{"name":"@lme/benchmark","version":"2"}\n');
    expect(isStale(root)).toBe(true);
  });

  it('records the same hash of the sources as a run fingerprint does', () => {
    const root = at();
    expect(buildKey(root)?.split(':')[0]).toBe(codeSha256(join(root, 'packages')));
  });
});

describe('a bundle that is not a sound build', () => {
  const bundle = (root: string) => join(root, 'packages/benchmark/dist/bundle/main.js');

  it('is rebuilt when empty, foreign, or pointing to a build that is gone', () => {
    const empty = at();
    writeFileSync(bundle(empty), '');
    expect(bundleProblem(empty)).toBe(`${bundle(empty)} is empty`);
    expect(isStale(empty)).toBe(true);
    const foreign = at();
    writeFileSync(bundle(foreign), "await import('./build-evil/main.js');\n");
    expect(bundleProblem(foreign)).toBe(`${bundle(foreign)} is not the one lme’s last build wrote`);
    expect(isStale(foreign)).toBe(true);
    const gone = at();
    rmSync(join(gone, 'packages/benchmark/dist/bundle/build-abc'), { recursive: true });
    expect(bundleProblem(gone)).toBe(
      `${bundle(gone)} points to build-abc/main.js, which is missing or empty`,
    );
    expect(isStale(gone)).toBe(true);
    expect(bundleProblem(at())).toBeUndefined();
  });

  it('is refused in one sentence by bin/lme.js where there are no sources to rebuild it from', () => {
    const root = at();
    rmSync(join(root, 'packages/benchmark/src'), { recursive: true });
    mkdirSync(join(root, 'packages/benchmark/bin'));
    for (const name of ['lme.js', 'ensure-built.js', 'source-hash.js'])
      cpSync(join(BIN, name), join(root, 'packages/benchmark/bin', name));
    writeFileSync(bundle(root), '');
    const result = spawnSync(process.execPath, [join(root, 'packages/benchmark/bin/lme.js'), '--version'], {
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `lme: ${bundle(root)} is empty, so lme will not run it; reinstall lme or build it from its sources (pnpm build).\n`,
    );
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
