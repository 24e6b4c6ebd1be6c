import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createOnnxEmbedder } from './onnx-embedder.js';

// No real model here (packages/benchmark/src/models/onnx-*.test.ts run the real ones): a file that is
// not a model, and the smallest tokenizer.json that loads.
const dir = mkdtempSync(join(tmpdir(), 'lme-onnx-embedder-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const files = { model: join(dir, 'model.onnx'), tokenizer: join(dir, 'tokenizer.json') };
writeFileSync(files.model, 'not a model');
writeFileSync(
  files.tokenizer,
  JSON.stringify({
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [],
    normalizer: null,
    pre_tokenizer: { type: 'Whitespace' },
    post_processor: null,
    decoder: null,
    model: { type: 'WordLevel', vocab: { '[UNK]': 0, a: 1 }, unk_token: '[UNK]' },
  }),
);

describe('createOnnxEmbedder', () => {
  it("rejects with ONNX Runtime's load error on every call (its workers try again), then closes", async () => {
    const embedder = createOnnxEmbedder({
      id: 'hf:test/not-a-model',
      cacheIdentity: 'test',
      dimensions: 4,
      pooling: 'mean',
      maxTokens: 8,
      threads: 2,
      files: async () => files,
    });
    await expect(embedder.embedDocuments({ texts: ['a', 'a a', 'b'] })).rejects.toThrow(
      /Load model from .*model\.onnx failed/,
    );
    await expect(embedder.embedQuery({ text: 'a' })).rejects.toThrow(/Load model from .*model\.onnx failed/);
    await embedder.close?.();
    await expect(embedder.embedQuery({ text: 'a' })).rejects.toThrow(/closed/);
  });
});
