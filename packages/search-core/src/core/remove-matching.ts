import { lstat, readdir, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Removes, below `dir`, the regular files whose path relative to it `isOwn` accepts, then every
 * folder left empty (`dir` included); anything else stays, so a cache folder pointed at the wrong
 * place (a home directory, a results folder) loses nothing but the files the cache wrote. Links
 * are never followed. Returns the files removed and those left.
 */
export async function removeMatching(
  dir: string,
  isOwn: (relativePath: string) => boolean,
): Promise<{ removed: number; left: number }> {
  const counts = { removed: 0, left: 0 };
  await walk(dir, '', isOwn, counts);
  return counts;
}

async function walk(
  dir: string,
  relative: string,
  isOwn: (relativePath: string) => boolean,
  counts: { removed: number; left: number },
): Promise<void> {
  let names: string[];
  try {
    names = await readdir(join(dir, relative));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (const name of names) {
    const path = relative === '' ? name : join(relative, name);
    const stats = await lstat(join(dir, path)).catch(() => undefined);
    if (stats === undefined) continue;
    if (stats.isDirectory()) await walk(dir, path, isOwn, counts);
    else if (stats.isFile() && isOwn(path)) {
      await rm(join(dir, path), { force: true });
      counts.removed++;
    } else counts.left++;
  }
  await rmdir(join(dir, relative)).catch(() => undefined);
}
