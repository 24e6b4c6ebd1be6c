import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isStale } from './packages/benchmark/bin/ensure-built.js';

/** Set while a run's folder exists: `<pid>:<folder>` of the vitest process that made it. */
const OWNER = 'LME_TESTS_TMPDIR';

/**
 * One temporary folder per test run, removed at its end. Tests make their folders with
 * `mkdtemp(join(tmpdir(), 'lme-…'))` and need not remove them: TMPDIR points here before the
 * workers start, so they (and the CLI processes they spawn, which inherit the environment) get
 * this folder from `os.tmpdir()`. Each project of the root config inherits this file; the first
 * setup makes the folder, the others find it, and every teardown after the first finds nothing left.
 */
export default function setup(): () => void {
  const current = process.env[OWNER];
  if (current?.startsWith(`${process.pid}:`)) return () => {};
  const previous = process.env.TMPDIR;
  const folder = mkdtempSync(join(tmpdir(), 'lme-suite-'));
  process.env.TMPDIR = folder;
  process.env[OWNER] = `${process.pid}:${folder}`;
  useBuiltCli();
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    delete process.env[OWNER];
    rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
  };
}

/**
 * Tests that spawn the CLI run the build (testing/run-cli.ts) when it is up to date with the
 * sources (as after `pnpm install`, `pnpm build` or `pnpm typecheck`): a process started from dist/
 * skips tsx's loader, about 3 s of the 4-6 s a spawn took on a loaded 2-core machine, over a
 * hundred times a suite. A stale build is not rebuilt here (`tsc -b` after an edit took 45 s on
 * that machine, more than a single test file needs): the CLI tests then run the sources through
 * tsx, as LME_TEST_CLI=tsx asks.
 */
function useBuiltCli(): void {
  if (process.env.LME_TEST_CLI === 'tsx') return;
  if (isStale()) {
    process.env.LME_TEST_CLI = 'tsx';
    process.stderr.write(
      'vitest: the build (dist/) is older than the sources, so CLI tests run them through tsx (slower); pnpm build first for the faster start.\n',
    );
    return;
  }
  process.env.LME_TEST_CLI = 'dist';
}
