import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { checkDatasetFile } from '../../dataset/check-dataset-file.js';
import { type DatasetSources, datasetSource, identifyDigest } from '../../dataset/dataset-sources.js';
import type { DatasetVerifyResult, DatasetVerifyStatus } from '../benchmark.js';
import { resolveDatasetPath } from './load-longmemeval.js';

/** What `verifyDatasets` says of one file (see DatasetVerifyStatus). */
export type VerifyStatus = DatasetVerifyStatus;
export type VerifyResult = DatasetVerifyResult;

/** SHA-256 of a dataset file's JSON: of the decompressed bytes for `.gz`, of the file otherwise. */
export async function sha256OfDatasetJson(path: string): Promise<string> {
  await checkDatasetFile(path);
  const hash = createHash('sha256');
  const source = createReadStream(path, { highWaterMark: 1 << 20 });
  const stream = path.endsWith('.gz') ? source.pipe(createGunzip()) : source;
  source.on('error', (error) => stream.destroy(error));
  try {
    for await (const chunk of stream) hash.update(chunk as Buffer);
  } catch (error) {
    throw new Error(`${path}: cannot be read to the end (${(error as Error).message})`);
  }
  return hash.digest('hex');
}

/**
 * Checks the file each named dataset resolves to in `dataDir` (the one `--dataset <name>` would
 * load) against the published checksums and the known copies.
 */
export async function verifyDatasets(
  sources: DatasetSources,
  names: readonly string[],
  dataDir: string,
): Promise<VerifyResult[]> {
  const results: VerifyResult[] = [];
  for (const dataset of names) {
    const source = datasetSource(sources, dataset);
    let path: string;
    try {
      path = resolveDatasetPath(dataset, dataDir);
    } catch {
      results.push({ dataset, status: 'missing', detail: `no ${source.file}[.gz] in ${dataDir}` });
      continue;
    }
    const digest = await sha256OfDatasetJson(path);
    const match = identifyDigest(sources, digest);
    if (match?.kind === 'published' && match.dataset === dataset) {
      results.push({
        dataset,
        status: 'verified',
        path,
        sha256: digest,
        detail: `the published ${source.file} at revision ${sources.revision}`,
      });
    } else if (match?.kind === 'copy' && match.dataset === dataset) {
      results.push({ dataset, status: 'known-copy', path, sha256: digest, detail: match.note });
    } else if (source.sha256 === null) {
      results.push({
        dataset,
        status: 'unverified',
        path,
        sha256: digest,
        detail: `no published checksum is known for ${source.file}, so this file could not be verified`,
      });
    } else {
      results.push({
        dataset,
        status: 'mismatch',
        path,
        sha256: digest,
        detail: `expected ${source.sha256} (the published ${source.file} at revision ${sources.revision})${match ? `; this is the checksum of ${match.dataset}` : ''}`,
      });
    }
  }
  return results;
}
