import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt } from './packages/benchmark/bin/ensure-built.js';

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
 * Tests that spawn the CLI run the build (testing/run-cli.ts) once it is brought up to date with
 * the sources here (`tsc -b` only when a source is newer than the last build): a process started
 * from dist/ skips tsx's loader, about 3 s of the 4-6 s a spawn took on a loaded 2-core machine,
 * over a hundred times a suite. A build that fails (a type error) leaves the tests on tsx, saying
 * so; LME_TEST_CLI=tsx keeps them there.
 */
function useBuiltCli(): void {
  if (process.env.LME_TEST_CLI === 'tsx') return;
  try {
    ensureBuilt({ log: () => {} });
    process.env.LME_TEST_CLI = 'dist';
  } catch (error) {
    process.env.LME_TEST_CLI = 'tsx';
    process.stderr.write(
      `vitest: the build failed, so CLI tests run the sources through tsx (slower): ${(error as Error).message.split('\n')[0]}\n`,
    );
  }
}
