import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    delete process.env[OWNER];
    rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
  };
}
