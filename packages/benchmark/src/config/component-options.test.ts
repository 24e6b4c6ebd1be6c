import { describe, expect, it } from 'vitest';
import { ineffectiveKeyWarnings } from './ineffective-keys.js';
import { NON_RESULT_KEYS, resultKeyDifferences } from './run-config.js';
import { groupConfig, parseRunConfig } from './run-sections.js';

describe('embedder and reranker options', () => {
  it('warn that --embed-threads has no effect under a hosted embedder, and not under an in-process one', () => {
    const hosted = parseRunConfig({
      retriever: 'hybrid',
      embedder: 'openai:text-embedding-3-small',
      embedThreads: 2,
    });
    expect(ineffectiveKeyWarnings(groupConfig(hosted), ['embedThreads'])).toEqual([
      '--embed-threads has no effect without --embedder local:use-lite|hf:<owner>/<model>[@<dtype>] in a pipeline that embeds.',
    ]);
    for (const embedder of [
      'local:use-lite',
      'hf:Xenova/e5-small-v2',
      'openai:text-embedding-3-small+local:use-lite',
    ]) {
      const config = parseRunConfig({ retriever: 'hybrid', embedder, embedThreads: 2 });
      expect(ineffectiveKeyWarnings(groupConfig(config), ['embedThreads']), embedder).toEqual([]);
    }
    // A run that embeds nothing: the threads are idle whatever the embedder.
    const lexical = parseRunConfig({ retriever: 'bm25', embedder: 'local:use-lite', embedThreads: 2 });
    expect(ineffectiveKeyWarnings(groupConfig(lexical), ['embedThreads'])).toHaveLength(1);
  });

  it('warn that --rerank-model and --rerank-key-env have no effect without an http reranker', () => {
    for (const reranker of [undefined, 'llm:gpt-4o-mini', 'offline:session-prior']) {
      const config = parseRunConfig({
        ...(reranker ? { reranker } : {}),
        rerankModel: 'm',
        rerankKeyEnv: 'K',
      });
      expect(ineffectiveKeyWarnings(groupConfig(config), ['rerankModel', 'rerankKeyEnv']), reranker).toEqual([
        '--rerank-model has no effect without --reranker http:<url>.',
        '--rerank-key-env has no effect without --reranker http:<url>.',
      ]);
    }
    const http = parseRunConfig({ reranker: 'http:http://127.0.0.1:9', rerankModel: 'm', rerankKeyEnv: 'K' });
    expect(ineffectiveKeyWarnings(groupConfig(http), ['rerankModel', 'rerankKeyEnv', 'rerankDepth'])).toEqual(
      [],
    );
  });

  it('keep --model-dir, --embed-threads and --rerank-key-env out of what a run measures', () => {
    expect(NON_RESULT_KEYS).toEqual(expect.arrayContaining(['modelDir', 'embedThreads', 'rerankKeyEnv']));
    // What a run measures: a resumed run may not change them.
    expect(NON_RESULT_KEYS).not.toContain('rerankModel');
    expect(NON_RESULT_KEYS).not.toContain('rerankDepth');
    const stored = parseRunConfig({ reranker: 'http:http://127.0.0.1:9' });
    const resumed = parseRunConfig({
      reranker: 'http:http://127.0.0.1:9',
      modelDir: '/models',
      embedThreads: 3,
      rerankKeyEnv: 'RERANK_KEY',
      rerankDepth: 30,
    });
    expect(resultKeyDifferences(stored, resumed)).toEqual(['rerankDepth']);
  });

  it('refuse an http reranker URL carrying a key, in the sentence config.json was always held to', () => {
    expect(() => parseRunConfig({ reranker: 'http:https://host/v1?key=secret' })).toThrow(
      'an http: reranker is http:<base URL> (for example http:https://host/v1), without credentials, query string or fragment (keys go in --rerank-key-env)',
    );
    expect(parseRunConfig({ reranker: 'offline:interleave' }).reranker).toBe('offline:interleave');
    // No family before a colon: not an http: id, so not held to the URL rules (as before).
    expect(parseRunConfig({ reranker: 'http' }).reranker).toBe('http');
  });
});
