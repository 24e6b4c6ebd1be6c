import { describe, expect, it } from 'vitest';
import { createConfiguredEmbedder } from '../providers/pipeline/configured-embedder.js';
import { embedderForms, resolveEmbedder, resolveReranker } from './component-ids.js';
import { groupConfig, parseRunConfig } from './run-sections.js';

describe('embedder ids', () => {
  it('name a family of the registry and the model after its colon', () => {
    const { descriptor, model } = resolveEmbedder('hf:Xenova/e5-small-v2@q8');
    expect([descriptor.name, model]).toEqual(['hf', 'Xenova/e5-small-v2@q8']);
    expect(embedderForms()).toEqual(['local:use-lite', 'hf:<owner>/<model>[@<dtype>]', 'openai:<model>']);
  });

  it('refuse an unknown family in one sentence with the nearest family and the known forms', () => {
    expect(() => resolveEmbedder('hg:Xenova/e5-small-v2')).toThrow(
      'Unknown embedder "hg:Xenova/e5-small-v2"; did you mean "hf:Xenova/e5-small-v2"? Known: local:use-lite, hf:<owner>/<model>[@<dtype>], openai:<model> (e.g. openai:text-embedding-3-small).',
    );
    expect(() => resolveEmbedder('openia:text-embedding-3-small')).toThrow(
      /; did you mean "openai:text-embedding-3-small"\? Known: /,
    );
    // Nothing near: the known forms alone.
    expect(() => resolveEmbedder('bogus:x')).toThrow(
      'Unknown embedder "bogus:x". Known: local:use-lite, hf:<owner>/<model>[@<dtype>], openai:<model> (e.g. openai:text-embedding-3-small).',
    );
  });

  it('refuse an unknown family of a joined --embedder when the embedder is made', () => {
    const config = parseRunConfig({ retriever: 'dense', embedder: 'local:use-lite+hff:Xenova/e5-small-v2' });
    expect(() => createConfiguredEmbedder(groupConfig({ ...config, cache: false }))).toThrow(
      /^Unknown embedder "hff:Xenova\/e5-small-v2"; did you mean "hf:Xenova\/e5-small-v2"\?/,
    );
  });

  it('refuse a model its family does not know with the known forms', () => {
    expect(() =>
      createConfiguredEmbedder(groupConfig({ ...parseRunConfig({}), embedder: 'local:use-heavy' })),
    ).toThrow('Unknown embedder "local:use-heavy". Known: local:use-lite,');
  });
});

describe('reranker ids', () => {
  it('name a family and its argument, and refuse an unknown family naming the nearest', () => {
    const { descriptor, argument } = resolveReranker('http:https://rerank.example/v1');
    expect([descriptor.name, argument]).toEqual(['http', 'https://rerank.example/v1']);
    expect(() => resolveReranker('offlin:session-prior')).toThrow(
      'Unknown reranker "offlin:session-prior"; did you mean "offline:session-prior"?; known: llm:<model>, llm-pointwise:<model>, http:<url>, offline:session-prior[@w], offline:interleave.',
    );
    expect(() => resolveReranker('llm:')).toThrow(/^Unknown reranker "llm:"; known: llm:<model>,/);
  });
});
