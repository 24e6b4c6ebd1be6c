import { z } from 'zod';
import { defineProviderOptions } from '../../components/provider-options.js';
import { createBridgeMemory } from '../bridges/bridge-pool.js';
import type { ExternalMemoryDescriptor } from '../external/external-memory-descriptor.js';

const MINILM = 'Xenova/all-MiniLM-L6-v2@fp32';

export const mempalaceOptions = defineProviderOptions({
  mode: {
    schema: z.enum(['mine', 'raw', 'hybrid']).default('mine'),
    help: "mine: the product's mine_convos and search_memories; raw, hybrid: the retrieval modes of MemPalace's own benchmark script (its benchmarks/ folder at 9b7cfc99), one Chroma document per session of its user turns",
  },
});

/**
 * MemPalace (mempalace 3.11.0) run by lme: one palace per namespace, each session a conversation
 * file mined by `mine_convos` into question-answer drawers, ranked by `search_memories` with
 * chromadb's default all-MiniLM-L6-v2 (fp32). Sessions only: it keeps no turns. Installed by
 * `lme bridges install mempalace`.
 */
export const mempalaceDescriptor: ExternalMemoryDescriptor<typeof mempalaceOptions> = {
  name: 'mempalace',
  description:
    'MemPalace (mempalace 3.11.0) run locally by lme: sessions mined into question-answer drawers, chromadb with all-MiniLM-L6-v2; session granularity only; install with `lme bridges install mempalace`',
  options: mempalaceOptions,
  capabilities: {
    external: true,
    answersItself: false,
    ranks: true,
    sessionsOnly:
      'it ranks whole sessions (mined drawers, or one document per session in its benchmark modes) and keeps no turns',
  },
  createMemory(options, dependencies) {
    return createBridgeMemory({
      name: 'mempalace',
      dependencies,
      args: (manifest) => {
        const files = manifest.models[MINILM];
        if (!files)
          throw new Error(
            'The MemPalace bridge was installed without its model: run `lme bridges install mempalace` again.',
          );
        return ['--model', files.model, '--tokenizer', files.tokenizer, '--mode', options.mode];
      },
    });
  },
};
