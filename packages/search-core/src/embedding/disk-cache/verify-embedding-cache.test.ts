import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHashingEmbedder } from '../../testing/hashing-embedder.js';
import { writeLegacySegment } from '../../testing/legacy-embedding-segment.js';
import { embedderFolder } from './cache-folder.js';
import { decodeRecord, parseSegment } from './segment-format.js';
import { upgradeEmbeddingCache, verifyEmbeddingCache } from './verify-embedding-cache.js';
import { withDiskCache } from './with-disk-cache.js';

/**
 * A folder of real USE-lite segments in the legacy format (a cache written before checksums, e.g.
 * `<cache>/embeddings/local_use-lite-763f2fcd44cc`), named by LME_LEGACY_SEGMENTS; never modified
 * (segments are copied).
 */
const WARM_CACHE = process.env.LME_LEGACY_SEGMENTS ?? '';

describe('verifyEmbeddingCache and upgradeEmbeddingCache', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lme-verify-cache-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function cacheTexts(texts: string[], dimensions = 64) {
    const embedder = createHashingEmbedder({ dimensions });
    const cached = withDiskCache(embedder, { dir });
    const vectors = await cached.embedDocuments({ texts });
    await cached.close();
    return { embedder, vectors };
  }

  it('counts verified, corrupt and legacy records per embedder, changing nothing', async () => {
    await cacheTexts(['alpha', 'beta', 'gamma']);
    const { embedder } = await cacheTexts(['one', 'two'], 16);
    const [name] = await readdir(embedderFolder(dir, embedder.id));
    const path = join(embedderFolder(dir, embedder.id), name!);
    const file = await readFile(path);
    file[file.length - 10]! ^= 0x40; // inside the last record
    await writeFile(path, file);
    await writeLegacySegment(dir, 'test:hashing-64', [
      { text: 'old', vector: Float32Array.from({ length: 64 }, () => 0.125) },
    ]);

    const result = await verifyEmbeddingCache({ dir });
    expect(result).toMatchObject({ corruptSegments: 1, legacySegments: 1 });
    expect(result.embedders.map(({ problems, ...counts }) => counts)).toEqual([
      expect.objectContaining({
        embedderId: 'test:hashing-16',
        verifiedVectors: 0,
        corruptSegments: 1,
        corruptVectors: 1,
      }),
      expect.objectContaining({
        embedderId: 'test:hashing-64',
        verifiedVectors: 3,
        legacyVectors: 1,
        corruptVectors: 0,
      }),
    ]);
    expect(result.embedders[0]!.problems).toEqual([
      `${path}: 1 corrupt records, first record 1: record checksum mismatch`,
    ]);
    expect(await readFile(path)).toEqual(file);
  });

  it('rewrites legacy segments as checksummed ones, rejecting non-finite and non-unit vectors', async () => {
    const embedder = createHashingEmbedder();
    const good = await embedder.embedDocuments({ texts: ['kept one', 'kept two'] });
    const legacyPath = await writeLegacySegment(dir, embedder.id, [
      { text: 'kept one', vector: good[0]! },
      {
        text: 'not a number',
        vector: Float32Array.from({ length: 64 }, (_, d) => (d === 5 ? Number.NaN : 0)),
      },
      { text: 'too long', vector: Float32Array.from({ length: 64 }, () => 1) },
      { text: 'kept two', vector: good[1]! },
    ]);
    const [upgraded] = await upgradeEmbeddingCache({ dir });
    expect(upgraded).toMatchObject({ embedderId: embedder.id, segments: 1, vectors: 2, unreadable: [] });
    expect(upgraded!.rejected).toEqual([
      expect.stringMatching(/record 1: non-finite value NaN at dimension 5$/),
      expect.stringMatching(/record 2: norm 8\.0000, not 1 within 0\.001$/),
    ]);
    expect(existsSync(legacyPath)).toBe(false);
    expect(await verifyEmbeddingCache({ dir })).toMatchObject({
      corruptSegments: 0,
      legacySegments: 0,
      embedders: [expect.objectContaining({ verifiedVectors: 2 })],
    });

    const reader = createHashingEmbedder();
    const cached = withDiskCache(reader, { dir });
    await cached.embedDocuments({ texts: ['kept one', 'kept two', 'not a number', 'too long'] });
    await cached.close();
    expect(reader.documents).toEqual(['not a number', 'too long']); // the rejected ones are embedded again
  });

  it('keeps vectors of any norm when told the embedder does not normalise', async () => {
    await writeLegacySegment(dir, 'test:raw', [{ text: 'long', vector: Float32Array.from([3, 4]) }]);
    const [upgraded] = await upgradeEmbeddingCache({ dir, checkUnitNorm: false });
    expect(upgraded).toMatchObject({ segments: 1, vectors: 1, rejected: [] });
  });

  it.skipIf(!WARM_CACHE || !existsSync(WARM_CACHE))(
    'upgrades real legacy segments bit for bit (skipped unless LME_LEGACY_SEGMENTS names a folder of them)',
    async () => {
      const folder = join(dir, 'embeddings', 'local_use-lite-763f2fcd44cc');
      await mkdir(folder, { recursive: true });
      const names = (await readdir(WARM_CACHE)).filter((name) => name.startsWith('seg-')).slice(0, 2);
      for (const name of names) await copyFile(join(WARM_CACHE, name), join(folder, name));
      const before = (await verifyEmbeddingCache({ dir })).embedders[0]!;
      expect(before).toMatchObject({ embedderId: 'local:use-lite', legacySegments: 2, verifiedVectors: 0 });

      const [upgraded] = await upgradeEmbeddingCache({ dir });
      expect(upgraded).toMatchObject({ segments: 2, vectors: before.legacyVectors, rejected: [] });
      const after = (await verifyEmbeddingCache({ dir })).embedders[0]!;
      expect(after).toMatchObject({
        verifiedVectors: before.legacyVectors,
        legacySegments: 0,
        corruptSegments: 0,
      });
      // The vectors are the legacy ones, bit for bit.
      const vectorsOf = async (root: string, names: readonly string[]) => {
        const byKey = new Map<string, string>();
        for (const name of names) {
          const file = await readFile(join(root, name));
          const parsed = parseSegment(file);
          if (parsed.status !== 'ok') throw new Error(`${name} does not parse`);
          const { header, keys } = parsed;
          for (let slot = 0; slot < header.count; slot++) {
            const vector = decodeRecord(file, header.recordsOffset + slot * header.recordBytes, header);
            byKey.set(
              keys!.toString('hex', slot * 32, slot * 32 + 32),
              Buffer.from((vector as Float32Array).buffer).toString('hex'),
            );
          }
        }
        return byKey;
      };
      expect(await vectorsOf(folder, await readdir(folder))).toEqual(await vectorsOf(WARM_CACHE, names));
    },
  );
});
