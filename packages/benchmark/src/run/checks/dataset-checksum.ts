import { createHash, type Hash } from 'node:crypto';
import { constants, readdirSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { benchmarkNamed, recognizeBenchmarkPath } from '../../benchmarks/benchmark-registry.js';
import { formatLimit, INPUT_LIMITS } from '../../dataset/input-limits.js';

/**
 * SHA-256 of a dataset file's bytes as stored (compressed or not), hex. A dataset that is a
 * folder (a benchmark's `recognizesPath`) hashes the files its loader reads
 * (`Benchmark.datasetFiles`: for BEAM each conversation's chat.json and probing questions), each
 * as its relative path, a NUL, then its bytes, in sorted path order: an unrelated file beside
 * them, or a link elsewhere in the folder (to `.`, to `/`, two to each other), is never walked or
 * read. A folder no benchmark lists is hashed file by file, links not followed.
 */
export async function datasetFileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  if (statSync(path).isDirectory()) {
    const format = await recognizeBenchmarkPath(path);
    const listed = format === undefined ? undefined : benchmarkNamed(format).datasetFiles?.(path);
    for (const file of listed ? [...listed].sort(comparePaths) : filesUnder(path)) {
      hash.update(`${file}\0`);
      // A file its loader reads whole is refused here as the loader would, before 2 GB are hashed.
      await hashFile(hash, join(path, file), listed ? INPUT_LIMITS.wholeFileBytes : undefined);
    }
  } else await hashFile(hash, path);
  return hash.digest('hex');
}

/** A regular file's bytes into the hash; a FIFO or a device (a link to /dev/zero) is refused at once, never read. */
async function hashFile(hash: Hash, path: string, maxBytes?: number): Promise<void> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK).catch(
    (error: NodeJS.ErrnoException) => {
      throw new Error(`${path} cannot be read (${error.code ?? error.message}).`);
    },
  );
  try {
    const stats = await handle.stat();
    if (!stats.isFile())
      throw new Error(
        `${path} is not a regular file (a device, a pipe or a socket); lme reads a dataset from regular files.`,
      );
    if (maxBytes !== undefined && stats.size > maxBytes)
      throw new Error(
        `${path}: is more than ${formatLimit(maxBytes)}, the most lme reads whole (a decompression bomb, or not a dataset)`,
      );
    for await (const chunk of handle.createReadStream({ highWaterMark: 1 << 20, autoClose: false }))
      hash.update(chunk as Buffer);
  } finally {
    await handle.close();
  }
}

/** Relative paths compared step by step, as a sorted walk of the folders meets them. */
function comparePaths(left: string, right: string): number {
  const a = left.split('/');
  const b = right.split('/');
  for (let at = 0; at < Math.min(a.length, b.length); at++) {
    if (a[at] !== b[at]) return a[at]! < b[at]! ? -1 : 1;
  }
  return a.length - b.length;
}

/** Every regular file under a folder, as sorted relative paths with `/`; symbolic links are not followed. */
function filesUnder(root: string, prefix = ''): string[] {
  return readdirSync(join(root, prefix), { withFileTypes: true })
    .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0))
    .flatMap((entry) => {
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      return entry.isDirectory() ? filesUnder(root, relative) : entry.isFile() ? [relative] : [];
    });
}
