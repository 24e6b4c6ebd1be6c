import { open, readdir, rename, unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { cacheFolderProblem } from '../../core/cache-folder-problem.js';
import { makeDirectory } from '../../core/make-directory.js';
import {
  CORRUPT_PREFIX,
  ignoreMissing,
  isSegmentName,
  SEGMENT_PREFIX,
  SEGMENT_SUFFIX,
  TEMP_PREFIX,
  uniqueSegmentStem,
} from './cache-folder.js';
import {
  decodeRecord,
  encodeSegment,
  inspectSegment,
  KEY_BYTES,
  parseSegment,
  type SegmentHeader,
} from './segment-format.js';
import { lockCacheFolder } from './writer-lock.js';

/** Records read in one go when hits lie this close together in a segment. */
const READ_GAP_RECORDS = 16;
const SLOT_RANGE = 2 ** 32;

export type SegmentStoreOptions = {
  /** The embedder's folder, `<dir>/embeddings/<embedder folder>`. */
  folder: string;
  embedderId: string;
  /** Told once per segment set aside (renamed `corrupt-…`) and per batch of legacy segments skipped. */
  onWarning?: ((message: string) => void) | undefined;
};

type Segment = {
  path: string;
  header: SegmentHeader;
  /** Set when the file vanished or was set aside: its keys become misses. */
  gone: boolean;
};

/**
 * The folder of one embedder's segments, shared by any number of processes: an index of the keys
 * of every visible segment (refreshed to see segments others wrote), verified reads of vectors,
 * and atomic writes of new segments. Corrupt segments are renamed `corrupt-…` and reported; legacy
 * (version 1) segments are skipped and reported once.
 */
export function createSegmentStore(options: SegmentStoreOptions) {
  const { folder, embedderId } = options;
  const segments: Segment[] = [];
  const knownFiles = new Set<string>();
  /** key (32 latin1 chars) -> segment number × 2^32 + slot */
  const index = new Map<string, number>();
  const counters = { corrupt: 0, legacy: 0 };

  function addSegment(path: string, header: SegmentHeader, keyOf: (slot: number) => string): void {
    const segmentNumber = segments.length;
    segments.push({ path, header, gone: false });
    for (let slot = 0; slot < header.count; slot++) index.set(keyOf(slot), segmentNumber * SLOT_RANGE + slot);
  }

  /** Renames a damaged segment out of the readers' way and reports it. */
  async function setAside(path: string, reason: string): Promise<void> {
    counters.corrupt += 1;
    const target = join(folder, `${CORRUPT_PREFIX}${basename(path)}`);
    await rename(path, target).catch(ignoreMissing);
    options.onWarning?.(
      `Embedding cache segment ${path} of ${embedderId} is corrupt (${reason}); set aside as ${basename(target)}, its texts are embedded again.`,
    );
  }

  /** Loads segments not seen yet (written by other processes since the last look). */
  async function refresh(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(folder);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return;
      if (code === undefined) throw error;
      throw new Error(cacheFolderProblem({ what: 'embedding cache', folder, error }), { cause: error });
    }
    const legacy = { segments: 0, vectors: 0 };
    for (const name of names.sort()) {
      if (!isSegmentName(name) || knownFiles.has(name)) continue;
      knownFiles.add(name);
      const path = join(folder, name);
      const inspected = await inspectSegment(path, true).catch(ignoreMissing);
      if (!inspected) continue;
      if (inspected.status === 'corrupt') {
        await setAside(path, inspected.reason);
        continue;
      }
      const { header, keys } = inspected;
      if (header.embedderId !== embedderId) continue;
      if (header.version === 1) {
        legacy.segments += 1;
        legacy.vectors += header.count;
        continue;
      }
      addSegment(path, header, (slot) => keys!.toString('latin1', slot * KEY_BYTES, (slot + 1) * KEY_BYTES));
    }
    if (legacy.segments > 0) {
      counters.legacy += legacy.segments;
      options.onWarning?.(
        `${legacy.segments} legacy (LMEVSEG1, no checksum) segments of ${embedderId} in ${folder} are not read (${legacy.vectors} vectors); run \`lme cache upgrade\` to verify and convert them.`,
      );
    }
  }

  /** The disk location of a key, if present with the expected size (0: any). */
  function locate(key: string, dimensions: number): { segment: Segment; slot: number } | undefined {
    const location = index.get(key);
    if (location === undefined) return undefined;
    const segment = segments[Math.floor(location / SLOT_RANGE)]!;
    if (segment.gone || (dimensions > 0 && segment.header.dimensions !== dimensions)) return undefined;
    return { segment, slot: location % SLOT_RANGE };
  }

  /**
   * Reads and verifies the vectors of located keys. Keys whose segment vanished, or turned out
   * corrupt (the segment is then set aside), are left out: the caller embeds them again.
   */
  async function readVectors(
    keys: readonly string[],
    dimensions: number,
  ): Promise<Map<string, Float32Array>> {
    const found = new Map<string, Float32Array>();
    const bySegment = new Map<Segment, { key: string; slot: number }[]>();
    for (const key of keys) {
      const location = locate(key, dimensions);
      if (!location) continue;
      const list = bySegment.get(location.segment);
      if (list) list.push({ key, slot: location.slot });
      else bySegment.set(location.segment, [{ key, slot: location.slot }]);
    }
    for (const [segment, list] of bySegment) {
      list.sort((a, b) => a.slot - b.slot);
      const problem = await readSegmentRecords(segment, list, found);
      if (problem === 'gone') segment.gone = true;
      else if (problem !== undefined) {
        segment.gone = true;
        await setAside(segment.path, problem);
      }
    }
    return found;
  }

  /**
   * Writes a new segment of these vectors and adds it to the index, under the folder's write lock:
   * keys a segment of another process already holds (both embedded the text at once: a race) are
   * left out of it. Returns how many were.
   */
  async function write(
    dimensions: number,
    keys: readonly string[],
    vectorOf: (key: string) => Float32Array,
  ): Promise<{ raced: number }> {
    let release: (() => Promise<unknown>) | undefined;
    try {
      await makeDirectory(folder);
      release = await lockCacheFolder(folder);
      await refresh();
      const fresh = keys.filter((key) => !locate(key, dimensions));
      if (fresh.length > 0) {
        const file = encodeSegment(embedderId, dimensions, fresh, vectorOf);
        const name = await writeSegmentFile(folder, file);
        knownFiles.add(name);
        const parsed = parseSegment(file);
        if (parsed.status !== 'ok')
          throw new Error(`The segment just encoded for ${embedderId} does not parse (${parsed.reason}).`);
        addSegment(join(folder, name), parsed.header, (slot) => fresh[slot]!);
      }
      return { raced: keys.length - fresh.length };
    } catch (error) {
      // A full or read-only folder: one sentence naming it and what to do, not a bare ENOSPC.
      if ((error as NodeJS.ErrnoException).code === undefined) throw error;
      throw new Error(cacheFolderProblem({ what: 'embedding cache', folder, error }), { cause: error });
    } finally {
      await release?.();
    }
  }

  return {
    refresh,
    locate,
    readVectors,
    write,
    has: (key: string) => index.has(key),
    /** Segments this store set aside as corrupt, and legacy segments it skipped. */
    counters: () => ({ ...counters }),
  };
}

export type SegmentStore = ReturnType<typeof createSegmentStore>;

/**
 * Reads `list` (sorted by slot) from one segment into `found`, in one read per run of nearby slots,
 * verifying each record; returns what went wrong, if anything (`gone`: the file vanished).
 */
async function readSegmentRecords(
  segment: Segment,
  list: readonly { key: string; slot: number }[],
  found: Map<string, Float32Array>,
): Promise<string | undefined> {
  const { header } = segment;
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(segment.path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return 'gone';
  }
  try {
    for (let start = 0; start < list.length; ) {
      let end = start + 1;
      while (end < list.length && list[end]!.slot - list[end - 1]!.slot <= READ_GAP_RECORDS) end++;
      const firstSlot = list[start]!.slot;
      const length = (list[end - 1]!.slot - firstSlot + 1) * header.recordBytes;
      const buffer = Buffer.allocUnsafe(length);
      const position = header.recordsOffset + firstSlot * header.recordBytes;
      const { bytesRead } = await handle.read(buffer, 0, length, position);
      if (bytesRead !== length) return 'shorter than its header promises';
      for (let at = start; at < end; at++) {
        const { key, slot } = list[at]!;
        const vector = decodeRecord(buffer, (slot - firstSlot) * header.recordBytes, header);
        if (typeof vector === 'string') return `record ${slot}: ${vector}`;
        found.set(key, vector);
      }
      start = end;
    }
    return undefined;
  } finally {
    await handle.close();
  }
}

/** Writes a segment under a temp name, syncs it and renames it into view; returns its name. */
export async function writeSegmentFile(folder: string, file: Buffer): Promise<string> {
  await makeDirectory(folder);
  const stem = uniqueSegmentStem();
  const tempPath = join(folder, `${TEMP_PREFIX}${stem}${SEGMENT_SUFFIX}`);
  const name = `${SEGMENT_PREFIX}${stem}${SEGMENT_SUFFIX}`;
  const handle = await open(tempPath, 'wx');
  try {
    await handle.writeFile(file);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => {});
    await unlink(tempPath).catch(() => {});
    throw error;
  }
  await handle.close();
  await rename(tempPath, join(folder, name));
  return name;
}
