import { readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CORRUPT_PREFIX,
  embedderFolderName,
  embeddingsRoot,
  ignoreMissing,
  isSegmentName,
  listDirectory,
} from './cache-folder.js';
import {
  decodeRecord,
  encodeSegment,
  isLegacySegment,
  KEY_BYTES,
  parseSegment,
  type SegmentHeader,
} from './segment-format.js';
import { writeSegmentFile } from './segment-store.js';

export type EmbeddingCacheVerifyEntry = {
  /** From the segment headers; the folder name when no header could be read. */
  embedderId: string;
  /** Records of segments that verified whole (a segment with one bad record is set aside whole). */
  verifiedVectors: number;
  verifiedSegments: number;
  /** Segments with a bad header, a bad checksum or a non-finite value. */
  corruptSegments: number;
  /** Records failing their checksum or holding a non-finite value. */
  corruptVectors: number;
  /** Legacy (LMEVSEG1) segments: no checksum to verify; `upgradeEmbeddingCache` converts them. */
  legacySegments: number;
  legacyVectors: number;
  /** Segments set aside earlier by a reader (`corrupt-…`). */
  setAside: number;
  /** One line per corrupt segment: its path and the first problem. */
  problems: string[];
};

export type EmbeddingCacheVerification = {
  dir: string;
  embedders: EmbeddingCacheVerifyEntry[];
  corruptSegments: number;
  legacySegments: number;
};

type SegmentVisit = { path: string; folder: string; name: string };

/** Every `seg-` file of the cache (of one embedder id, or all), folder by folder. */
async function* segmentsOf(dir: string, embedderId: string | undefined) {
  const root = embeddingsRoot(dir);
  const folders = embedderId === undefined ? await listDirectory(root) : [embedderFolderName(embedderId)];
  for (const folder of folders.sort()) {
    const names = (await listDirectory(join(root, folder))).sort();
    yield {
      folder,
      names,
      visits: names
        .filter(isSegmentName)
        .map((name): SegmentVisit => ({ path: join(root, folder, name), folder, name })),
    };
  }
}

/**
 * What `lme cache verify` does: reads every segment and every record, checks the checksums and
 * that every value is finite, and counts verified, corrupt and legacy records per embedder.
 * Changes nothing (readers set corrupt segments aside when they meet them).
 */
export async function verifyEmbeddingCache(options: {
  dir: string;
  embedderId?: string | undefined;
}): Promise<EmbeddingCacheVerification> {
  const result: EmbeddingCacheVerification = {
    dir: embeddingsRoot(options.dir),
    embedders: [],
    corruptSegments: 0,
    legacySegments: 0,
  };
  for await (const { folder, names, visits } of segmentsOf(options.dir, options.embedderId)) {
    const entry: EmbeddingCacheVerifyEntry = {
      embedderId: folder,
      verifiedVectors: 0,
      verifiedSegments: 0,
      corruptSegments: 0,
      corruptVectors: 0,
      legacySegments: 0,
      legacyVectors: 0,
      setAside: names.filter((name) => name.startsWith(CORRUPT_PREFIX)).length,
      problems: [],
    };
    for (const { path } of visits) {
      const file = await readFile(path).catch(ignoreMissing);
      if (!file) continue;
      const parsed = parseSegment(file);
      if (parsed.status === 'corrupt') {
        entry.corruptSegments += 1;
        entry.problems.push(`${path}: ${parsed.reason}`);
        continue;
      }
      const { header } = parsed;
      entry.embedderId = header.embedderId;
      if (header.version === 1) {
        entry.legacySegments += 1;
        entry.legacyVectors += header.count;
        continue;
      }
      let bad = 0;
      let first: string | undefined;
      for (let slot = 0; slot < header.count; slot++) {
        const vector = decodeRecord(file, header.recordsOffset + slot * header.recordBytes, header);
        if (typeof vector === 'string') {
          bad += 1;
          first ??= `record ${slot}: ${vector}`;
        }
      }
      if (bad > 0) {
        entry.corruptSegments += 1;
        entry.corruptVectors += bad;
        entry.problems.push(`${path}: ${bad} corrupt records, first ${first}`);
      } else {
        entry.verifiedSegments += 1;
        entry.verifiedVectors += header.count;
      }
    }
    if (visits.length === 0 && entry.setAside === 0) continue;
    result.embedders.push(entry);
    result.corruptSegments += entry.corruptSegments;
    result.legacySegments += entry.legacySegments;
  }
  return result;
}

export type EmbeddingCacheUpgradeOptions = {
  dir: string;
  embedderId?: string | undefined;
  /** Reject vectors whose L2 norm is not 1 within `normTolerance` (embedders normalise). Default true. */
  checkUnitNorm?: boolean;
  /** Default 1e-3. */
  normTolerance?: number;
};

export type EmbeddingCacheUpgradeEntry = {
  embedderId: string;
  /** Legacy segments rewritten as version 2 (the legacy files are removed). */
  segments: number;
  vectors: number;
  /** Records left out, one line each (segment, slot, reason); their texts are embedded again when needed. */
  rejected: string[];
  /** Legacy files that could not be read at all (left in place). */
  unreadable: string[];
};

/**
 * What `lme cache upgrade` does: rewrites every legacy (LMEVSEG1) segment as a checksummed
 * version 2 segment, keeping only vectors that are finite (and of unit norm, unless told
 * otherwise), then removes the legacy file. Version 2 segments are left alone.
 */
export async function upgradeEmbeddingCache(
  options: EmbeddingCacheUpgradeOptions,
): Promise<EmbeddingCacheUpgradeEntry[]> {
  const checkUnitNorm = options.checkUnitNorm ?? true;
  const tolerance = options.normTolerance ?? 1e-3;
  const entries: EmbeddingCacheUpgradeEntry[] = [];
  for await (const { folder, visits } of segmentsOf(options.dir, options.embedderId)) {
    const entry: EmbeddingCacheUpgradeEntry = {
      embedderId: folder,
      segments: 0,
      vectors: 0,
      rejected: [],
      unreadable: [],
    };
    for (const { path, name } of visits) {
      const file = await readFile(path).catch(ignoreMissing);
      if (!file || !isLegacySegment(file)) continue;
      const parsed = parseSegment(file);
      if (parsed.status === 'corrupt') {
        entry.unreadable.push(`${path}: ${parsed.reason}`);
        continue;
      }
      const { header } = parsed;
      entry.embedderId = header.embedderId;
      const kept = new Map<string, Float32Array>();
      for (let slot = 0; slot < header.count; slot++) {
        const problem = recordProblem(file, header, slot, checkUnitNorm ? tolerance : undefined);
        if (typeof problem === 'string') {
          entry.rejected.push(`${name} record ${slot}: ${problem}`);
          continue;
        }
        const keyStart = header.keysOffset + slot * KEY_BYTES;
        kept.set(file.toString('latin1', keyStart, keyStart + KEY_BYTES), problem);
      }
      if (kept.size > 0) {
        const keys = [...kept.keys()];
        await writeSegmentFile(
          join(path, '..'),
          encodeSegment(header.embedderId, header.dimensions, keys, (key) => kept.get(key)!),
        );
      }
      await unlink(path).catch(ignoreMissing);
      entry.segments += 1;
      entry.vectors += kept.size;
    }
    if (entry.segments > 0 || entry.unreadable.length > 0) entries.push(entry);
  }
  return entries;
}

/** The record's vector, or why it is rejected (not finite, or not of unit norm within `tolerance`). */
function recordProblem(
  file: Buffer,
  header: SegmentHeader,
  slot: number,
  tolerance: number | undefined,
): Float32Array | string {
  const vector = decodeRecord(file, header.recordsOffset + slot * header.recordBytes, header);
  if (typeof vector === 'string' || tolerance === undefined) return vector;
  let squares = 0;
  for (const value of vector) squares += value * value;
  const norm = Math.sqrt(squares);
  return Math.abs(norm - 1) <= tolerance ? vector : `norm ${norm.toFixed(4)}, not 1 within ${tolerance}`;
}
