import { multiSignalStage as createMultiSignalStage } from '@lme/search-core';
import { z } from 'zod';
import { defineStage } from '../stage-descriptor.js';

/** `--multi-signal`: query understanding and the multi-signal re-rank of the candidate pool. */
export const multiSignalStage = defineStage({
  name: 'multi-signal',
  description: 'query understanding and a multi-signal re-rank of the candidate pool',
  options: {
    multiSignal: {
      schema: z.boolean().default(false),
      flags: '--multi-signal',
      group: 'stages',
      help: 'query understanding and a multi-signal re-rank (entities, time, recency)',
    },
  },
  capabilities: { runsOn: 'pipeline', order: 20, needsVectors: false },
  switch: 'multiSignal',
  create: () => createMultiSignalStage(),
  provenance: () => 'multi-signal re-rank',
  explain: (_options, { trace }) => {
    const { understanding, signalWeights } = trace;
    if (!understanding || !signalWeights) return undefined;
    const scope = understanding.temporalScope;
    return {
      signals: {
        query_class: understanding.queryClass,
        class_cue: understanding.explain.classCue ?? null,
        weights: signalWeights,
        entities: understanding.explain.entitySources,
        temporal_scope: scope
          ? {
              start: scope.start.toISOString(),
              end: scope.end.toISOString(),
              expression: scope.expression,
              rule: scope.rule,
            }
          : null,
      },
    };
  },
});
