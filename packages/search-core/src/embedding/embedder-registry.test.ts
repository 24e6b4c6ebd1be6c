import { describe, expect, it } from 'vitest';
import { createEmbedder, embedderNameForms } from './embedder-registry.js';
import { machineKernelFamily } from './onnx/cpu-kernels.js';

describe('createEmbedder', () => {
  it('creates the offline embedder by name without starting it', async () => {
    const embedder = createEmbedder('local:use-lite', { threads: 1 });
    expect(embedder).toMatchObject({ id: 'local:use-lite', dimensions: 512 });
    await embedder.close?.();
  });

  it('creates an OpenAI-compatible embedder for any model name, with optional dimensions', () => {
    const options = { baseURL: 'http://127.0.0.1:1/v1', apiKey: 'sk-test-key-000000' };
    expect(createEmbedder('openai:text-embedding-3-small', options)).toMatchObject({
      id: 'openai:text-embedding-3-small',
      dimensions: 1536,
    });
    expect(createEmbedder('openai:nomic-embed-text:latest', options).id).toBe(
      'openai:nomic-embed-text:latest',
    );
    expect(createEmbedder('openai:text-embedding-3-large@256', options)).toMatchObject({
      id: 'openai:text-embedding-3-large@256',
      dimensions: 256,
    });
    expect(createEmbedder('openai:text-embedding-3-large', { ...options, dimensions: 256 }).id).toBe(
      'openai:text-embedding-3-large@256',
    );
  });

  it('creates an hf: embedder from what the resolver says, loading nothing until first use', () => {
    const embedder = createEmbedder('hf:Owner/model', {
      resolveOnnxModel: (model) => ({
        id: `hf:${model}@q8`,
        cacheIdentity: `hf:${model}@q8#sha256:abc`,
        dimensions: 384,
        pooling: 'mean',
        maxTokens: 256,
        files: () => Promise.reject(new Error('not loaded in this test')),
      }),
    });
    expect(embedder).toMatchObject({
      id: 'hf:Owner/model@q8',
      // One text per model call (issue 35): keyed apart from the batching embedder's vectors.
      // ... and by the CPU's int8 kernel family, as onnxruntime's vectors differ between them.
      cacheIdentity: `hf:Owner/model@q8#sha256:abc#calls:one-text#cpu:${machineKernelFamily()}`,
      dimensions: 384,
    });
    expect(() => createEmbedder('hf:Owner/model')).toThrow(/needs a model catalog/);
  });

  it.each(['use-lite', 'local:minilm', 'openai:', 'cohere:embed-v3', 'toString:x', ''])(
    'rejects %j, listing the known forms',
    (name) => {
      expect(() => createEmbedder(name)).toThrow(
        `Unknown embedder "${name}". Known: local:use-lite, hf:<owner>/<model>[@<dtype>], openai:<model>`,
      );
    },
  );

  it('lists its name forms', () => {
    expect(embedderNameForms).toEqual(['local:use-lite', 'hf:<owner>/<model>[@<dtype>]', 'openai:<model>']);
  });
});
