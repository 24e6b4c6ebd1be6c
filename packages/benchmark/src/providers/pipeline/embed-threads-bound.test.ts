import { describe, expect, it } from 'vitest';
import { groupConfig, parseRunConfig } from '../../config/run-sections.js';
import { createConfiguredEmbedder } from './configured-embedder.js';
import { checkEmbedThreads } from './embed-threads-bound.js';

const GB = 1024 ** 3;

/** The embedders a run with `--embedder <embedder>` and `--embed-threads <threads>` selects. */
const embedders = (embedder: string, embedThreads?: number) =>
  groupConfig(parseRunConfig({ embedder, ...(embedThreads === undefined ? {} : { embedThreads }) }))
    .embedders;

describe('--embed-threads bounded by memory', () => {
  it('refuses the documented maximum of 64 use-lite threads (4 GB) in one sentence naming the most that fit', () => {
    expect(() => checkEmbedThreads(embedders('local:use-lite', 64), 20 * GB)).toThrow(
      '--embed-threads 64: 64 threads of local:use-lite would hold about 4.0 GB (about 64 MB each, a copy of the model per thread), more than the 2.0 GB lme lets embedder threads take; pass --embed-threads 32 or fewer (threads beyond the cores add memory, not speed).',
    );
    expect(() => checkEmbedThreads(embedders('local:use-lite', 32), 20 * GB)).not.toThrow();
  });

  it('takes at most half of the free memory, counting every in-process part of a joined embedder', () => {
    expect(() => checkEmbedThreads(embedders('hf:BAAI/bge-small-en-v1.5+local:use-lite', 4), 2 * GB)).toThrow(
      '--embed-threads 4: 4 threads of hf:BAAI/bge-small-en-v1.5+local:use-lite would hold about 1.3 GB (about 320 MB each, a copy of the model per thread), more than half of the 2.0 GB this machine has free; pass --embed-threads 3 or fewer',
    );
    expect(() => checkEmbedThreads(embedders('openai:text-embedding-3-small', 64), GB)).not.toThrow();
    expect(() => checkEmbedThreads(embedders('local:use-lite'), GB)).not.toThrow();
  });

  it('is checked when the embedder is made, before any thread starts', () => {
    const config = parseRunConfig({ embedder: 'local:use-lite', embedThreads: 64, retriever: 'dense' });
    expect(() => createConfiguredEmbedder(groupConfig(config))).toThrow(
      /^--embed-threads 64: 64 threads of local:use-lite/,
    );
  });
});
