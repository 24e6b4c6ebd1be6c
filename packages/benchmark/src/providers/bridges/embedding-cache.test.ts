import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BRIDGE_SOURCE_DIR, bridgePaths, bridgesDir } from './bridge-catalog.js';
import { readInstalledBridge } from './install-bridge.js';

// bridges/embedding_cache.py run by the mem0 bridge's Python (it needs numpy), with a stand-in model
// whose vector of a text is its bytes' sum in every dimension: what the cache does with vectors is
// under test here, not the model (bridges.test.ts runs the real ones).

const SCRIPT = `
import json, sys
sys.path.insert(0, sys.argv[1])
import numpy as np
from embedding_cache import EmbeddingCache
folder, texts = sys.argv[2], json.loads(sys.argv[3])
asked = []
def model(missing):
    asked.extend(missing)
    return np.array([[float(sum(text.encode()))] * 4 for text in missing], dtype=np.float32)
cache = EmbeddingCache(folder, {"model": "stand-in"}, 4)
vectors = cache.embed(texts, model)
print(json.dumps({"asked": asked, "hits": cache.hits, "vectors": vectors[:, 0].tolist()}))
`;

type Reply = { asked: string[]; hits: number; vectors: number[] };

const missing = await readInstalledBridge(bridgesDir(), 'mem0').then(
  () => undefined,
  (error: Error) => error.message,
);

function embed(folder: string, texts: string[]): Promise<Reply> {
  const python = bridgePaths(bridgesDir(), 'mem0').python;
  const child = spawn(python, ['-c', SCRIPT, BRIDGE_SOURCE_DIR, folder, JSON.stringify(texts)], {
    env: { PATH: process.env.PATH, PYTHONDONTWRITEBYTECODE: '1' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) =>
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(stdout) as Reply) : reject(new Error(`exit ${code}: ${stderr}`)),
    ),
  );
}

async function vectorFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, encoding: 'utf8' });
  return entries.filter((entry) => /\.(f32|tmp)|\/\.tmp-/.test(entry)).sort();
}

const sum = (text: string) => [...Buffer.from(text)].reduce((total, byte) => total + byte, 0);

describe.skipIf(missing !== undefined)(
  missing ? `the bridges' embedding cache (skipped: ${missing})` : "the bridges' embedding cache",
  () => {
    let folder: string;
    beforeEach(async () => {
      folder = await mkdtemp(join(tmpdir(), 'lme-bridge-embeddings-'));
    });
    afterEach(async () => {
      await rm(folder, { recursive: true, force: true });
    });

    it('embeds each distinct text once, then reads it back, and embeds again a vector cut short', async () => {
      const first = await embed(folder, ['kettle', 'ocean', 'kettle']);
      expect(first).toEqual({
        asked: ['kettle', 'ocean'],
        hits: 0,
        vectors: ['kettle', 'ocean', 'kettle'].map(sum),
      });
      const files = await vectorFiles(folder);
      expect(files).toHaveLength(2);
      expect((await stat(join(folder, files[0]!))).size).toBe(16);
      expect(await embed(folder, ['ocean', 'kettle'])).toEqual({
        asked: [],
        hits: 2,
        vectors: ['ocean', 'kettle'].map(sum),
      });
      // A torn file (a disk filled mid-write, an older format) is not a vector.
      const { truncate } = await import('node:fs/promises');
      for (const file of files) await truncate(join(folder, file), 6);
      expect((await embed(folder, ['ocean'])).asked).toEqual(['ocean']);
    }, 60_000);

    it('is filled by two processes at once into whole vectors, with no temporary file left', async () => {
      const texts = Array.from({ length: 400 }, (_, index) => `turn ${index}`);
      const replies = await Promise.all([embed(folder, texts), embed(folder, [...texts].reverse())]);
      for (const reply of replies) expect(reply.vectors.length).toBe(texts.length);
      const files = await vectorFiles(folder);
      expect(files.filter((file) => !file.endsWith('.f32'))).toEqual([]);
      expect(files).toHaveLength(texts.length);
      const again = await embed(folder, texts);
      expect(again).toEqual({ asked: [], hits: texts.length, vectors: texts.map(sum) });
    }, 60_000);
  },
);
