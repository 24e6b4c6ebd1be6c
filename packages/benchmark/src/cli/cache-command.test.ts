import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChatClient, withCompletionCache, withDiskCache } from '@lme/search-core';
import { createHashingEmbedder, writeLegacySegment } from '@lme/search-core/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cacheCommand } from './cache-command.js';

/** Runs `lme cache …` in this process (a child process costs seconds on a busy machine). */
async function lmeCache(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const output = { stdout: '', stderr: '' };
  const capture = (stream: 'stdout' | 'stderr') =>
    vi.spyOn(process[stream], 'write').mockImplementation((chunk: string | Uint8Array) => {
      output[stream] += String(chunk);
      return true;
    });
  const spies = [capture('stdout'), capture('stderr')];
  const previous = process.exitCode;
  process.exitCode = undefined;
  try {
    await cacheCommand().exitOverride().parseAsync(args, { from: 'user' });
    return { status: Number(process.exitCode ?? 0), ...output };
  } finally {
    for (const spy of spies) spy.mockRestore();
    process.exitCode = previous;
  }
}

const answering: ChatClient = {
  id: 'fake-chat',
  complete: async () => ({
    text: 'yes',
    texts: ['yes'],
    usage: { promptTokens: 1, completionTokens: 1 },
    cached: false,
    latencyMs: 1,
  }),
};

/** Matches a row of a rendered table with these cells, whatever their padding. */
const tableRow = (...cells: (string | number)[]) => new RegExp(`\\| *${cells.join(' *\\| *')} *\\|`);

/** A cache with checksummed vectors, one legacy segment (one NaN record) and one LLM completion. */
async function fillCache(dir: string) {
  const embedder = createHashingEmbedder({ dimensions: 16 });
  const cached = withDiskCache(embedder, { dir });
  const good = await cached.embedDocuments({ texts: ['alpha', 'beta', 'gamma'] });
  await cached.close();
  await writeLegacySegment(dir, embedder.id, [
    { text: 'old one', vector: good[0]! },
    { text: 'old nan', vector: Float32Array.from({ length: 16 }, () => Number.NaN) },
  ]);
  await withCompletionCache(answering, { dir }).complete({
    model: 'gpt-test',
    messages: [{ role: 'user', content: 'hi' }],
    temperature: 0,
    maxTokens: 5,
  });
  return embedder;
}

describe('lme cache', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lme-cache-command-'));
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await rm(dir, { recursive: true, force: true });
  });

  it('stats shows legacy vectors with the upgrade hint and the LLM completions; upgrade converts; clear removes both', async () => {
    await fillCache(dir);
    const stats = await lmeCache(['stats', '--cache-dir', dir]);
    expect(stats.status).toBe(0);
    expect(stats.stdout).toMatch(tableRow('test:hashing-16', 16, 3, 1, 2, '[0-9.]+ MiB'));
    expect(stats.stdout).toMatch(
      /2 vectors are in legacy segments without checksums, which runs do not read: run `lme cache upgrade`/,
    );
    expect(stats.stdout).toContain(`LLM completions: 1 entries`);

    vi.stubEnv('LME_CACHE_DIR', dir); // the environment fallback of --cache-dir
    const upgrade = await lmeCache(['upgrade']);
    expect(upgrade.stdout).toMatch(/^test:hashing-16: 1 segments upgraded, 1 vectors kept, 1 rejected/);
    expect(upgrade.stdout).toMatch(/record 1: non-finite value NaN at dimension 0/);
    expect(upgrade.status).toBe(0);

    const verify = await lmeCache(['verify', '--cache-dir', dir]);
    expect(verify.status).toBe(0);
    expect(verify.stdout).toMatch(tableRow('test:hashing-16', 4, 0, 0, 0, 0));

    const clear = await lmeCache(['clear', '--cache-dir', dir]);
    expect(clear.stdout).toMatch(/^removed 2 embedding files, .+; 1 LLM completions/);
    expect(await readdir(dir)).toEqual([]);
  });

  it('clear removes only the files the caches wrote, never other files of a folder that is not a cache', async () => {
    await fillCache(dir);
    const embedderFolder = join(dir, 'embeddings', (await readdir(join(dir, 'embeddings')))[0]!);
    const keep = {
      [join(dir, 'notes.txt')]: 'mine',
      [join(dir, 'embeddings', 'report.md')]: 'mine too',
      [join(embedderFolder, 'thesis.tex')]: 'not a segment',
      [join(dir, 'llm', 'ab', 'diary.txt')]: 'not an entry',
    };
    await mkdir(join(dir, 'llm', 'ab'), { recursive: true });
    for (const [path, text] of Object.entries(keep)) await writeFile(path, text);
    const clear = await lmeCache(['clear', '--cache-dir', dir]);
    expect(clear.status).toBe(0);
    expect(clear.stdout).toMatch(/^removed 2 embedding files, .+; 1 LLM completions/);
    for (const [path, text] of Object.entries(keep)) expect(await readFile(path, 'utf8')).toBe(text);
    expect((await readdir(embedderFolder)).sort()).toEqual(['thesis.tex']);
  });

  it('verify reports a corrupt segment per embedder and exits 1', async () => {
    const embedder = await fillCache(dir);
    const folder = join(dir, 'embeddings', (await readdir(join(dir, 'embeddings')))[0]!);
    const checked = [];
    for (const name of await readdir(folder)) {
      const file = await readFile(join(folder, name));
      if (file.toString('latin1', 0, 8) === 'LMEVSEG2') checked.push(name);
    }
    const path = join(folder, checked[0]!);
    const file = await readFile(path);
    file[file.length - 3]! ^= 0xff;
    await writeFile(path, file);

    const verify = await lmeCache(['verify', '--cache-dir', dir, '--embedder', embedder.id]);
    expect(verify.status).toBe(1);
    expect(verify.stdout).toMatch(tableRow('test:hashing-16', 0, 1, 1, 2, 0));
    expect(verify.stdout).toContain(`${path}: 1 corrupt records, first record 2: record checksum mismatch`);
    expect(verify.stderr).toBe(
      'lme cache verify: 1 corrupt segments; runs set them aside and embed their texts again.\n',
    );
  });
});
