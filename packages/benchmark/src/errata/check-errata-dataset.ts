import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { errataLabel } from './apply-errata.js';
import type { LoadedErrata } from './load-errata.js';

/** SHA-256 of a dataset's JSON text: the file's bytes, or for a `.gz` the decompressed bytes. */
export async function datasetTextSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  const source = createReadStream(path, { highWaterMark: 1 << 20 });
  const sink = async (chunks: AsyncIterable<Buffer>) => {
    for await (const chunk of chunks) hash.update(chunk);
  };
  if (path.endsWith('.gz')) await pipeline(source, createGunzip(), sink);
  else await pipeline(source, sink);
  return hash.digest('hex');
}

/**
 * Checks that the errata were written for this dataset file (its text's SHA-256 is one of the
 * errata's `files`). A mismatch is an error in one sentence, or with `override` a warning returned
 * for the caller to print (and the run goes on with the entries that fit).
 */
export async function checkErrataDataset(
  errata: LoadedErrata,
  datasetPath: string,
  override = false,
): Promise<{ sha256: string; warning?: string }> {
  const sha256 = await datasetTextSha256(datasetPath);
  if (errata.files.some((file) => file.sha256 === sha256)) return { sha256 };
  const message =
    `The errata ${errataLabel(errata)} (--errata) were written for another file than ${datasetPath} ` +
    `(its text's SHA-256 is ${sha256.slice(0, 12)}…, the errata name ${errata.files.map((file) => `${file.sha256.slice(0, 12)}…`).join(', ')})`;
  if (!override)
    throw new Error(`${message}; pass --errata-any-checksum to apply the entries that fit anyway.`);
  return { sha256, warning: `${message}; applying the entries that fit (--errata-any-checksum).` };
}
