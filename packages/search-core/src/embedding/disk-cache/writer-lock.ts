import { join } from 'node:path';
import { lock } from 'proper-lockfile';
import { WRITER_LOCK } from './cache-folder.js';

/**
 * Takes the write lock of one embedder's cache folder: `<folder>/.writer.lock`, a folder made
 * atomically (proper-lockfile; mkdir is atomic on local disks and on the NFS and SMB volumes shards
 * share), refreshed while held and taken over when its holder died (stale after 10 s). Writers hold
 * it only to look at the segments others wrote and write their own, so a text two processes both
 * embedded is found by the second writer and written once. Returns the release function.
 */
export async function lockCacheFolder(folder: string): Promise<() => Promise<void>> {
  const release = await lock(folder, {
    realpath: false,
    lockfilePath: join(folder, WRITER_LOCK),
    stale: 10_000,
    retries: { retries: 600, minTimeout: 20, maxTimeout: 500, factor: 1.5 },
    // Held past its stale time (a stalled process), another writer may have written meanwhile:
    // the segments stay whole either way, only the duplicate check may miss that race.
    onCompromised: () => {},
  });
  return () => release().catch(() => undefined);
}
