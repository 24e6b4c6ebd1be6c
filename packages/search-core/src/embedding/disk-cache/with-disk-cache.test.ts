import { mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mountTmpfs, unmountTmpfs } from '../../testing/mount-tmpfs.js';
import type { Embedder } from '../embedder.js';
import { clearEmbeddingCache, readEmbeddingCacheStats } from './cache-admin.js';
import { embedderFolderName } from './cache-folder.js';
import { withDiskCache } from './with-disk-cache.js';

/** A deterministic embedder that records what it was asked to embed. */
function createRecordingEmbedder(options: { id?: string; dimensions?: number; delayMs?: number } = {}) {
  const dimensions = options.dimensions ?? 4;
  const calls: string[][] = [];
  const vectorOf = (text: string) =>
    Float32Array.from({ length: dimensions }, (_, d) =>
      Math.sin(text.length * 7 + (text.charCodeAt(0) || 0) + d),
    );
  const embedder: Embedder & { calls: string[][] } = {
    id: options.id ?? 'fake:recording',
    dimensions,
    calls,
    async embedDocuments({ texts, onProgress }) {
      calls.push([...texts]);
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      onProgress?.(texts.length);
      return texts.map(vectorOf);
    },
    async embedQuery({ text }) {
      calls.push([`query:${text}`]);
      return vectorOf(`query:${text}`);
    },
  };
  return embedder;
}

async function segmentFiles(dir: string): Promise<string[]> {
  const root = join(dir, 'embeddings');
  const names: string[] = [];
  for (const folder of await readdir(root).catch(() => [])) {
    for (const name of await readdir(join(root, folder))) names.push(join(root, folder, name));
  }
  return names;
}

describe('withDiskCache', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lme-embedding-cache-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('names the cache folder and what to do when it cannot be used (a file where a folder goes)', async () => {
    await writeFile(join(dir, 'embeddings'), 'a file where the folder goes');
    const cached = withDiskCache(createRecordingEmbedder(), { dir });
    const folder = join(dir, 'embeddings', embedderFolderName('fake:recording'));
    // Found when it loads, before anything is embedded.
    await expect(cached.embedDocuments({ texts: ['a', 'b'] })).rejects.toThrow(
      `The embedding cache folder ${folder} cannot be used (ENOTDIR): make it a folder lme can write, point --cache-dir at another folder, or run with --no-cache.`,
    );
  });

  it('names the cache folder when its disk is full or read-only', async (context) => {
    const full = mountTmpfs('size=4k');
    if ('skip' in full) return context.skip(full.skip);
    const readOnly = mountTmpfs('ro,size=4k');
    try {
      if ('skip' in readOnly) return context.skip(readOnly.skip);
      const texts = Array.from({ length: 100 }, (_, at) => `text ${at}`);
      for (const [root, state] of [
        [full.dir, 'is full (ENOSPC): free space on its disk'],
        [readOnly.dir, 'is read-only (EROFS): make it writable'],
      ] as const) {
        const cached = withDiskCache(createRecordingEmbedder({ dimensions: 64 }), { dir: root });
        await cached.embedDocuments({ texts });
        const folder = join(root, 'embeddings', embedderFolderName('fake:recording'));
        await expect(cached.close()).rejects.toThrow(
          `The embedding cache folder ${folder} ${state}, point --cache-dir at another folder, or run with --no-cache.`,
        );
      }
    } finally {
      unmountTmpfs(full.dir);
      if (!('skip' in readOnly)) unmountTmpfs(readOnly.dir);
    }
  });

  it('embeds each distinct text once and counts hits and misses', async () => {
    const inner = createRecordingEmbedder();
    const cached = withDiskCache(inner, { dir });
    expect(cached.id).toBe(inner.id);
    expect(cached.dimensions).toBe(4);
    const first = await cached.embedDocuments({ texts: ['a', 'bb', 'a'] });
    expect(inner.calls).toEqual([['a', 'bb']]);
    expect(cached.stats()).toMatchObject({ hits: 1, misses: 2 });
    expect(Array.from(first[2]!)).toEqual(Array.from(first[0]!));
    expect(first[2]).not.toBe(first[0]); // callers get their own arrays

    const second = await cached.embedDocuments({ texts: ['bb', 'ccc', 'a'] });
    expect(inner.calls).toEqual([['a', 'bb'], ['ccc']]);
    expect(cached.stats()).toMatchObject({ hits: 3, misses: 3 });
    expect(Array.from(second[0]!)).toEqual(Array.from(first[1]!));
    await cached.close();
  });

  it('keeps vectors across instances, bit for bit', async () => {
    const texts = ['the first sentence', 'a second one', 'três', '😀 emoji'];
    const writer = withDiskCache(createRecordingEmbedder(), { dir });
    const original = await writer.embedDocuments({ texts });
    await writer.close();
    expect(writer.stats()).toMatchObject({ written: 4, pending: 0 });

    const inner = createRecordingEmbedder();
    const reader = withDiskCache(inner, { dir });
    const again = await reader.embedDocuments({ texts: [...texts].reverse() });
    expect(inner.calls).toEqual([]);
    expect(reader.stats()).toMatchObject({ hits: 4, misses: 0 });
    expect(again.map((vector) => Array.from(vector))).toEqual(
      [...original].reverse().map((vector) => Array.from(vector)),
    );
    await reader.close();
  });

  it('keys vectors by the cache identity: two models under one name never share, an id without one keeps its folder', async () => {
    const modelA = {
      ...createRecordingEmbedder({ id: 'hf:Owner/model@q8' }),
      cacheIdentity: 'hf:Owner/model@q8#sha256:aaaa',
    };
    const first = withDiskCache(modelA, { dir });
    expect(first.cacheIdentity).toBe('hf:Owner/model@q8#sha256:aaaa');
    await first.embedDocuments({ texts: ['hello'] });
    await first.close();

    const modelB = {
      ...createRecordingEmbedder({ id: 'hf:Owner/model@q8' }),
      cacheIdentity: 'hf:Owner/model@q8#sha256:bbbb',
    };
    const second = withDiskCache(modelB, { dir });
    await second.embedDocuments({ texts: ['hello'] });
    expect(modelB.calls).toEqual([['hello']]); // another file's vectors are not this model's
    await second.close();

    const sameAsA = {
      ...createRecordingEmbedder({ id: 'hf:Owner/model@q8' }),
      cacheIdentity: 'hf:Owner/model@q8#sha256:aaaa',
    };
    const third = withDiskCache(sameAsA, { dir });
    await third.embedDocuments({ texts: ['hello'] });
    expect(sameAsA.calls).toEqual([]);
    await third.close();
    const stats = await readEmbeddingCacheStats({ dir });
    expect(stats.embedders.map((entry) => entry.embedderId)).toEqual([
      'hf:Owner/model@q8#sha256:aaaa',
      'hf:Owner/model@q8#sha256:bbbb',
    ]);
  });

  it('keeps queries apart from documents of the same text', async () => {
    const inner = createRecordingEmbedder();
    const cached = withDiskCache(inner, { dir });
    await cached.embedDocuments({ texts: ['hello'] });
    const query = await cached.embedQuery({ text: 'hello' });
    await cached.embedQuery({ text: 'hello' });
    expect(inner.calls).toEqual([['hello'], ['query:hello']]);
    expect(query).toHaveLength(4);
    await cached.close();
  });

  it('lets two instances write the same folder at once and sees what the other flushed', async () => {
    const left = withDiskCache(createRecordingEmbedder({ delayMs: 5 }), { dir, flushEvery: 3 });
    const right = withDiskCache(createRecordingEmbedder({ delayMs: 5 }), { dir, flushEvery: 3 });
    const texts = Array.from({ length: 40 }, (_, n) => `text number ${n}`);
    await Promise.all([
      (async () => {
        for (let start = 0; start < 30; start += 5)
          await left.embedDocuments({ texts: texts.slice(start, start + 5) });
      })(),
      (async () => {
        for (let start = 10; start < 40; start += 5)
          await right.embedDocuments({ texts: texts.slice(start, start + 5) });
      })(),
    ]);
    await Promise.all([left.close(), right.close()]);
    expect((await segmentFiles(dir)).filter((path) => path.includes('.tmp-'))).toEqual([]);

    const inner = createRecordingEmbedder();
    const reader = withDiskCache(inner, { dir });
    await reader.embedDocuments({ texts });
    expect(inner.calls).toEqual([]);
    const summary = await readEmbeddingCacheStats({ dir });
    expect(summary.embedders).toHaveLength(1);
    expect(summary.embedders[0]).toMatchObject({ embedderId: 'fake:recording', dimensions: 4 });
    expect(summary.embedders[0]!.vectors).toBeGreaterThanOrEqual(40); // overlap may be stored twice
    expect(summary.tempFiles).toBe(0);
  });

  it('picks up segments another instance wrote after this one loaded', async () => {
    const first = withDiskCache(createRecordingEmbedder(), { dir });
    const secondInner = createRecordingEmbedder();
    const second = withDiskCache(secondInner, { dir });
    await second.embedDocuments({ texts: ['warm-up'] }); // loads the (empty) index
    await first.embedDocuments({ texts: ['shared text'] });
    await first.flush();
    await second.embedDocuments({ texts: ['shared text'] });
    expect(secondInner.calls).toEqual([['warm-up']]);
    await Promise.all([first.close(), second.close()]);
  });

  it('ignores a torn temp file and sets a truncated segment aside', async () => {
    const writer = withDiskCache(createRecordingEmbedder(), { dir });
    await writer.embedDocuments({ texts: ['kept', 'also kept'] });
    await writer.flush();
    const [keptSegment] = await segmentFiles(dir);
    await writer.embedDocuments({ texts: ['torn'] });
    await writer.close();
    const segments = await segmentFiles(dir);
    expect(segments).toHaveLength(2);
    // Segments written in the same millisecond sort by their random suffix, not by write order.
    const tornPath = segments.find((segment) => segment !== keptSegment)!;
    const folder = join(tornPath, '..');
    // A process killed while writing leaves a temp file; a damaged disk could leave a short segment.
    await writeFile(join(folder, '.tmp-000000000-999-abcdef.lmev'), Buffer.from('LMEVSEG1 half written'));
    const tornSegment = await readFile(tornPath);
    await truncate(tornPath, tornSegment.length - 3);

    const inner = createRecordingEmbedder();
    const warnings: string[] = [];
    const reader = withDiskCache(inner, { dir, onWarning: (message) => warnings.push(message) });
    const vectors = await reader.embedDocuments({ texts: ['kept', 'torn', 'also kept'] });
    expect(vectors).toHaveLength(3);
    expect(inner.calls).toEqual([['torn']]);
    expect(reader.stats()).toMatchObject({ corrupt: 1 });
    expect(warnings).toEqual([expect.stringMatching(/is corrupt \(\d+ bytes where its header promises \d+/)]);
    const summary = await readEmbeddingCacheStats({ dir });
    expect(summary).toMatchObject({ vectors: 2, tempFiles: 1, invalidFiles: 0, corruptFiles: 1 });
    await reader.close();
  });

  it('caches nothing when the wrapped embedder fails or returns unusable vectors', async () => {
    const failing: Embedder = {
      id: 'fake:failing',
      dimensions: 2,
      embedDocuments: async () => {
        throw new Error('upstream exploded');
      },
      embedQuery: async () => Float32Array.from([1, 0]),
    };
    const broken: Embedder = {
      ...failing,
      embedDocuments: async ({ texts }) =>
        texts.map((_, n) => (n === 1 ? Float32Array.from([Number.NaN, 1]) : Float32Array.from([1, 0]))),
    };
    const short: Embedder = { ...failing, embedDocuments: async () => [Float32Array.from([1, 0])] };
    for (const [embedder, message] of [
      [failing, /upstream exploded/],
      [broken, /fake:failing returned unusable vectors \(vector 1 holds NaN\)/],
      [short, /1 vectors for 3 texts/],
    ] as const) {
      const cached = withDiskCache(embedder, { dir });
      await expect(cached.embedDocuments({ texts: ['a', 'b', 'c'] })).rejects.toThrow(message);
      expect(cached.stats()).toMatchObject({ pending: 0, written: 0 });
      await cached.close();
    }
    expect(await segmentFiles(dir)).toEqual([]);
  });

  it('flushes after flushEvery vectors and after flushIntervalMs, without close()', async () => {
    const bySize = withDiskCache(createRecordingEmbedder({ id: 'fake:size' }), { dir, flushEvery: 2 });
    await bySize.embedDocuments({ texts: ['one', 'two', 'three'] });
    const byTime = withDiskCache(createRecordingEmbedder({ id: 'fake:time' }), { dir, flushIntervalMs: 20 });
    await byTime.embedDocuments({ texts: ['four'] });
    // Polled with no short deadline: a loaded machine may run the 20 ms flush timer late.
    await vi.waitFor(
      async () => expect((await readEmbeddingCacheStats({ dir })).vectors).toBeGreaterThanOrEqual(4),
      { timeout: 20_000, interval: 10 },
    );
    const summary = await readEmbeddingCacheStats({ dir });
    expect(Object.fromEntries(summary.embedders.map((entry) => [entry.embedderId, entry.vectors]))).toEqual({
      'fake:size': 3,
      'fake:time': 1,
    });
  });

  it('shares a text being embedded by a concurrent call instead of embedding it twice', async () => {
    const inner = createRecordingEmbedder({ delayMs: 20 });
    const cached = withDiskCache(inner, { dir });
    const [left, right] = await Promise.all([
      cached.embedDocuments({ texts: ['shared', 'left only'] }),
      cached.embedDocuments({ texts: ['shared', 'right only'] }),
    ]);
    // Which call claims 'shared' depends on when each one's cache lookup returns; either way it
    // is embedded once, and the other call waits for it.
    expect(inner.calls.flat().sort()).toEqual(['left only', 'right only', 'shared']);
    expect(inner.calls).toHaveLength(2);
    expect(Array.from(left[0]!)).toEqual(Array.from(right[0]!));
    expect(left[0]).not.toBe(right[0]);
    await cached.close();
  });

  it('reports progress up to the number of texts', async () => {
    const cached = withDiskCache(createRecordingEmbedder(), { dir });
    await cached.embedDocuments({ texts: ['a', 'b'] });
    const progress: number[] = [];
    await cached.embedDocuments({
      texts: ['a', 'b', 'c', 'd', 'a'],
      onProgress: (done) => progress.push(done),
    });
    expect(progress).toEqual([3, 5, 5]);
    await cached.close();
  });

  it('stats and clears per embedder id', async () => {
    for (const id of ['local:use-lite', 'openai:text-embedding-3-small']) {
      const cached = withDiskCache(createRecordingEmbedder({ id, dimensions: 8 }), { dir });
      await cached.embedDocuments({ texts: ['x', 'y', 'z'] });
      await cached.close();
    }
    const before = await readEmbeddingCacheStats({ dir });
    expect(before.embedders.map((entry) => [entry.embedderId, entry.vectors, entry.segments])).toEqual([
      ['local:use-lite', 3, 1],
      ['openai:text-embedding-3-small', 3, 1],
    ]);
    expect(before.vectors).toBe(6);
    expect(before.bytes).toBeGreaterThan(6 * (32 + 8 * 4));
    const removed = await clearEmbeddingCache({ dir, embedderId: 'local:use-lite' });
    expect(removed.files).toBe(1);
    const after = await readEmbeddingCacheStats({ dir });
    expect(after.embedders.map((entry) => entry.embedderId)).toEqual(['openai:text-embedding-3-small']);
    await clearEmbeddingCache({ dir });
    expect((await readEmbeddingCacheStats({ dir })).vectors).toBe(0);
  });

  it('re-embeds vectors of a segment damaged after it was loaded', async () => {
    const writer = withDiskCache(createRecordingEmbedder(), { dir });
    await writer.embedDocuments({ texts: ['first', 'second'] });
    await writer.close();
    const inner = createRecordingEmbedder();
    const reader = withDiskCache(inner, { dir });
    await reader.embedDocuments({ texts: ['unrelated'] }); // loads the index
    const [segment] = (await segmentFiles(dir)).filter((path) => path.includes('seg-'));
    await truncate(segment!, (await readFile(segment!)).length - 10);
    const vectors = await reader.embedDocuments({ texts: ['first', 'second'] });
    expect(vectors).toHaveLength(2);
    expect(inner.calls).toEqual([['unrelated'], ['first', 'second']]);
    await reader.close();
  });

  it('re-embeds vectors cleared while it runs', async () => {
    const inner = createRecordingEmbedder();
    const cached = withDiskCache(inner, { dir });
    await cached.embedDocuments({ texts: ['gone soon'] });
    await cached.flush();
    await clearEmbeddingCache({ dir });
    await cached.embedDocuments({ texts: ['gone soon'] });
    expect(inner.calls).toEqual([['gone soon'], ['gone soon']]);
    await cached.close();
  });
});
