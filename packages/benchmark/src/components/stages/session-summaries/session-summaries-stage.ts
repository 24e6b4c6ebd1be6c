import { z } from 'zod';
import { defineStage } from '../stage-descriptor.js';
import { planSummaries } from './plan-summaries.js';
import { createSessionSummarizer } from './session-summarizer.js';

/**
 * Session summaries, written at index time for the components that read them: a base retriever
 * over a summary session index (`--session-index summary|both`) or a stage that `needsSummaries`
 * (`--contextual`). It is on when one of them is; `--summarizer` chooses its kind.
 */
export const sessionSummariesStage = defineStage({
  name: 'session-summaries',
  description: 'session summaries written at index time for the components that read them',
  options: {
    summarizer: {
      schema: z.enum(['extractive', 'llm']).default('extractive'),
      flags: '--summarizer <kind>',
      group: 'retrieval',
      help: 'session summaries: extractive (offline) or llm',
    },
    summarizerModel: {
      schema: z.string().min(1).default('gpt-4o-mini'),
      flags: '--summarizer-model <model>',
      group: 'retrieval',
      help: 'chat model of --summarizer llm',
    },
  },
  capabilities: { runsOn: 'pipeline', at: 'index', order: 2, needsVectors: false, providesSummaries: true },
  switch: 'summarizer',
  switchOn: { value: 'extractive', is: () => false },
  selectedBy: '--session-index summary|both',
  optionRules: {
    summarizerModel: { used: (options) => options.summarizer === 'llm', needs: '--summarizer llm' },
  },
  create: (options, parts) => createSessionSummarizer(options, parts),
  chatModel: (options) =>
    options.summarizer === 'llm' ? { role: 'summarizer', model: options.summarizerModel } : undefined,
  plan: (options, input) => planSummaries(options.summarizer === 'llm', input),
  // The report lists what reads the summaries (the retriever's session index, contextual chunks).
  provenance: () => undefined,
});
