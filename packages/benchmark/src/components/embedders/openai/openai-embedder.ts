import { createOpenAiEmbedder } from '@lme/search-core';
import { defineEmbedder } from '../embedder-descriptor.js';

/**
 * `openai:<model>[@<dimensions>]`: an embeddings model at the run's OpenAI-compatible endpoint
 * (`--base-url`, `OPENAI_API_KEY`, `--max-retries`, `--timeout`, as the reader's).
 */
export const OPENAI_EMBEDDER = defineEmbedder({
  name: 'openai',
  description: 'an embeddings model at an OpenAI-compatible endpoint',
  options: {},
  capabilities: {
    form: 'openai:<model>',
    modelFiles: false,
    threads: false,
    hosted: true,
    apiKeyEnv: ['OPENAI_API_KEY'],
  },
  create: (model, _options, dependencies) => {
    // `openai:<model>@<dimensions>` is the id of an embedder created with `dimensions`.
    const match = /^(.+)@(\d+)$/.exec(model);
    const modelName = match ? match[1]! : model;
    if (!modelName) return undefined;
    return createOpenAiEmbedder({
      model: modelName,
      ...dependencies.openAiEndpoint(),
      ...(match ? { dimensions: Number(match[2]) } : {}),
    });
  },
});
