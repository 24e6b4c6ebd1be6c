import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** SHA-256 of a dataset file's bytes as stored (compressed or not), hex. */
export async function datasetFileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
