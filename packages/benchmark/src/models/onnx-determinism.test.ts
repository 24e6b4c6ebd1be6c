import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { threadId } from 'node:worker_threads';
import { createEmbedder, type Embedder, type OnnxEmbedder, withDiskCache } from '@lme/search-core';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseModel, loadModelCatalog } from './model-catalog.js';
import { onnxModelResolver, openModelStore } from './onnx-model-resolver.js';

/*
 * Issue 35: a vector depends on the text, the model and its settings only: the same bits whether
 * the text is embedded alone or among others, with one thread or two, cold or from the disk cache.
 * Batched int8 calls broke this (DynamicQuantizeLinear takes one activation scale over the whole
 * batch, padding included: cosine 0.97-0.999 against the text alone), and with it a run's figures
 * depended on what the cache held. Real models, looked for in LME_MODEL_CACHE_DIR (never fetched);
 * a model whose files are absent is skipped, and the test's name says why.
 */

const reference = JSON.parse(
  readFileSync(resolve(import.meta.dirname, 'fixtures/reference-vectors.json'), 'utf8'),
) as { sentences: string[] };
const cacheDir = process.env['LME_MODEL_CACHE_DIR'] ?? resolve(import.meta.dirname, '../../../../.lme-cache');
const catalog = loadModelCatalog();
const store = openModelStore(catalog, { cacheDir });

// Short and long texts together, so a batching embedder would pad the short ones and share one
// activation scale across all of them.
const texts = [
  ...reference.sentences,
  'ok',
  'I bought a second-hand road bike last weekend and need advice on fitting it: saddle height, reach, and whether 172.5 mm cranks suit a 79 cm inseam.',
  'What was the name of the restaurant?',
  `${'My sister is moving to Lisbon in March and we are planning the trip around her birthday. '.repeat(12)}`,
];

const bytes = (vector: Float32Array) => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
const opened: Embedder[] = [];
afterAll(async () => {
  await Promise.all(opened.map((embedder) => embedder.close?.()));
});
function embedder(name: string, threads: number): Embedder {
  const created = createEmbedder(name, { threads, resolveOnnxModel: onnxModelResolver({ cacheDir }) });
  opened.push(created);
  return created;
}

for (const repository of ['Xenova/bge-small-en-v1.5', 'Xenova/all-MiniLM-L6-v2']) {
  const choice = chooseModel(catalog, repository);
  const present = await store.locate(choice);
  const why = present ? '' : ` (skipped: its files are not in ${cacheDir}/models)`;

  describe.skipIf(!present)(`${choice.name}: a vector depends on its text alone${why}`, () => {
    it('gives each text the same bits alone, in a mixed call, in another order, and on 1 or 2 threads', async () => {
      const two = embedder(choice.name, 2);
      const one = embedder(choice.name, 1);
      const alone: Float32Array[] = [];
      for (const text of texts) alone.push(...(await one.embedDocuments({ texts: [text] })));
      const mixed = await two.embedDocuments({ texts });
      const reversed = (await one.embedDocuments({ texts: [...texts].reverse() })).reverse();
      texts.forEach((_, index) => {
        expect(bytes(mixed[index]!).equals(bytes(alone[index]!)), `text ${index} in a mixed call`).toBe(true);
        expect(bytes(reversed[index]!).equals(bytes(alone[index]!)), `text ${index} reversed`).toBe(true);
      });
      // A query is one text per call by nature; it must equal itself across thread counts too.
      const query = await one.embedQuery({ text: texts[0]! });
      expect(bytes(await two.embedQuery({ text: texts[0]! })).equals(bytes(query))).toBe(true);
    });

    it('gives the same bits cold and from a disk cache filled by other calls', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'lme-determinism-'));
      try {
        const cold = await embedder(choice.name, 2).embedDocuments({ texts });
        // Fill the cache with the texts split across calls of other mates, then read them back.
        const filling = withDiskCache(embedder(choice.name, 1), { dir });
        await filling.embedDocuments({ texts: texts.filter((_, index) => index % 2 === 0) });
        await filling.embedDocuments({ texts: [...texts.filter((_, index) => index % 2 === 1), 'a mate'] });
        await filling.close?.();
        const warm = await withDiskCache(embedder(choice.name, 2), { dir }).embedDocuments({ texts });
        texts.forEach((_, index) => {
          expect(bytes(warm[index]!).equals(bytes(cold[index]!)), `text ${index}`).toBe(true);
        });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('runs its model calls on as many worker threads as it is given, none on the thread that made it', async () => {
      const two = embedder(choice.name, 2) as OnnxEmbedder;
      await two.embedDocuments({ texts });
      await two.embedQuery({ text: texts[0]! });
      const calls = two.callsByThread();
      expect(calls.has(threadId)).toBe(false);
      expect(calls.size).toBe(2);
      expect([...calls.values()].reduce((sum, count) => sum + count, 0)).toBe(texts.length + 1);
    });

    it('stops handing texts to its workers at the next text once its signal aborts, and stays usable', async () => {
      const two = embedder(choice.name, 2) as OnnxEmbedder;
      const controller = new AbortController();
      const many = Array.from({ length: 40 }, (_, index) => `text number ${index}`);
      await expect(
        two.embedDocuments({ texts: many, signal: controller.signal, onProgress: () => controller.abort() }),
      ).rejects.toThrow(/abort/i);
      // The first text done aborts; each of the 2 workers finishes at most the text it holds.
      expect([...two.callsByThread().values()].reduce((sum, count) => sum + count, 0)).toBeLessThanOrEqual(2);
      const [vector] = await two.embedDocuments({ texts: [texts[0]!] });
      const [alone] = await embedder(choice.name, 1).embedDocuments({ texts: [texts[0]!] });
      expect(bytes(vector!).equals(bytes(alone!))).toBe(true);
    });

    it('keys its cache apart from the batching embedder that came before', () => {
      expect(embedder(choice.name, 1).cacheIdentity).toMatch(/#calls:one-text#cpu:[a-z0-9]+(-[a-z0-9]+)?$/);
    });
  });
}

{
  const choice = chooseModel(catalog, 'Xenova/bge-small-en-v1.5');
  const present = await store.locate(choice);
  const why = present ? '' : ` (skipped: its files are not in ${cacheDir}/models)`;
  describe.skipIf(!present)(`${choice.name} on worker threads, when the process exits${why}`, () => {
    it('exits with the code it is given while its workers run the model, never aborting', () => {
      // Node stops worker threads at exit; one stopped inside an ONNX Runtime call used to abort the
      // process (exit code 134). Exit after the third long text, while the other worker runs one.
      const module = (path: string) => JSON.stringify(pathToFileURL(resolve(import.meta.dirname, path)).href);
      const script = `(async () => {
        const { createEmbedder } = await import(${module('../../../search-core/src/index.ts')});
        const { onnxModelResolver } = await import(${module('./onnx-model-resolver.ts')});
        const embedder = createEmbedder(${JSON.stringify(choice.name)}, {
          threads: 2,
          resolveOnnxModel: onnxModelResolver({ cacheDir: ${JSON.stringify(cacheDir)} }),
        });
        const texts = Array.from({ length: 40 }, (_, index) => index + ' a trip to Lisbon in March.'.repeat(40));
        await embedder.embedDocuments({ texts, onProgress: (done) => done === 3 && process.exit(130) });
      })();`;
      const child = spawnSync(
        process.execPath,
        ['--import', 'tsx', '--conditions=source', '--eval', script],
        { encoding: 'utf8' },
      );
      expect(child.stderr).not.toContain('terminate called');
      expect(child.status).toBe(130);
    });
  });
}
