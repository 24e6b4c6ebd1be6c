import { mkdirSync, statSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/**
 * Creates `dir` and its missing parents one level at a time, like `mkdir -p`. Node's
 * `mkdir(…, {recursive: true})` (sync and async) loops forever, blocking signals, where a parent
 * exists but refuses children with ENOENT (`/proc/nope/x`); this tries each level once. A level
 * that cannot be made throws the system error (its `code` kept) with the level in the message.
 */
export async function makeDirectory(dir: string): Promise<void> {
  for (const level of await missingLevels(resolve(dir), async (path) => stat(path))) {
    try {
      await mkdir(level);
    } catch (error) {
      if (!(await isFolder(error, level, async (path) => stat(path)))) throw levelError(error, level);
    }
  }
}

/** makeDirectory, synchronously. */
export function makeDirectorySync(dir: string): void {
  const levels = missingLevelsSync(resolve(dir));
  for (const level of levels) {
    try {
      mkdirSync(level);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(level).isDirectory())
        throw levelError(error, level);
    }
  }
}

/** The missing levels of `target`, outermost first (none when it exists). */
async function missingLevels(
  target: string,
  statOf: (path: string) => Promise<{ isDirectory(): boolean }>,
): Promise<string[]> {
  const missing: string[] = [];
  let existing = target;
  while (!(await exists(existing, statOf))) {
    missing.unshift(existing);
    const parent = dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  return missing;
}

function missingLevelsSync(target: string): string[] {
  const missing: string[] = [];
  let existing = target;
  for (;;) {
    try {
      statSync(existing);
      break;
    } catch (error) {
      if (!isAbsent(error)) throw error;
    }
    missing.unshift(existing);
    const parent = dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  return missing;
}

async function exists(path: string, statOf: (path: string) => Promise<unknown>): Promise<boolean> {
  try {
    await statOf(path);
    return true;
  } catch (error) {
    if (isAbsent(error)) return false;
    throw error;
  }
}

async function isFolder(
  error: unknown,
  level: string,
  statOf: (path: string) => Promise<{ isDirectory(): boolean }>,
): Promise<boolean> {
  if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return false;
  return (await statOf(level)).isDirectory();
}

function isAbsent(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function levelError(error: unknown, level: string): NodeJS.ErrnoException {
  const cause = error as NodeJS.ErrnoException;
  const code = cause.code ?? cause.message;
  const wrapped: NodeJS.ErrnoException = new Error(`cannot create ${level} (${code})`, { cause });
  if (cause.code !== undefined) wrapped.code = cause.code;
  return wrapped;
}
