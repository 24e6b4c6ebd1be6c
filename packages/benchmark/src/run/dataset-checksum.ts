import { createHash } from 'node:crypto';
import { createReadStream, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * SHA-256 of a dataset's bytes as they are on disk (gzip or not). A dataset that is a folder (BEAM)
 * hashes its files in sorted path order: SHA-256 over `<relative path>\0<file SHA-256>\n` lines.
 */
export async function datasetFileSha256(path: string): Promise<string> {
  if (!statSync(path).isDirectory()) return fileSha256(path);
  const hash = createHash('sha256');
  for (const relative of filesUnder(path, ''))
    hash.update(`${relative}\0${await fileSha256(join(path, relative))}\n`);
  return hash.digest('hex');
}

async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Files under a folder (symbolic links followed), relative paths with `/`, sorted. */
function filesUnder(root: string, prefix: string): string[] {
  const names = readdirSync(join(root, prefix)).sort();
  return names.flatMap((name) => {
    const relative = prefix ? `${prefix}/${name}` : name;
    return statSync(join(root, relative)).isDirectory() ? filesUnder(root, relative) : [relative];
  });
}
