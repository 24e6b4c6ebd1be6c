import type { ExternalMemoryDescriptor } from '../external/external-memory-descriptor.js';
import { createLettaMemory } from './letta-memory.js';
import { lettaOptions } from './letta-options.js';

/** `--provider letta`: Letta's archival memory (agents' passages), Letta Cloud or self-hosted. */
export const lettaDescriptor: ExternalMemoryDescriptor<typeof lettaOptions> = {
  name: 'letta',
  description:
    'Letta archival memory (SDK 1.12.0): one agent per namespace, one passage per turn tagged with its session and turn; key in LETTA_API_KEY.',
  options: lettaOptions,
  capabilities: {
    external: true,
    answersItself: false,
    ranks: true,
    apiKeyEnv: ['LETTA_API_KEY'],
  },
  createMemory: (options, dependencies) => createLettaMemory(options, dependencies),
};
