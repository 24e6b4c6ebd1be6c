import { createUseLiteEmbedder } from '@lme/search-core';
import { EMBED_THREADS_OPTION } from '../embed-threads-option.js';
import { defineEmbedder } from '../embedder-descriptor.js';

const MB = 1024 * 1024;

/** `local:use-lite`: the Universal Sentence Encoder lite on TensorFlow.js worker threads. */
export const LOCAL_EMBEDDER = defineEmbedder({
  name: 'local',
  description: 'the Universal Sentence Encoder lite, on worker threads in this process',
  options: { embedThreads: EMBED_THREADS_OPTION },
  capabilities: {
    form: 'local:use-lite',
    modelFiles: false,
    threads: true,
    // A worker's own copy of the model and a TensorFlow.js backend (measured: 64 threads took 4 GB).
    threadBytes: 64 * MB,
    hosted: false,
  },
  create: (model, options) =>
    model === 'use-lite' ? createUseLiteEmbedder({ threads: options.embedThreads }) : undefined,
});
