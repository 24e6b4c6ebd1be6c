import type { ExternalMemoryDescriptor } from '../external/external-memory-descriptor.js';
import { createZepMemory } from './zep-memory.js';
import { zepOptions } from './zep-options.js';

/** `--provider zep`: Zep Cloud's graph memory (v3 SDK, `/api/v2` endpoints). */
export const zepDescriptor: ExternalMemoryDescriptor<typeof zepOptions> = {
  name: 'zep',
  description:
    'Zep Cloud (v3 SDK, /api/v2): one user graph per namespace, sessions as message episodes, facts credited to the episodes they came from; key in ZEP_API_KEY.',
  options: zepOptions,
  capabilities: {
    external: true,
    answersItself: false,
    ranks: true,
    apiKeyEnv: ['ZEP_API_KEY'],
  },
  createMemory: (options, dependencies) => createZepMemory(options, dependencies),
};
