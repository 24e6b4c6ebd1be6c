import { accessSync, constants, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { makeDirectorySync } from '@lme/search-core';

/**
 * Creates `dir` and its missing parents one level at a time (search-core's makeDirectorySync: Node's
 * recursive mkdir loops forever, blocking signals, where the parent exists but refuses children
 * with ENOENT, as `/proc/nope`) and checks it takes files. Fails in one sentence naming `flag`.
 */
export function ensureDirectory(dir: string, flag: string): void {
  const target = resolve(dir);
  const fail = (reason: string): never => {
    throw new Error(`${flag} ${dir} is not a writable folder: ${reason}.`);
  };
  try {
    makeDirectorySync(target);
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    fail(code === 'ENOTDIR' ? `a parent of ${target} is not a folder` : (error as Error).message);
  }
  if (!statSync(target).isDirectory()) fail(`${target} is not a folder`);
  const probe = join(target, `.lme-write-probe-${process.pid}`);
  try {
    accessSync(target, constants.W_OK);
    writeFileSync(probe, '', { flag: 'wx' });
    unlinkSync(probe);
  } catch (error) {
    fail(`cannot write in it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}
