import { createHash, type Hash } from 'node:crypto';
import { createReadStream, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * SHA-256 of a dataset file's bytes as stored (compressed or not), hex. A dataset that is a
 * folder (a benchmark's `recognizesPath`) hashes every file under it in sorted path order, each
 * as its relative path, a NUL, then its bytes.
 */
export async function datasetFileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  if (statSync(path).isDirectory()) {
    for (const file of filesUnder(path)) {
      hash.update(`${file}\0`);
      await hashFile(hash, join(path, file));
    }
  } else await hashFile(hash, path);
  return hash.digest('hex');
}

async function hashFile(hash: Hash, path: string): Promise<void> {
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
}

/** Every file under a folder, as sorted relative paths with `/`; symbolic links are followed (a BEAM split of linked conversations). */
function filesUnder(root: string, prefix = ''): string[] {
  return readdirSync(join(root, prefix), { withFileTypes: true })
    .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0))
    .flatMap((entry) => {
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      const kind = entry.isSymbolicLink() ? statSync(join(root, relative), { throwIfNoEntry: false }) : entry;
      return kind?.isDirectory() ? filesUnder(root, relative) : kind?.isFile() ? [relative] : [];
    });
}
