import { lstat, rmdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { removeMatching } from '../../core/remove-matching.js';
import {
  CORRUPT_PREFIX,
  embedderFolderName,
  embeddingsRoot,
  ignoreMissing,
  isSegmentName,
  listDirectory,
  SEGMENT_PREFIX,
  SEGMENT_SUFFIX,
  TEMP_PREFIX,
} from './cache-folder.js';
import { inspectSegment } from './segment-format.js';

export type EmbeddingCacheEntry = {
  embedderId: string;
  dimensions: number;
  /** Stored records readers use (a text embedded by two concurrent runs counts twice). */
  vectors: number;
  segments: number;
  /** Records in legacy (LMEVSEG1) segments, not read until `lme cache upgrade` converts them. */
  legacyVectors: number;
  legacySegments: number;
  bytes: number;
};

export type EmbeddingCacheSummary = {
  dir: string;
  embedders: EmbeddingCacheEntry[];
  /** Vectors readers use (legacy ones not included). */
  vectors: number;
  legacyVectors: number;
  bytes: number;
  /** Leftovers of interrupted writes (ignored by readers, removed by clear). */
  tempFiles: number;
  /** Segments whose header is unreadable (ignored by readers, removed by clear). */
  invalidFiles: number;
  /** Segments set aside as corrupt by a reader (`corrupt-…`; removed by clear). */
  corruptFiles: number;
  /** Bytes of temp, invalid and corrupt files. */
  wastedBytes: number;
};

/**
 * What `lme cache stats` shows: stored vectors and bytes per embedder id, from the segment headers
 * (checksums are not read: `verifyEmbeddingCache` does that).
 */
export async function readEmbeddingCacheStats(options: { dir: string }): Promise<EmbeddingCacheSummary> {
  const root = embeddingsRoot(options.dir);
  const summary: EmbeddingCacheSummary = {
    dir: root,
    embedders: [],
    vectors: 0,
    legacyVectors: 0,
    bytes: 0,
    tempFiles: 0,
    invalidFiles: 0,
    corruptFiles: 0,
    wastedBytes: 0,
  };
  const byId = new Map<string, EmbeddingCacheEntry>();
  for (const folder of await listDirectory(root)) {
    const folderPath = join(root, folder);
    for (const name of await listDirectory(folderPath)) {
      const path = join(folderPath, name);
      const size = (await stat(path).catch(ignoreMissing))?.size;
      if (size === undefined) continue; // renamed or removed meanwhile
      const waste = name.startsWith(TEMP_PREFIX)
        ? 'tempFiles'
        : name.startsWith(CORRUPT_PREFIX)
          ? 'corruptFiles'
          : undefined;
      if (waste) {
        summary[waste] += 1;
        summary.wastedBytes += size;
        continue;
      }
      if (!isSegmentName(name)) continue;
      const inspected = await inspectSegment(path, false).catch(ignoreMissing);
      if (inspected === null) continue;
      if (inspected.status === 'corrupt') {
        summary.invalidFiles += 1;
        summary.wastedBytes += size;
        continue;
      }
      const { header } = inspected;
      let entry = byId.get(header.embedderId);
      if (!entry) {
        entry = {
          embedderId: header.embedderId,
          dimensions: header.dimensions,
          vectors: 0,
          segments: 0,
          legacyVectors: 0,
          legacySegments: 0,
          bytes: 0,
        };
        byId.set(header.embedderId, entry);
      }
      if (header.version === 1) {
        entry.legacyVectors += header.count;
        entry.legacySegments += 1;
        summary.legacyVectors += header.count;
      } else {
        entry.vectors += header.count;
        entry.segments += 1;
        summary.vectors += header.count;
      }
      entry.bytes += size;
      summary.bytes += size;
    }
  }
  summary.embedders = [...byId.values()].sort((a, b) => a.embedderId.localeCompare(b.embedderId));
  return summary;
}

/**
 * What `lme cache clear` does: removes the cached vectors of one embedder id, or of all, with
 * temp and corrupt files. Runs still using the cache treat vanished vectors as misses.
 */
export async function clearEmbeddingCache(options: {
  dir: string;
  embedderId?: string | undefined;
}): Promise<{ files: number; bytes: number }> {
  const root = embeddingsRoot(options.dir);
  const folders =
    options.embedderId === undefined ? await listDirectory(root) : [embedderFolderName(options.embedderId)];
  let files = 0;
  let bytes = 0;
  // Only the files the cache writes go (segments, their temporary and set-aside forms), and then
  // the folders left empty: a --cache-dir pointed at the wrong folder loses nothing else.
  const isCacheFile = (name: string) =>
    name.endsWith(SEGMENT_SUFFIX) &&
    (name.startsWith(SEGMENT_PREFIX) || name.startsWith(TEMP_PREFIX) || name.startsWith(CORRUPT_PREFIX));
  for (const folder of folders) {
    const folderPath = join(root, folder);
    if (!(await lstat(folderPath).catch(ignoreMissing))?.isDirectory()) continue;
    for (const name of await listDirectory(folderPath)) {
      if (!isCacheFile(name)) continue;
      const size = (await stat(join(folderPath, name)).catch(ignoreMissing))?.size;
      if (size === undefined) continue; // removed meanwhile
      bytes += size;
      files += 1;
    }
    await removeMatching(folderPath, (path) => !path.includes('/') && isCacheFile(path));
  }
  if (options.embedderId === undefined) await rmdir(root).catch(() => undefined);
  return { files, bytes };
}
