import type { ExternalMemoryDescriptor } from './external/external-memory-descriptor.js';
import { lettaDescriptor } from './letta/descriptor.js';
import { mem0Descriptor } from './mem0/descriptor.js';
import { mem0PlatformDescriptor } from './mem0-platform/descriptor.js';
import { mempalaceDescriptor } from './mempalace/descriptor.js';
import { supermemoryDescriptor } from './supermemory/descriptor.js';
import { zepDescriptor } from './zep/descriptor.js';

/**
 * The external memory systems `--provider` can name besides lme's own and `http`: one line per
 * system, its descriptor from its folder under providers/ (bridges to open-source systems, hosted
 * API adapters). Nothing else in the program names them: help, options, warnings and the run's
 * behaviour come from the descriptor.
 */
export const EXTERNAL_MEMORIES: Readonly<Record<string, ExternalMemoryDescriptor>> = {
  mem0: mem0Descriptor,
  mempalace: mempalaceDescriptor,
  'mem0-platform': mem0PlatformDescriptor,
  zep: zepDescriptor,
  supermemory: supermemoryDescriptor,
  letta: lettaDescriptor,
};
