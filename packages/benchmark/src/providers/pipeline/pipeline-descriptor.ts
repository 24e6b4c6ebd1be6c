import { IN_PROCESS_CAPABILITIES } from '../../config/provider-capabilities.js';
import type { ProviderDescriptor } from '../provider-descriptor.js';
import { createPipelineProvider } from './pipeline-provider.js';

/** `--provider pipeline`: search-core's pipeline, configured by the run's flags or a preset. */
export const pipelineDescriptor: ProviderDescriptor = {
  name: 'pipeline',
  description: "lme's own pipeline (search-core), set by the retrieval flags or a preset",
  options: {},
  capabilities: IN_PROCESS_CAPABILITIES,
  create: ({ sections, resources, benchmark }) =>
    createPipelineProvider(sections, resources, process.env, benchmark),
};
