import { describe, expect, it } from 'vitest';
import { chooseModel, loadModelCatalog, modelCacheIdentity } from './model-catalog.js';

const catalog = loadModelCatalog();

describe('configs/models.json', () => {
  it('pins MiniLM, bge-small and e5-small q8 with the hub checksums of their ONNX files', () => {
    expect(chooseModel(catalog, 'Xenova/all-MiniLM-L6-v2').files.model.sha256).toBe(
      'afdb6f1a0e45b715d0bb9b11772f032c399babd23bfc31fed1c170afc848bdb1',
    );
    expect(chooseModel(catalog, 'hf:Xenova/bge-small-en-v1.5@q8').files.model).toMatchObject({
      bytes: 34_014_426,
      sha256: '6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4',
    });
    expect(chooseModel(catalog, 'Xenova/e5-small-v2').model).toMatchObject({
      pooling: 'mean',
      queryPrefix: 'query: ',
      documentPrefix: 'passage: ',
    });
  });
});

describe('chooseModel', () => {
  it('reads hf:<repository>[@<dtype>] with q8 by default and names the embedder with its dtype', () => {
    expect(chooseModel(catalog, 'hf:Xenova/bge-small-en-v1.5')).toMatchObject({
      name: 'hf:Xenova/bge-small-en-v1.5@q8',
      repository: 'Xenova/bge-small-en-v1.5',
      dtype: 'q8',
    });
  });

  it('fails on an unknown model or dtype, listing what there is', () => {
    expect(() => chooseModel(catalog, 'hf:Xenova/unknown')).toThrow(
      /Unknown model "Xenova\/unknown"; configs\/models.json has Xenova\/all-MiniLM-L6-v2/,
    );
    expect(() => chooseModel(catalog, 'hf:Xenova/e5-small-v2@fp16')).toThrow(
      /no pinned "fp16" file; configs\/models.json pins q8, fp32/,
    );
    expect(() => chooseModel(catalog, 'hf:Xenova/all-MiniLM-L6-v2@fp16')).toThrow(
      /no pinned "fp16" file; configs\/models.json pins q8, fp32\./,
    );
  });
});

describe('modelCacheIdentity', () => {
  it('changes with the file checksum and with any setting that changes a vector', () => {
    const choice = chooseModel(catalog, 'Xenova/e5-small-v2');
    const identity = modelCacheIdentity(choice);
    expect(identity).toMatch(/^hf:Xenova\/e5-small-v2@q8#sha256:7d9092cb25f2bd1c#settings:[0-9a-f]{12}$/);
    const otherPrefix = { ...choice, model: { ...choice.model, queryPrefix: '' } };
    const otherLimit = { ...choice, model: { ...choice.model, maxTokens: 256 } };
    const otherFile = {
      ...choice,
      files: { ...choice.files, model: { ...choice.files.model, sha256: '0'.repeat(64) } },
    };
    expect(new Set([identity, ...[otherPrefix, otherLimit, otherFile].map(modelCacheIdentity)]).size).toBe(4);
  });
});
