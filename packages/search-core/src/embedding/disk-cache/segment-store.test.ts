import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHashingEmbedder } from '../../testing/hashing-embedder.js';
import { writeLegacySegment } from '../../testing/legacy-embedding-segment.js';
import { clearEmbeddingCache, readEmbeddingCacheStats } from './cache-admin.js';
import { embedderFolder } from './cache-folder.js';
import { checksum, parseSegment } from './segment-format.js';
import { withDiskCache } from './with-disk-cache.js';

const texts = Array.from({ length: 40 }, (_, n) => `turn ${n}: I adopted a cat named number ${n * 7}`);

describe('a segment store meeting damaged or legacy segments', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lme-segment-store-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Fills the cache with `texts`; returns the vectors (the uncorrupted run) and the segment. */
  async function warmCache() {
    const embedder = createHashingEmbedder();
    const writer = withDiskCache(embedder, { dir });
    const vectors = await writer.embedDocuments({ texts });
    await writer.close();
    const folder = embedderFolder(dir, embedder.id);
    const [name] = await readdir(folder);
    const path = join(folder, name!);
    const file = await readFile(path);
    const parsed = parseSegment(file);
    if (parsed.status !== 'ok') throw new Error('expected a valid segment');
    return {
      vectors: vectors.map((vector) => Array.from(vector)),
      folder,
      path,
      file,
      header: parsed.header,
    };
  }

  /** A second run over the same texts: its vectors, what it embedded, and what it reported. */
  async function rerun() {
    const embedder = createHashingEmbedder();
    const warnings: string[] = [];
    const reader = withDiskCache(embedder, { dir, onWarning: (message) => warnings.push(message) });
    const vectors = await reader.embedDocuments({ texts });
    await reader.close();
    return {
      vectors: vectors.map((vector) => Array.from(vector)),
      embedded: embedder.documents,
      warnings,
      stats: reader.stats(),
    };
  }

  it('re-embeds the texts of a segment whose vector bytes were flipped, reports it and sets it aside', async () => {
    const warm = await warmCache();
    const { recordsOffset, recordBytes } = warm.header;
    for (const slot of [3, 17]) warm.file[recordsOffset + slot * recordBytes + 5]! ^= 0xff;
    await writeFile(warm.path, warm.file);

    const second = await rerun();
    expect(second.vectors).toEqual(warm.vectors); // the same results as the uncorrupted run
    expect(second.stats.corrupt).toBe(1);
    expect(second.stats.hits).toBeLessThan(texts.length); // not "cache hits 100%"
    expect(second.warnings).toEqual([
      expect.stringMatching(
        /segment .+ of test:hashing-64 is corrupt \(record 3: record checksum mismatch\); set aside as corrupt-seg-/,
      ),
    ]);
    expect((await readdir(warm.folder)).filter((name) => name.startsWith('corrupt-seg-'))).toHaveLength(1);
    expect((await readEmbeddingCacheStats({ dir })).corruptFiles).toBe(1);

    const third = await rerun(); // the re-embedded vectors were cached again, the corrupt file is skipped
    expect(third).toMatchObject({ embedded: [], warnings: [], vectors: warm.vectors });
    expect((await clearEmbeddingCache({ dir })).files).toBe(2);
  });

  it('treats a NaN vector as corrupt even when its checksum was made to match', async () => {
    const warm = await warmCache();
    const { recordsOffset, recordBytes, dimensions } = warm.header;
    const offset = recordsOffset + 8 * recordBytes;
    warm.file.writeFloatLE(Number.NaN, offset);
    warm.file.writeUInt32LE(
      checksum(warm.file.subarray(offset, offset + dimensions * 4)),
      offset + dimensions * 4,
    );
    await writeFile(warm.path, warm.file);

    const second = await rerun();
    expect(second.vectors).toEqual(warm.vectors);
    expect(second.vectors.flat().every(Number.isFinite)).toBe(true);
    expect(second.warnings).toEqual([expect.stringMatching(/record 8: non-finite value NaN at dimension 0/)]);
    expect(second.stats.corrupt).toBe(1);
  });

  it('sets aside a segment whose key block was damaged, when loading the index', async () => {
    const warm = await warmCache();
    warm.file[warm.header.keysOffset + 40]! ^= 0x01;
    await writeFile(warm.path, warm.file);
    const second = await rerun();
    expect(second.vectors).toEqual(warm.vectors);
    expect(second.embedded).toHaveLength(texts.length);
    expect(second.warnings).toEqual([
      expect.stringMatching(/is corrupt \(header or key checksum mismatch\)/),
    ]);
  });

  it('does not read a legacy unchecked segment, and says how to upgrade it', async () => {
    const embedder = createHashingEmbedder();
    // A legacy segment holding wrong vectors for these texts: a reader trusting it would use them.
    const wrong = Float32Array.from({ length: 64 }, (_, d) => (d === 0 ? 1 : 0));
    await writeLegacySegment(
      dir,
      embedder.id,
      texts.map((text) => ({ text, vector: wrong })),
    );
    const fresh = (await embedder.embedDocuments({ texts })).map((vector) => Array.from(vector));

    const second = await rerun();
    expect(second.vectors).toEqual(fresh);
    expect(second.stats).toMatchObject({ legacy: 1, corrupt: 0, hits: 0 });
    expect(second.warnings).toEqual([
      expect.stringMatching(
        /^1 legacy \(LMEVSEG1, no checksum\) segments of test:hashing-64 .+ \(40 vectors\); run `lme cache upgrade`/,
      ),
    ]);
    const stats = await readEmbeddingCacheStats({ dir });
    expect(stats.embedders[0]).toMatchObject({
      vectors: 40,
      segments: 1,
      legacyVectors: 40,
      legacySegments: 1,
    });
  });
});

describe('several writers sharing one cache folder', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lme-shared-cache-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes a text two writers embedded at once only once, and the second counts the race', async () => {
    // Two caches over one folder, as two processes have: both embed every text before either writes.
    const first = withDiskCache(createHashingEmbedder(), { dir });
    const second = withDiskCache(createHashingEmbedder(), { dir });
    const [a, b] = await Promise.all([
      first.embedDocuments({ texts }),
      second.embedDocuments({ texts: [...texts.slice(20), 'a text only the second has'] }),
    ]);
    await Promise.all([first.close(), second.close()]);
    const raced = first.stats().raced + second.stats().raced;
    expect(raced).toBe(20);
    expect(first.stats().written + second.stats().written).toBe(texts.length + 1);
    const stats = await readEmbeddingCacheStats({ dir });
    expect(stats.vectors).toBe(texts.length + 1);
    expect(stats.tempFiles).toBe(0);
    // The folder holds segments alone: the writers' lock is gone.
    const folder = embedderFolder(dir, createHashingEmbedder().id);
    expect((await readdir(folder)).every((name) => name.startsWith('seg-'))).toBe(true);

    const reader = withDiskCache(createHashingEmbedder(), { dir });
    const again = await reader.embedDocuments({ texts: [...texts, 'a text only the second has'] });
    await reader.close();
    expect(reader.stats().misses).toBe(0);
    expect(again.map((vector) => Array.from(vector))).toEqual(
      [...a, b[b.length - 1]!].map((vector) => Array.from(vector)),
    );
  });
});
