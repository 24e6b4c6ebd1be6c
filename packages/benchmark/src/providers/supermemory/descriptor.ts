import type { ExternalMemoryDescriptor } from '../external/external-memory-descriptor.js';
import { createSupermemoryMemory } from './supermemory-memory.js';
import { SUPERMEMORY_SESSIONS_ONLY, supermemoryOptions } from './supermemory-options.js';

/** `--provider supermemory`: the hosted supermemory API (v3 documents, v4 search). */
export const supermemoryDescriptor: ExternalMemoryDescriptor<typeof supermemoryOptions> = {
  name: 'supermemory',
  description:
    'supermemory (API 3.0.0: v3 documents, v4 search): one container tag per namespace, one document per session, results mapped back by metadata; key in SUPERMEMORY_API_KEY.',
  options: supermemoryOptions,
  capabilities: {
    sessionsOnly: SUPERMEMORY_SESSIONS_ONLY,
    external: true,
    answersItself: false,
    ranks: true,
    apiKeyEnv: ['SUPERMEMORY_API_KEY'],
  },
  createMemory: (options, dependencies) => createSupermemoryMemory(options, dependencies),
};
