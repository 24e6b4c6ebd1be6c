import { describe, expect, it } from 'vitest';
import { nonMeasuringKeys, optionDeclarations } from '../component.js';
import { EMBEDDERS } from './embedder-registry.js';

describe('embedder families', () => {
  it('declare --model-dir (hf) and one --embed-threads shared by the in-process families', () => {
    expect(optionDeclarations(EMBEDDERS).map((option) => option.flags)).toEqual([
      '--embed-threads <n>',
      '--model-dir <dir>',
    ]);
    expect(EMBEDDERS.hf.options.embedThreads).toBe(EMBEDDERS.local.options.embedThreads);
    expect(Object.keys(EMBEDDERS.openai.options)).toEqual([]);
    expect(nonMeasuringKeys(EMBEDDERS).sort()).toEqual(['embedThreads', 'modelDir']);
  });

  it('say what each family needs: model files, threads, a hosted endpoint and its key', () => {
    const needs = Object.fromEntries(
      Object.values(EMBEDDERS).map(({ name, capabilities }) => [
        name,
        [capabilities.modelFiles, capabilities.threads, capabilities.hosted, capabilities.apiKeyEnv ?? []],
      ]),
    );
    expect(needs).toEqual({
      local: [false, true, false, []],
      hf: [true, true, false, []],
      openai: [false, false, true, ['OPENAI_API_KEY']],
    });
  });

  it('make nothing for a model its family does not know (the caller names the forms)', () => {
    const dependencies = {
      openAiEndpoint: () => ({ baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, timeoutMs: 1000 }),
      onnxModels: () => () => {
        throw new Error('no catalog in this test');
      },
    };
    expect(EMBEDDERS.local.create('use-heavy', { embedThreads: undefined }, dependencies)).toBeUndefined();
    expect(
      EMBEDDERS.hf.create('', { modelDir: undefined, embedThreads: undefined }, dependencies),
    ).toBeUndefined();
    expect(EMBEDDERS.openai.create('', {}, dependencies)).toBeUndefined();
    expect(EMBEDDERS.openai.create('text-embedding-3-small@256', {}, dependencies)?.id).toBe(
      'openai:text-embedding-3-small@256',
    );
  });
});
