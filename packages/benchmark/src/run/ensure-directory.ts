import { accessSync, constants, mkdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * Creates `dir` and its missing parents one level at a time and checks it takes files. Node's
 * `mkdirSync(…, {recursive: true})` loops forever, blocking signals, where the parent exists but
 * refuses children with ENOENT (`/proc/nope`); this never retries a level. Fails in one sentence
 * naming `flag`.
 */
export function ensureDirectory(dir: string, flag: string): void {
  const target = resolve(dir);
  const missing: string[] = [];
  let existing = target;
  while (statOrUndefined(existing) === undefined) {
    missing.unshift(existing);
    const parent = dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  const fail = (reason: string): never => {
    throw new Error(`${flag} ${dir} is not a writable folder: ${reason}.`);
  };
  if (!statSync(existing).isDirectory()) fail(`${existing} is not a folder`);
  for (const level of missing) {
    try {
      mkdirSync(level);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST' || !statSync(level).isDirectory())
        fail(`cannot create ${level} (${code ?? (error as Error).message})`);
    }
  }
  const probe = join(target, `.lme-write-probe-${process.pid}`);
  try {
    accessSync(target, constants.W_OK);
    writeFileSync(probe, '', { flag: 'wx' });
    unlinkSync(probe);
  } catch (error) {
    fail(`cannot write in it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

/** The path's stat, or undefined when it does not exist (or a parent is not a folder). */
function statOrUndefined(path: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}
