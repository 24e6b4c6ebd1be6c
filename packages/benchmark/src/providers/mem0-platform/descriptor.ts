import type { ExternalMemoryDescriptor } from '../external/external-memory-descriptor.js';
import { createMem0PlatformMemory } from './mem0-platform-memory.js';
import { MEM0_PLATFORM_SESSIONS_ONLY, mem0PlatformOptions } from './mem0-platform-options.js';

/** `--provider mem0-platform`: the hosted Mem0 Platform API (v3 memory endpoints). */
export const mem0PlatformDescriptor: ExternalMemoryDescriptor<typeof mem0PlatformOptions> = {
  name: 'mem0-platform',
  description:
    'Mem0 Platform, the hosted Mem0 API (v3): one user per namespace, one add per session, memories mapped back by their metadata; key in MEM0_API_KEY.',
  options: mem0PlatformOptions,
  capabilities: {
    sessionsOnly: MEM0_PLATFORM_SESSIONS_ONLY,
    external: true,
    answersItself: false,
    ranks: true,
    apiKeyEnv: ['MEM0_API_KEY'],
  },
  createMemory: (options, dependencies) => createMem0PlatformMemory(options, dependencies),
};
