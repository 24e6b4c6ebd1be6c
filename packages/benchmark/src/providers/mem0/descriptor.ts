import { z } from 'zod';
import { defineProviderOptions } from '../../components/provider-options.js';
import { chooseModel, loadModelCatalog } from '../../models/model-catalog.js';
import { createBridgeMemory } from '../bridges/bridge-pool.js';
import type { ExternalMemoryDescriptor } from '../external/external-memory-descriptor.js';

/**
 * The embedders the mem0 bridge can run offline: catalogued ONNX models its install fetches. The
 * default is the int8 all-MiniLM-L6-v2 lme's own dense runs use (about 3 times faster on a CPU
 * than fp32, which dominates mem0's ingest here).
 */
export const MEM0_EMBEDDERS = {
  'all-minilm-l6-v2': 'Xenova/all-MiniLM-L6-v2@q8',
  'all-minilm-l6-v2-fp32': 'Xenova/all-MiniLM-L6-v2@fp32',
  'bge-small-en-v1.5': 'Xenova/bge-small-en-v1.5@q8',
} as const;
const EMBEDDERS = MEM0_EMBEDDERS;

export const mem0Options = defineProviderOptions({
  embedder: {
    schema: z
      .enum(Object.keys(EMBEDDERS) as [keyof typeof EMBEDDERS, ...(keyof typeof EMBEDDERS)[]])
      .default('all-minilm-l6-v2'),
    help: 'the local ONNX embedder mem0 stores and searches with (int8 unless named fp32; mem0 itself defaults to an OpenAI model)',
  },
  threshold: {
    schema: z.number().min(0).max(1).default(0.1),
    help: "mem0's search threshold: turns whose semantic score is below it are not returned (mem0's default 0.1)",
  },
});

/**
 * mem0 (mem0ai 2.2.1) run by lme: every turn stored as said (`Memory.add(..., infer=False)`, no
 * LLM), Qdrant in its embedded on-disk mode, one mem0 user id per namespace; `Memory.search` ranks
 * turns with its semantic score (its BM25 and entity boost need models it downloads, so they are
 * off), and a session ranks at its best turn. Installed by `lme bridges install mem0`.
 */
export const mem0Descriptor: ExternalMemoryDescriptor<typeof mem0Options> = {
  name: 'mem0',
  description:
    'mem0 (mem0ai 2.2.1) run locally by lme: turns stored without an LLM (infer=False), embedded Qdrant, a local ONNX embedder; install with `lme bridges install mem0`',
  options: mem0Options,
  capabilities: { external: true, answersItself: false, ranks: true },
  createMemory(options, dependencies) {
    const model = chooseModel(loadModelCatalog(), EMBEDDERS[options.embedder]);
    return createBridgeMemory({
      name: 'mem0',
      dependencies,
      args: (manifest) => {
        const files = manifest.models[EMBEDDERS[options.embedder]];
        if (!files)
          throw new Error(
            `The mem0 bridge was installed without ${model.name}: run \`lme bridges install mem0\` again.`,
          );
        return [
          '--model',
          files.model,
          '--tokenizer',
          files.tokenizer,
          '--pooling',
          model.model.pooling,
          '--max-tokens',
          String(model.model.maxTokens),
          '--query-prefix',
          model.model.queryPrefix,
          '--threshold',
          String(options.threshold),
        ];
      },
    });
  },
};
